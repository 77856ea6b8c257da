// cgif 0.3 (MIT) writes GIFs from palette indices: frames in one at a time, the bytes out through a callback. It
// reports errors as return codes, so no C wrapper is needed; it is loaded on first use: Swift calls the API as cgif.h
// declares it, and the functions of that name are Shrink's (cgif.c), which load libcgif with dlopen the first time one
// is called. Building needs the header (Debian: libcgif-dev); running needs libcgif0 only to write GIFs.
#ifndef CSHRINKCGIF_H
#define CSHRINKCGIF_H

#include <cgif.h>

/// Loads libcgif (once; thread-safe): 0 when loaded, -1 when not. The GIF writer calls this first and throws when it
/// fails.
int shrink_cgif_load(void);

/// Why `shrink_cgif_load` failed (dlopen's message, or the function the library lacks), else "".
const char *shrink_cgif_load_error(void);

#endif
