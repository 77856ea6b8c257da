// libheif, loaded on first use: Shrink decodes HEIC/AVIF tiles itself and needs libheif only for derived images (iden,
// iovl). Linking it would load libheif and its encoders (x265, aom) into every process at each start, most of a small
// thumbnail's CPU (BENCHMARKS.md, "Figures behind the code"). These functions are libheif's, prefixed `shrink_`; call
// `shrink_heif_load` first, and the others only when it returned 0.
#ifndef CSHRINKHEIF_H
#define CSHRINKHEIF_H

#include <stddef.h>
#include <libheif/heif.h>

/// Loads libheif (soname libheif.so.1) and resolves the functions below, once per process (thread-safe).
/// Returns 0 when they are available, -1 when not; then `shrink_heif_load_error` says why.
int shrink_heif_load(void);
/// dlopen's or dlsym's message when `shrink_heif_load` failed, else "".
const char *shrink_heif_load_error(void);

const char *shrink_heif_get_version(void);
struct heif_context *shrink_heif_context_alloc(void);
void shrink_heif_context_free(struct heif_context *);
void shrink_heif_context_set_maximum_image_size_limit(struct heif_context *, int maximum_width);
struct heif_error shrink_heif_context_read_from_memory_without_copy(struct heif_context *, const void *mem, size_t size,
                                                                     const struct heif_reading_options *);
struct heif_error shrink_heif_context_get_primary_image_handle(struct heif_context *, struct heif_image_handle **);
void shrink_heif_image_handle_release(const struct heif_image_handle *);
int shrink_heif_image_handle_get_width(const struct heif_image_handle *);
int shrink_heif_image_handle_get_height(const struct heif_image_handle *);
int shrink_heif_image_handle_has_alpha_channel(const struct heif_image_handle *);
int shrink_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *);
enum heif_color_profile_type shrink_heif_image_handle_get_color_profile_type(const struct heif_image_handle *);
size_t shrink_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *);
struct heif_error shrink_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *, void *out_data);
struct heif_decoding_options *shrink_heif_decoding_options_alloc(void);
void shrink_heif_decoding_options_free(struct heif_decoding_options *);
struct heif_error shrink_heif_decode_image(const struct heif_image_handle *, struct heif_image **out_img,
                                           enum heif_colorspace, enum heif_chroma,
                                           const struct heif_decoding_options *);
void shrink_heif_image_release(const struct heif_image *);
int shrink_heif_image_get_width(const struct heif_image *, enum heif_channel);
int shrink_heif_image_get_height(const struct heif_image *, enum heif_channel);
const uint8_t *shrink_heif_image_get_plane_readonly(const struct heif_image *, enum heif_channel, int *out_stride);

#endif
