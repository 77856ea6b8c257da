// libavif, loaded on first use, for writing AVIF: Shrink reads AVIF with its own container parser and dav1d, and
// needs libavif only to write. Debian's libavif links five AV1 codecs (aom, SVT-AV1, rav1e, libgav1, dav1d); linking
// it would map them all into every process at each start. These functions are libavif's, prefixed `shrink_`; call
// `shrink_avif_load` first, and the others only when it returned 0.
#ifndef CSHRINKAVIF_H
#define CSHRINKAVIF_H

#include <avif/avif.h>
#include <stddef.h>

/// Loads libavif (soname libavif.so.15) and resolves the functions below, once per process (thread-safe).
/// Returns 0 when they are available, -1 when not; then `shrink_avif_load_error` says why.
int shrink_avif_load(void);
/// dlopen's or dlsym's message when `shrink_avif_load` failed, else "".
const char *shrink_avif_load_error(void);

const char *shrink_avif_version(void);
void shrink_avif_codec_versions(char out[256]);
const char *shrink_avif_codec_name(avifCodecChoice choice, avifCodecFlags flags);
const char *shrink_avif_result_to_string(avifResult result);
avifImage *shrink_avif_image_create(uint32_t width, uint32_t height, uint32_t depth, avifPixelFormat format);
void shrink_avif_image_destroy(avifImage *image);
avifResult shrink_avif_image_allocate_planes(avifImage *image, avifPlanesFlags planes);
void shrink_avif_image_set_profile_icc(avifImage *image, const uint8_t *icc, size_t size);
void shrink_avif_image_set_metadata_exif(avifImage *image, const uint8_t *exif, size_t size);
void shrink_avif_rgb_image_set_defaults(avifRGBImage *rgb, const avifImage *image);
avifResult shrink_avif_image_rgb_to_yuv(avifImage *image, const avifRGBImage *rgb);
avifEncoder *shrink_avif_encoder_create(void);
void shrink_avif_encoder_destroy(avifEncoder *encoder);
void shrink_avif_encoder_set_codec_specific_option(avifEncoder *encoder, const char *key, const char *value);
avifResult shrink_avif_encoder_write(avifEncoder *encoder, const avifImage *image, avifRWData *output);
avifResult shrink_avif_encoder_add_image(avifEncoder *encoder, const avifImage *image, uint64_t duration,
                                         avifAddImageFlags flags);
avifResult shrink_avif_encoder_finish(avifEncoder *encoder, avifRWData *output);
void shrink_avif_rw_data_free(avifRWData *data);

#endif
