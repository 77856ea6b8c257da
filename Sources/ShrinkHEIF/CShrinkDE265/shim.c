// libde265 through dlopen: see include/CShrinkDE265.h.
#include "CShrinkDE265.h"

#include "CShrinkLoad.h"

// One pointer per libde265 function Shrink calls, typed from libde265's own declarations.
#define SHRINK_DE265_FUNCTIONS(X) \
    X(de265_get_version) X(de265_new_decoder) X(de265_set_verbosity) X(de265_free_decoder) X(de265_reset) \
    X(de265_push_NAL) X(de265_isOK) X(de265_flush_data) X(de265_decode) X(de265_get_next_picture) \
    X(de265_get_chroma_format) X(de265_get_image_width) X(de265_get_image_height) X(de265_get_image_plane) \
    X(de265_get_bits_per_pixel) X(de265_get_image_full_range_flag) X(de265_get_image_matrix_coefficients) \
    X(de265_get_error_text)

SHRINK_LIBRARY_API(shrink_de265, "libde265.so.0", SHRINK_DE265_FUNCTIONS)

const char *shrink_de265_get_version(void) { return shrink_de265_load() == 0 ? api.f.de265_get_version() : "(not loaded)"; }
de265_decoder_context *shrink_de265_new_decoder(void) { return api.f.de265_new_decoder(); }
void shrink_de265_set_verbosity(int level) { api.f.de265_set_verbosity(level); }
de265_error shrink_de265_free_decoder(de265_decoder_context *d) { return api.f.de265_free_decoder(d); }
void shrink_de265_reset(de265_decoder_context *d) { api.f.de265_reset(d); }
de265_error shrink_de265_push_NAL(de265_decoder_context *d, const void *data, int length, de265_PTS pts, void *user) {
    return api.f.de265_push_NAL(d, data, length, pts, user);
}
int shrink_de265_isOK(de265_error e) { return api.f.de265_isOK(e); }
de265_error shrink_de265_flush_data(de265_decoder_context *d) { return api.f.de265_flush_data(d); }
de265_error shrink_de265_decode(de265_decoder_context *d, int *more) { return api.f.de265_decode(d, more); }
const struct de265_image *shrink_de265_get_next_picture(de265_decoder_context *d) { return api.f.de265_get_next_picture(d); }
enum de265_chroma shrink_de265_get_chroma_format(const struct de265_image *i) { return api.f.de265_get_chroma_format(i); }
int shrink_de265_get_image_width(const struct de265_image *i, int c) { return api.f.de265_get_image_width(i, c); }
int shrink_de265_get_image_height(const struct de265_image *i, int c) { return api.f.de265_get_image_height(i, c); }
const uint8_t *shrink_de265_get_image_plane(const struct de265_image *i, int c, int *stride) {
    return api.f.de265_get_image_plane(i, c, stride);
}
int shrink_de265_get_bits_per_pixel(const struct de265_image *i, int c) { return api.f.de265_get_bits_per_pixel(i, c); }
int shrink_de265_get_image_full_range_flag(const struct de265_image *i) { return api.f.de265_get_image_full_range_flag(i); }
int shrink_de265_get_image_matrix_coefficients(const struct de265_image *i) {
    return api.f.de265_get_image_matrix_coefficients(i);
}
const char *shrink_de265_get_error_text(de265_error e) { return api.f.de265_get_error_text(e); }
