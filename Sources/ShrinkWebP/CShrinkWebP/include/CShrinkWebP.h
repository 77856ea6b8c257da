// libwebp's decoder, encoder, demuxer and muxer as a module, loaded on first use: Swift calls the API as libwebp's
// headers declare it, and the functions of that name are Shrink's (webp.c, demux.c, mux.c), which load the three
// libraries with dlopen the first time one is called. Building needs the headers (Debian: libwebp-dev); running needs
// libwebp7, libwebpdemux2 and libwebpmux3 only for WebP files.
#ifndef CSHRINKWEBP_H
#define CSHRINKWEBP_H

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

/// Loads libwebp, libwebpdemux and libwebpmux (once; thread-safe): 0 when all three are loaded, -1 when not.
/// The WebP codec calls this before anything else and throws when it fails, so no call reaches a library that is not
/// there.
int shrink_webp_load(void);

/// Why `shrink_webp_load` failed (dlopen's message, or the function a library lacks), else "".
const char *shrink_webp_load_error(void);

#endif
