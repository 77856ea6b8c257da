// cgif through dlopen: see include/CShrinkCGIF.h.
#include "CShrinkCGIF.h"

#include "CShrinkLoad.h"

#define SHRINK_CGIF_FUNCTIONS(X) X(cgif_newgif) X(cgif_addframe) X(cgif_close)

SHRINK_LIBRARY_API(shrink_cgif, "libcgif.so.0", SHRINK_CGIF_FUNCTIONS)

SHRINK_FORWARD(CGIF *, cgif_newgif, (CGIF_Config * pConfig), (pConfig))
SHRINK_FORWARD(int, cgif_addframe, (CGIF * pGIF, CGIF_FrameConfig *pConfig), (pGIF, pConfig))
SHRINK_FORWARD(int, cgif_close, (CGIF * pGIF), (pGIF))
