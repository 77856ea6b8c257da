// dav1d through dlopen: see include/CShrinkDav1d.h.
#include "CShrinkDav1d.h"

#include "CShrinkLoad.h"
#include <errno.h>

// One pointer per dav1d function Shrink calls, typed from dav1d's own declarations.
#define SHRINK_DAV1D_FUNCTIONS(X) \
    X(dav1d_version) X(dav1d_default_settings) X(dav1d_open) X(dav1d_parse_sequence_header) X(dav1d_send_data) \
    X(dav1d_get_picture) X(dav1d_close) X(dav1d_flush) X(dav1d_data_wrap) X(dav1d_data_unref) X(dav1d_picture_unref)

SHRINK_LIBRARY_API(shrink_dav1d, "libdav1d.so.6", SHRINK_DAV1D_FUNCTIONS)

const char *shrink_dav1d_version(void) { return shrink_dav1d_load() == 0 ? api.f.dav1d_version() : "(not loaded)"; }
void shrink_dav1d_default_settings(Dav1dSettings *s) { if (shrink_dav1d_load() == 0) api.f.dav1d_default_settings(s); }
int shrink_dav1d_open(Dav1dContext **c, const Dav1dSettings *s) {
    return shrink_dav1d_load() == 0 ? api.f.dav1d_open(c, s) : -ENOSYS;
}
int shrink_dav1d_parse_sequence_header(Dav1dSequenceHeader *out, const uint8_t *buf, size_t sz) {
    return shrink_dav1d_load() == 0 ? api.f.dav1d_parse_sequence_header(out, buf, sz) : -ENOSYS;
}
int shrink_dav1d_send_data(Dav1dContext *c, Dav1dData *in) {
    return shrink_dav1d_load() == 0 ? api.f.dav1d_send_data(c, in) : -ENOSYS;
}
int shrink_dav1d_get_picture(Dav1dContext *c, Dav1dPicture *out) {
    return shrink_dav1d_load() == 0 ? api.f.dav1d_get_picture(c, out) : -ENOSYS;
}
void shrink_dav1d_close(Dav1dContext **c) { if (shrink_dav1d_load() == 0) api.f.dav1d_close(c); }
void shrink_dav1d_flush(Dav1dContext *c) { if (shrink_dav1d_load() == 0) api.f.dav1d_flush(c); }
int shrink_dav1d_data_wrap(Dav1dData *data, const uint8_t *buf, size_t sz,
                           void (*free_callback)(const uint8_t *buf, void *cookie), void *cookie) {
    return shrink_dav1d_load() == 0 ? api.f.dav1d_data_wrap(data, buf, sz, free_callback, cookie) : -ENOSYS;
}
void shrink_dav1d_data_unref(Dav1dData *data) { if (shrink_dav1d_load() == 0) api.f.dav1d_data_unref(data); }
void shrink_dav1d_picture_unref(Dav1dPicture *p) { if (shrink_dav1d_load() == 0) api.f.dav1d_picture_unref(p); }
