// dav1d, loaded on first use: only AVIF files need it, and linking it made every process map it at each start of the
// CLI (the CPU it cost: BENCHMARKS.md, "Figures behind the code"). These functions are dav1d's, prefixed `shrink_`;
// each loads dav1d on its first call, and when it cannot be loaded returns an error (negative) or does nothing.
// `shrink_dav1d_load` says whether it is there (and `shrink_dav1d_load_error` why not).
#ifndef CSHRINKDAV1D_H
#define CSHRINKDAV1D_H

#include <dav1d/dav1d.h>

/// Loads dav1d (soname libdav1d.so.6) and resolves the functions below, once per process (thread-safe).
/// Returns 0 when they are available, -1 when not.
int shrink_dav1d_load(void);
/// dlopen's or dlsym's message when `shrink_dav1d_load` failed, else "".
const char *shrink_dav1d_load_error(void);

const char *shrink_dav1d_version(void);
void shrink_dav1d_default_settings(Dav1dSettings *s);
int shrink_dav1d_open(Dav1dContext **c_out, const Dav1dSettings *s);
int shrink_dav1d_parse_sequence_header(Dav1dSequenceHeader *out, const uint8_t *buf, size_t sz);
int shrink_dav1d_send_data(Dav1dContext *c, Dav1dData *in);
int shrink_dav1d_get_picture(Dav1dContext *c, Dav1dPicture *out);
void shrink_dav1d_close(Dav1dContext **c_out);
void shrink_dav1d_flush(Dav1dContext *c);
int shrink_dav1d_data_wrap(Dav1dData *data, const uint8_t *buf, size_t sz,
                           void (*free_callback)(const uint8_t *buf, void *cookie), void *cookie);
void shrink_dav1d_data_unref(Dav1dData *data);
void shrink_dav1d_picture_unref(Dav1dPicture *p);

#endif
