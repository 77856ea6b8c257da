// giflib 5 reports errors as return codes (GIF_ERROR plus GifFileType.Error), so no C wrapper is needed.
#include <gif_lib.h>
