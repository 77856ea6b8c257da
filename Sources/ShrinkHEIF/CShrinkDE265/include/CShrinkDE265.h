// libde265, loaded on first use: only HEIC files need it, and linking it made every process map it and run its start-up
// code at each start of the CLI (the CPU it cost: BENCHMARKS.md, "Figures behind the code"). These functions are
// libde265's, prefixed `shrink_`; call `shrink_de265_load` first, and the others only when it returned 0.
#ifndef CSHRINKDE265_H
#define CSHRINKDE265_H

#include <libde265/de265.h>

/// Loads libde265 (soname libde265.so.0) and resolves the functions below, once per process (thread-safe).
/// Returns 0 when they are available, -1 when not; then `shrink_de265_load_error` says why.
int shrink_de265_load(void);
/// dlopen's or dlsym's message when `shrink_de265_load` failed, else "".
const char *shrink_de265_load_error(void);

const char *shrink_de265_get_version(void);
de265_decoder_context *shrink_de265_new_decoder(void);
void shrink_de265_set_verbosity(int level);
de265_error shrink_de265_free_decoder(de265_decoder_context *);
void shrink_de265_reset(de265_decoder_context *);
de265_error shrink_de265_push_NAL(de265_decoder_context *, const void *data, int length, de265_PTS pts, void *user_data);
int shrink_de265_isOK(de265_error);
de265_error shrink_de265_flush_data(de265_decoder_context *);
de265_error shrink_de265_decode(de265_decoder_context *, int *more);
const struct de265_image *shrink_de265_get_next_picture(de265_decoder_context *);
enum de265_chroma shrink_de265_get_chroma_format(const struct de265_image *);
int shrink_de265_get_image_width(const struct de265_image *, int channel);
int shrink_de265_get_image_height(const struct de265_image *, int channel);
const uint8_t *shrink_de265_get_image_plane(const struct de265_image *, int channel, int *out_stride);
int shrink_de265_get_bits_per_pixel(const struct de265_image *, int channel);
int shrink_de265_get_image_full_range_flag(const struct de265_image *);
int shrink_de265_get_image_matrix_coefficients(const struct de265_image *);
const char *shrink_de265_get_error_text(de265_error);

#endif
