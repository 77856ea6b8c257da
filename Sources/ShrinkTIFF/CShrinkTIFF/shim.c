// libtiff through dlopen: see include/cshrink_tiff.h.
#include "cshrink_tiff.h"

#include "CShrinkLoad.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

// One pointer per libtiff function Shrink calls, typed from libtiff's own declarations.
#define SHRINK_TIFF_FUNCTIONS(X) \
    X(TIFFGetVersion) X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFOpenOptionsSetMaxSingleMemAlloc) X(TIFFClientOpenExt) X(TIFFClose) \
    X(TIFFCurrentDirectory) X(TIFFReadDirectory) X(TIFFSetDirectory) X(TIFFSetSubDirectory) X(TIFFGetField) \
    X(TIFFGetFieldDefaulted) X(TIFFIsTiled) X(TIFFRGBAImageOK) X(TIFFRGBAImageBegin) X(TIFFRGBAImageGet) \
    X(TIFFRGBAImageEnd) X(TIFFReadEncodedTile) X(TIFFComputeTile) X(TIFFReadScanline) \
    X(TIFFComputeStrip) X(TIFFGetStrileOffset) X(TIFFGetStrileByteCount)

SHRINK_LIBRARY_API(shrink_tiff, "libtiff.so.6", SHRINK_TIFF_FUNCTIONS)

#define T(name) api.f.name

const char *cshrink_tiff_version(void) { return shrink_tiff_load() == 0 ? T(TIFFGetVersion)() : "libtiff (not loaded)"; }

struct cshrink_tiff {
    TIFF *tif;
    const unsigned char *data;
    uint64_t size, offset;
    char error[512], warning[512];
    int warnings;
    int rgba_started;
    TIFFRGBAImage rgba;
};

static tmsize_t read_proc(thandle_t h, void *buf, tmsize_t n) {
    cshrink_tiff *t = h;
    if (n <= 0 || t->offset >= t->size) return 0;
    uint64_t left = t->size - t->offset;
    uint64_t count = (uint64_t)n < left ? (uint64_t)n : left;
    memcpy(buf, t->data + t->offset, count);
    t->offset += count;
    return (tmsize_t)count;
}
static tmsize_t write_proc(thandle_t h, void *buf, tmsize_t n) { (void)h; (void)buf; (void)n; return -1; }
static toff_t seek_proc(thandle_t h, toff_t off, int whence) {
    cshrink_tiff *t = h;
    uint64_t base = whence == SEEK_CUR ? t->offset : whence == SEEK_END ? t->size : 0;
    t->offset = base + off;
    return t->offset;
}
static int close_proc(thandle_t h) { (void)h; return 0; }
static toff_t size_proc(thandle_t h) { return ((cshrink_tiff *)h)->size; }
// The bytes are in memory already: libtiff reads them in place instead of copying strips and tiles.
static int map_proc(thandle_t h, void **base, toff_t *size) {
    cshrink_tiff *t = h;
    *base = (void *)t->data;
    *size = t->size;
    return 1;
}
static void unmap_proc(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    cshrink_tiff *t = user;
    vsnprintf(t->error, sizeof t->error, fmt, ap);
    return 1;
}
static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    cshrink_tiff *t = user;
    if (t->warnings++ == 0) vsnprintf(t->warning, sizeof t->warning, fmt, ap);
    return 1;
}

cshrink_tiff *cshrink_tiff_open(const void *data, size_t size, size_t max_alloc, char *error, size_t error_size) {
    if (shrink_tiff_load() != 0) {
        snprintf(error, error_size, "libtiff did not load: %s", shrink_tiff_load_error());
        return NULL;
    }
    cshrink_tiff *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    t->data = data;
    t->size = size;
    TIFFOpenOptions *options = T(TIFFOpenOptionsAlloc)();
    if (!options) {
        free(t);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    T(TIFFOpenOptionsSetErrorHandlerExtR)(options, on_error, t);
    T(TIFFOpenOptionsSetWarningHandlerExtR)(options, on_warning, t);
    if (max_alloc > 0) T(TIFFOpenOptionsSetMaxSingleMemAlloc)(options, (tmsize_t)max_alloc);
    // "M": strips and tiles read in place through map_proc (the bytes are in memory already), not copied.
    t->tif = T(TIFFClientOpenExt)("tiff", "rM", t, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc,
                               unmap_proc, options);
    T(TIFFOpenOptionsFree)(options);
    if (!t->tif) {
        snprintf(error, error_size, "%s", t->error[0] ? t->error : "not a TIFF libtiff can read");
        free(t);
        return NULL;
    }
    return t;
}

void cshrink_tiff_rgba_end(cshrink_tiff *t) {
    if (t->rgba_started) T(TIFFRGBAImageEnd)(&t->rgba);
    t->rgba_started = 0;
}

void cshrink_tiff_close(cshrink_tiff *t) {
    if (!t) return;
    cshrink_tiff_rgba_end(t);
    T(TIFFClose)(t->tif);
    free(t);
}

const char *cshrink_tiff_error(const cshrink_tiff *t) { return t->error; }
int cshrink_tiff_warning_count(const cshrink_tiff *t) { return t->warnings; }
const char *cshrink_tiff_first_warning(const cshrink_tiff *t) { return t->warning; }

int cshrink_tiff_count_directories(cshrink_tiff *t, int limit) {
    // TIFFReadDirectory (which TIFFSetDirectory runs) refuses an IFD chain that loops.
    int n = 1;
    tdir_t current = T(TIFFCurrentDirectory)(t->tif);
    while (n < limit && T(TIFFReadDirectory)(t->tif)) n++;
    T(TIFFSetDirectory)(t->tif, current);
    return n;
}

int cshrink_tiff_set_directory(cshrink_tiff *t, int index) {
    cshrink_tiff_rgba_end(t);
    return T(TIFFSetDirectory)(t->tif, (tdir_t)index);
}

int cshrink_tiff_set_subdirectory(cshrink_tiff *t, uint64_t offset) {
    cshrink_tiff_rgba_end(t);
    return T(TIFFSetSubDirectory)(t->tif, offset);
}

int cshrink_tiff_u32(cshrink_tiff *t, uint32_t tag, uint32_t *value) { return T(TIFFGetFieldDefaulted)(t->tif, tag, value); }
int cshrink_tiff_u16(cshrink_tiff *t, uint32_t tag, uint16_t *value) { return T(TIFFGetFieldDefaulted)(t->tif, tag, value); }
int cshrink_tiff_u16_stored(cshrink_tiff *t, uint32_t tag, uint16_t *value) { return T(TIFFGetField)(t->tif, tag, value); }

int cshrink_tiff_icc(cshrink_tiff *t, const void **data, uint32_t *length) {
    void *bytes = NULL;
    uint32_t count = 0;
    if (!T(TIFFGetField)(t->tif, TIFFTAG_ICCPROFILE, &count, &bytes) || !bytes) return 0;
    *data = bytes;
    *length = count;
    return 1;
}

int cshrink_tiff_subifds(cshrink_tiff *t, uint16_t *count, const uint64_t **offsets) {
    uint64_t *list = NULL;
    uint16_t n = 0;
    if (!T(TIFFGetField)(t->tif, TIFFTAG_SUBIFD, &n, &list) || !list) return 0;
    *count = n;
    *offsets = list;
    return 1;
}

int cshrink_tiff_extra_samples(cshrink_tiff *t, uint16_t *count, const uint16_t **kinds) {
    uint16_t *list = NULL;
    uint16_t n = 0;
    if (!T(TIFFGetFieldDefaulted)(t->tif, TIFFTAG_EXTRASAMPLES, &n, &list)) return 0;
    *count = n;
    *kinds = list;
    return 1;
}

int cshrink_tiff_is_tiled(cshrink_tiff *t) { return T(TIFFIsTiled)(t->tif); }

uint64_t cshrink_tiff_exif_offset(cshrink_tiff *t) {
    uint64_t offset = 0;
    return T(TIFFGetField)(t->tif, TIFFTAG_EXIFIFD, &offset) ? offset : 0;
}

int cshrink_tiff_rgba_ok(cshrink_tiff *t, char *error, size_t error_size) {
    char message[1024] = "";
    int ok = T(TIFFRGBAImageOK)(t->tif, message);
    if (!ok) snprintf(error, error_size, "%s", message);
    return ok;
}

int cshrink_tiff_rgba_rows(cshrink_tiff *t, uint32_t row, uint32_t rows, uint32_t *raster) {
    if (!t->rgba_started) {
        char message[1024] = "";
        if (!T(TIFFRGBAImageBegin)(&t->rgba, t->tif, 0, message)) {
            snprintf(t->error, sizeof t->error, "%s", message);
            return 0;
        }
        t->rgba_started = 1;
        // Rows as stored: the orientation is applied once, by Shrink.
        t->rgba.req_orientation = t->rgba.orientation;
    }
    t->rgba.row_offset = (int)row;
    t->rgba.col_offset = 0;
    return T(TIFFRGBAImageGet)(&t->rgba, raster, t->rgba.width, rows);
}

int64_t cshrink_tiff_read_tile(cshrink_tiff *t, uint32_t x, uint32_t y, void *buffer, size_t size) {
    uint32_t tile = T(TIFFComputeTile)(t->tif, x, y, 0, 0);
    return (int64_t)T(TIFFReadEncodedTile)(t->tif, tile, buffer, (tmsize_t)size);
}

int cshrink_tiff_read_scanline(cshrink_tiff *t, uint32_t row, void *buffer) {
    return T(TIFFReadScanline)(t->tif, buffer, row, 0) == 1;
}

static uint32_t block_at(cshrink_tiff *t, uint32_t x, uint32_t y) {
    return T(TIFFIsTiled)(t->tif) ? T(TIFFComputeTile)(t->tif, x, y, 0, 0) : T(TIFFComputeStrip)(t->tif, y, 0);
}

uint64_t cshrink_tiff_block_offset(cshrink_tiff *t, uint32_t x, uint32_t y) {
    return T(TIFFGetStrileOffset)(t->tif, block_at(t, x, y));
}

uint64_t cshrink_tiff_block_bytes(cshrink_tiff *t, uint32_t x, uint32_t y) {
    return T(TIFFGetStrileByteCount)(t->tif, block_at(t, x, y));
}
