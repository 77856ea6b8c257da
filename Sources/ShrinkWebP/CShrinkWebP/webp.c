// libwebp (decoding and encoding) through dlopen: see include/CShrinkWebP.h.
// libwebp's headers declare its functions with default visibility; the forwarders below are hidden (SHRINK_FORWARD:
// exported, libwebpmux, libtiff and libwebp itself would call them instead of libwebp), so the declarations say so.
#define WEBP_EXTERN extern __attribute__((visibility("hidden")))
#include "CShrinkWebP.h"

#include "CShrinkLoad.h"

// The functions Shrink calls, directly or through the headers' inline wrappers (the …Internal ones).
#define SHRINK_WEBP_FUNCTIONS(X) \
    X(WebPGetFeaturesInternal) X(WebPInitDecoderConfigInternal) X(WebPIDecode) X(WebPIUpdate) X(WebPIDelete) \
    X(WebPFreeDecBuffer) X(WebPFree) X(WebPGetEncoderVersion) X(WebPConfigInitInternal) X(WebPValidateConfig) \
    X(WebPPictureInitInternal) X(WebPPictureImportRGB) X(WebPPictureImportRGBA) X(WebPPictureFree) X(WebPEncode) \
    X(WebPMemoryWriterInit) X(WebPMemoryWrite) X(WebPMemoryWriterClear)

SHRINK_LIBRARY_API(shrink_webp_core, "libwebp.so.7", SHRINK_WEBP_FUNCTIONS)

SHRINK_FORWARD(VP8StatusCode, WebPGetFeaturesInternal,
               (const uint8_t *data, size_t data_size, WebPBitstreamFeatures *features, int version),
               (data, data_size, features, version))
SHRINK_FORWARD(int, WebPInitDecoderConfigInternal, (WebPDecoderConfig * config, int version), (config, version))
SHRINK_FORWARD(WebPIDecoder *, WebPIDecode, (const uint8_t *data, size_t data_size, WebPDecoderConfig *config),
               (data, data_size, config))
SHRINK_FORWARD(VP8StatusCode, WebPIUpdate, (WebPIDecoder * idec, const uint8_t *data, size_t data_size),
               (idec, data, data_size))
SHRINK_FORWARD_VOID(WebPIDelete, (WebPIDecoder * idec), (idec))
SHRINK_FORWARD_VOID(WebPFreeDecBuffer, (WebPDecBuffer * buffer), (buffer))
SHRINK_FORWARD_VOID(WebPFree, (void *ptr), (ptr))
SHRINK_FORWARD(int, WebPGetEncoderVersion, (void), ())
SHRINK_FORWARD(int, WebPConfigInitInternal, (WebPConfig * config, WebPPreset preset, float quality, int version),
               (config, preset, quality, version))
SHRINK_FORWARD(int, WebPValidateConfig, (const WebPConfig *config), (config))
SHRINK_FORWARD(int, WebPPictureInitInternal, (WebPPicture * picture, int version), (picture, version))
SHRINK_FORWARD(int, WebPPictureImportRGB, (WebPPicture * picture, const uint8_t *rgb, int rgb_stride),
               (picture, rgb, rgb_stride))
SHRINK_FORWARD(int, WebPPictureImportRGBA, (WebPPicture * picture, const uint8_t *rgba, int rgba_stride),
               (picture, rgba, rgba_stride))
SHRINK_FORWARD_VOID(WebPPictureFree, (WebPPicture * picture), (picture))
SHRINK_FORWARD(int, WebPEncode, (const WebPConfig *config, WebPPicture *picture), (config, picture))
SHRINK_FORWARD_VOID(WebPMemoryWriterInit, (WebPMemoryWriter * writer), (writer))
SHRINK_FORWARD(int, WebPMemoryWrite, (const uint8_t *data, size_t data_size, const WebPPicture *picture),
               (data, data_size, picture))
SHRINK_FORWARD_VOID(WebPMemoryWriterClear, (WebPMemoryWriter * writer), (writer))

// The demuxer's and muxer's libraries (demux.c, mux.c).
int shrink_webp_demux_load(void);
const char *shrink_webp_demux_load_error(void);
int shrink_webp_mux_load(void);
const char *shrink_webp_mux_load_error(void);

int shrink_webp_load(void) {
    return shrink_webp_core_load() == 0 && shrink_webp_demux_load() == 0 && shrink_webp_mux_load() == 0 ? 0 : -1;
}

const char *shrink_webp_load_error(void) {
    if (shrink_webp_core_load() != 0) return shrink_webp_core_load_error();
    if (shrink_webp_demux_load() != 0) return shrink_webp_demux_load_error();
    if (shrink_webp_mux_load() != 0) return shrink_webp_mux_load_error();
    return "";
}
