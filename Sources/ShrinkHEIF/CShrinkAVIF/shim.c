// libavif through dlopen: see include/CShrinkAVIF.h.
#include "CShrinkAVIF.h"

#include "CShrinkLoad.h"
#include <string.h>

// One pointer per libavif function Shrink calls, typed from libavif's own declarations.
#define SHRINK_AVIF_FUNCTIONS(X) \
    X(avifVersion) X(avifCodecVersions) X(avifCodecName) X(avifResultToString) X(avifImageCreate) \
    X(avifImageDestroy) X(avifImageAllocatePlanes) X(avifImageSetProfileICC) X(avifImageSetMetadataExif) \
    X(avifRGBImageSetDefaults) X(avifImageRGBToYUV) X(avifEncoderCreate) X(avifEncoderDestroy) \
    X(avifEncoderSetCodecSpecificOption) X(avifEncoderWrite) X(avifEncoderAddImage) X(avifEncoderFinish) \
    X(avifRWDataFree)

SHRINK_LIBRARY_API(shrink_avif, "libavif.so.15", SHRINK_AVIF_FUNCTIONS)

#define LOADED (shrink_avif_load() == 0)

const char *shrink_avif_version(void) { return LOADED ? api.f.avifVersion() : "(not loaded)"; }
void shrink_avif_codec_versions(char out[256]) {
    if (LOADED) api.f.avifCodecVersions(out); else strcpy(out, "(not loaded)");
}
const char *shrink_avif_codec_name(avifCodecChoice choice, avifCodecFlags flags) {
    return LOADED ? api.f.avifCodecName(choice, flags) : NULL;
}
const char *shrink_avif_result_to_string(avifResult result) {
    return LOADED ? api.f.avifResultToString(result) : "libavif is not loaded";
}
avifImage *shrink_avif_image_create(uint32_t width, uint32_t height, uint32_t depth, avifPixelFormat format) {
    return LOADED ? api.f.avifImageCreate(width, height, depth, format) : NULL;
}
void shrink_avif_image_destroy(avifImage *image) { if (LOADED) api.f.avifImageDestroy(image); }
avifResult shrink_avif_image_allocate_planes(avifImage *image, avifPlanesFlags planes) {
    return LOADED ? api.f.avifImageAllocatePlanes(image, planes) : AVIF_RESULT_NO_CODEC_AVAILABLE;
}
void shrink_avif_image_set_profile_icc(avifImage *image, const uint8_t *icc, size_t size) {
    if (LOADED) api.f.avifImageSetProfileICC(image, icc, size);
}
void shrink_avif_image_set_metadata_exif(avifImage *image, const uint8_t *exif, size_t size) {
    if (LOADED) api.f.avifImageSetMetadataExif(image, exif, size);
}
void shrink_avif_rgb_image_set_defaults(avifRGBImage *rgb, const avifImage *image) {
    if (LOADED) api.f.avifRGBImageSetDefaults(rgb, image);
}
avifResult shrink_avif_image_rgb_to_yuv(avifImage *image, const avifRGBImage *rgb) {
    return LOADED ? api.f.avifImageRGBToYUV(image, rgb) : AVIF_RESULT_NO_CODEC_AVAILABLE;
}
avifEncoder *shrink_avif_encoder_create(void) { return LOADED ? api.f.avifEncoderCreate() : NULL; }
void shrink_avif_encoder_destroy(avifEncoder *encoder) { if (LOADED) api.f.avifEncoderDestroy(encoder); }
void shrink_avif_encoder_set_codec_specific_option(avifEncoder *encoder, const char *key, const char *value) {
    if (LOADED) api.f.avifEncoderSetCodecSpecificOption(encoder, key, value);
}
avifResult shrink_avif_encoder_write(avifEncoder *encoder, const avifImage *image, avifRWData *output) {
    return LOADED ? api.f.avifEncoderWrite(encoder, image, output) : AVIF_RESULT_NO_CODEC_AVAILABLE;
}
avifResult shrink_avif_encoder_add_image(avifEncoder *encoder, const avifImage *image, uint64_t duration,
                                         avifAddImageFlags flags) {
    return LOADED ? api.f.avifEncoderAddImage(encoder, image, duration, flags) : AVIF_RESULT_NO_CODEC_AVAILABLE;
}
avifResult shrink_avif_encoder_finish(avifEncoder *encoder, avifRWData *output) {
    return LOADED ? api.f.avifEncoderFinish(encoder, output) : AVIF_RESULT_NO_CODEC_AVAILABLE;
}
void shrink_avif_rw_data_free(avifRWData *data) { if (LOADED) api.f.avifRWDataFree(data); }
