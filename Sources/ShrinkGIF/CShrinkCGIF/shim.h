// cgif 0.3 (MIT) writes GIFs from palette indices: frames in one at a time, the bytes out through a callback. It
// reports errors as return codes, so no C wrapper is needed.
#include <cgif.h>
