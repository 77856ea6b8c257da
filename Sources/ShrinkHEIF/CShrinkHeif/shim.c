// libheif through dlopen: see include/CShrinkHeif.h.
#include "CShrinkHeif.h"

#include "CShrinkLoad.h"

// One pointer per libheif function Shrink calls, typed from libheif's own declarations.
#define SHRINK_HEIF_FUNCTIONS(X) \
    X(heif_get_version) X(heif_context_alloc) X(heif_context_free) \
    X(heif_context_set_maximum_image_size_limit) X(heif_context_read_from_memory_without_copy) \
    X(heif_context_get_primary_image_handle) X(heif_image_handle_release) X(heif_image_handle_get_width) \
    X(heif_image_handle_get_height) X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_get_luma_bits_per_pixel) X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile) \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free) X(heif_decode_image) X(heif_image_release) \
    X(heif_image_get_width) X(heif_image_get_height) X(heif_image_get_plane_readonly)

SHRINK_LIBRARY_API(shrink_heif, "libheif.so.1", SHRINK_HEIF_FUNCTIONS)

const char *shrink_heif_get_version(void) { return shrink_heif_load() == 0 ? api.f.heif_get_version() : "(not loaded)"; }
struct heif_context *shrink_heif_context_alloc(void) { return api.f.heif_context_alloc(); }
void shrink_heif_context_free(struct heif_context *c) { api.f.heif_context_free(c); }
void shrink_heif_context_set_maximum_image_size_limit(struct heif_context *c, int w) {
    api.f.heif_context_set_maximum_image_size_limit(c, w);
}
struct heif_error shrink_heif_context_read_from_memory_without_copy(struct heif_context *c, const void *m, size_t n,
                                                                     const struct heif_reading_options *o) {
    return api.f.heif_context_read_from_memory_without_copy(c, m, n, o);
}
struct heif_error shrink_heif_context_get_primary_image_handle(struct heif_context *c, struct heif_image_handle **h) {
    return api.f.heif_context_get_primary_image_handle(c, h);
}
void shrink_heif_image_handle_release(const struct heif_image_handle *h) { api.f.heif_image_handle_release(h); }
int shrink_heif_image_handle_get_width(const struct heif_image_handle *h) { return api.f.heif_image_handle_get_width(h); }
int shrink_heif_image_handle_get_height(const struct heif_image_handle *h) { return api.f.heif_image_handle_get_height(h); }
int shrink_heif_image_handle_has_alpha_channel(const struct heif_image_handle *h) {
    return api.f.heif_image_handle_has_alpha_channel(h);
}
int shrink_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *h) {
    return api.f.heif_image_handle_get_luma_bits_per_pixel(h);
}
enum heif_color_profile_type shrink_heif_image_handle_get_color_profile_type(const struct heif_image_handle *h) {
    return api.f.heif_image_handle_get_color_profile_type(h);
}
size_t shrink_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *h) {
    return api.f.heif_image_handle_get_raw_color_profile_size(h);
}
struct heif_error shrink_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *h, void *out) {
    return api.f.heif_image_handle_get_raw_color_profile(h, out);
}
struct heif_decoding_options *shrink_heif_decoding_options_alloc(void) { return api.f.heif_decoding_options_alloc(); }
void shrink_heif_decoding_options_free(struct heif_decoding_options *o) { api.f.heif_decoding_options_free(o); }
struct heif_error shrink_heif_decode_image(const struct heif_image_handle *h, struct heif_image **out,
                                           enum heif_colorspace space, enum heif_chroma chroma,
                                           const struct heif_decoding_options *o) {
    return api.f.heif_decode_image(h, out, space, chroma, o);
}
void shrink_heif_image_release(const struct heif_image *i) { api.f.heif_image_release(i); }
int shrink_heif_image_get_width(const struct heif_image *i, enum heif_channel c) { return api.f.heif_image_get_width(i, c); }
int shrink_heif_image_get_height(const struct heif_image *i, enum heif_channel c) { return api.f.heif_image_get_height(i, c); }
const uint8_t *shrink_heif_image_get_plane_readonly(const struct heif_image *i, enum heif_channel c, int *stride) {
    return api.f.heif_image_get_plane_readonly(i, c, stride);
}
