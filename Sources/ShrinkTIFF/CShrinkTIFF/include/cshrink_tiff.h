// libtiff, loaded with dlopen on first use (linked, every process would map it and the dozen libraries it pulls in),
// behind a few non-variadic functions (TIFFGetField is variadic, which Swift cannot call): a TIFF read from memory
// with its errors captured as text instead of printed, directory fields read by type, and rows of the current image
// as RGBA through libtiff's TIFFRGBAImage, a band at a time. Building needs tiffio.h (Debian: libtiff-dev); running
// needs libtiff6 only for TIFF files.
#ifndef CSHRINK_TIFF_H
#define CSHRINK_TIFF_H
#include <stddef.h>
#include <stdint.h>

typedef struct cshrink_tiff cshrink_tiff;

/// Loads libtiff (soname libtiff.so.6) once per process (thread-safe): 0 when it is available, -1 when not; then
/// `shrink_tiff_load_error` says why. The functions below load it themselves and fail when it is missing.
int shrink_tiff_load(void);
/// dlopen's or dlsym's message when `shrink_tiff_load` failed, else "".
const char *shrink_tiff_load_error(void);

/// libtiff's version line, or a note that it could not be loaded.
const char *cshrink_tiff_version(void);

/// Opens the TIFF in `data` (`size` bytes, kept alive by the caller), reading its first directory; no single
/// allocation of libtiff's may exceed `max_alloc` bytes (0: libtiff's default). NULL when it cannot be read:
/// `error` (`error_size` bytes) then says why.
cshrink_tiff *cshrink_tiff_open(const void *data, size_t size, size_t max_alloc, char *error, size_t error_size);
void cshrink_tiff_close(cshrink_tiff *t);
/// The last error libtiff reported ("" when none), and the number of warnings and the first one.
const char *cshrink_tiff_error(const cshrink_tiff *t);
int cshrink_tiff_warning_count(const cshrink_tiff *t);
const char *cshrink_tiff_first_warning(const cshrink_tiff *t);

/// Directories (pages) in the main chain, at most `limit` counted; a chain that loops stops the count.
int cshrink_tiff_count_directories(cshrink_tiff *t, int limit);
/// Makes directory `index` of the main chain current (1 on success).
int cshrink_tiff_set_directory(cshrink_tiff *t, int index);
/// Makes the directory at file offset `offset` current (a SubIFD); 1 on success.
int cshrink_tiff_set_subdirectory(cshrink_tiff *t, uint64_t offset);

/// A field of the current directory (TIFFGetFieldDefaulted unless noted); 1 when present.
int cshrink_tiff_u32(cshrink_tiff *t, uint32_t tag, uint32_t *value);
int cshrink_tiff_u16(cshrink_tiff *t, uint32_t tag, uint16_t *value);
/// A field as stored, without libtiff's default (orientation, photometric…).
int cshrink_tiff_u16_stored(cshrink_tiff *t, uint32_t tag, uint16_t *value);
/// The ICC profile (TIFFTAG_ICCPROFILE): its bytes stay libtiff's.
int cshrink_tiff_icc(cshrink_tiff *t, const void **data, uint32_t *length);
/// The SubIFD offsets: `count` of them at `offsets` (libtiff's).
int cshrink_tiff_subifds(cshrink_tiff *t, uint16_t *count, const uint64_t **offsets);
/// The extra samples: their count and kinds (EXTRASAMPLE_*), libtiff's.
int cshrink_tiff_extra_samples(cshrink_tiff *t, uint16_t *count, const uint16_t **kinds);
int cshrink_tiff_is_tiled(cshrink_tiff *t);
/// The offset of the EXIF IFD (TIFFTAG_EXIFIFD), 0 when none.
uint64_t cshrink_tiff_exif_offset(cshrink_tiff *t);

/// 1 when libtiff's RGBA reader takes the current image; else `error` says why.
int cshrink_tiff_rgba_ok(cshrink_tiff *t, char *error, size_t error_size);
/// Rows `row` to `row + rows` of the current image as RGBA (R first in memory, alpha premultiplied when the file's
/// is), in stored order (no reorientation), into `raster` (`width × rows` pixels). 1 on success.
int cshrink_tiff_rgba_rows(cshrink_tiff *t, uint32_t row, uint32_t rows, uint32_t *raster);
/// Ends the RGBA reader started by cshrink_tiff_rgba_rows (also done by close and by changing directory).
void cshrink_tiff_rgba_end(cshrink_tiff *t);

/// Decodes the tile holding pixel (`x`, `y`) into `buffer`; the bytes written, or -1.
int64_t cshrink_tiff_read_tile(cshrink_tiff *t, uint32_t x, uint32_t y, void *buffer, size_t size);
/// Decodes row `row` of a stripped image (contiguous samples) into `buffer`, rows asked in order: libtiff keeps the
/// strip's codec state between rows, never a decoded strip. 1 on success.
int cshrink_tiff_read_scanline(cshrink_tiff *t, uint32_t row, void *buffer);
/// Where the strip or tile holding pixel (`x`, `y`) starts in the file.
uint64_t cshrink_tiff_block_offset(cshrink_tiff *t, uint32_t x, uint32_t y);
/// How many coded bytes the strip or tile holding pixel (`x`, `y`) has.
uint64_t cshrink_tiff_block_bytes(cshrink_tiff *t, uint32_t x, uint32_t y);
/// Undoes TIFF's horizontal predictor on one row of `count` 8-bit samples, `samples` to a pixel: each sample plus the
/// same sample of the pixel before it (wrapping). Three-sample rows run 15 bytes a step where SSE2 is there.
void cshrink_tiff_undo_predictor8(uint8_t *row, size_t count, int samples);
#endif
