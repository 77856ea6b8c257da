#ifndef SHRINK_CJPEGTURBO_H
#define SHRINK_CJPEGTURBO_H

#include <stddef.h>

/// Status of every shim call. Anything but SJ_OK leaves a message in the decoder's own error state.
typedef enum {
    SJ_OK = 0,
    SJ_ERROR = 1,          ///< libjpeg raised an error (corrupt or unsupported data)
    SJ_WARNING = 2,        ///< strict mode: libjpeg raised a warning (corrupt data it could step over)
    SJ_MEMORY_LIMIT = 3,   ///< the decoder needed more than max_memory_to_use
    SJ_OUT_OF_MEMORY = 4,  ///< malloc failed
    SJ_BAD_CALL = 5,       ///< the shim was called out of order
    SJ_TRUNCATED = 6,      ///< the data ended before the image did
    SJ_UNSUPPORTED = 7,    ///< a valid feature libjpeg-turbo does not decode here (12-bit, lossless)
    SJ_LIMIT = 8           ///< the file has more scans than the decoder's limit
} sj_status;

/// Colour space constants mirrored from libjpeg's J_COLOR_SPACE so Swift needs no libjpeg header.
enum { SJ_CS_UNKNOWN = 0, SJ_CS_GRAY = 1, SJ_CS_RGB = 2, SJ_CS_YCBCR = 3, SJ_CS_CMYK = 4, SJ_CS_YCCK = 5 };

/// The frame header as libjpeg reads it (jpeg_read_header): no pixel is decoded.
typedef struct {
    int width, height, components, precision;
    int color_space;          ///< SJ_CS_*, as libjpeg infers it (JFIF, Adobe transform, component ids)
    int progressive, arithmetic;
    int h_samp[4], v_samp[4];
    int saw_adobe, adobe_transform, saw_jfif;
    int restart_interval;
    int multi_scan;           ///< progressive or non-interleaved: libjpeg buffers every coefficient
} sj_header;

typedef struct sj_decoder sj_decoder;

/// The bytes of input libjpeg is handed at a time, and how many consumed bytes of a mapped input are released at once
/// (one madvise call each: a call per window cost a 12 MP thumbnail 1-2% of its CPU; BENCHMARKS.md, Start-up).
enum { SJ_WINDOW = 64 * 1024, SJ_RELEASE_STEP = 256 * 1024 };

/// Creates a decoder over `len` bytes at `data` (not copied; must outlive the decoder).
/// When `drop_behind` is set, `data` is a page-aligned file mapping and pages the decoder has consumed
/// are released with madvise(MADV_DONTNEED) every SJ_RELEASE_STEP bytes, so input size does not show in resident
/// memory.
/// A file with more than `max_scans` scans fails with SJ_LIMIT as soon as libjpeg reaches the next one
/// (0: no limit), so CPU stays bounded by the pixels, not by scans an attacker repeats.
/// Returns NULL when out of memory.
sj_decoder *sj_create(const unsigned char *data, size_t len, int drop_behind, int max_scans);
void sj_destroy(sj_decoder *d);

/// The message of the last failure (libjpeg's wording), or "" when none.
const char *sj_message(const sj_decoder *d);
/// Number of warnings libjpeg raised so far, and the first one's text ("" when none).
int sj_warning_count(const sj_decoder *d);
const char *sj_warning(const sj_decoder *d);

/// Reads the header (markers up to the first SOS).
int sj_read_header(sj_decoder *d, sj_header *out);

/// Starts decompression at 1/scale_denom (1, 2, 4 or 8). out_gray selects grayscale output, out_cmyk
/// CMYK output (for CMYK/YCCK sources), else RGB. max_memory caps libjpeg's large (virtual array)
/// allocations, i.e. a progressive file's coefficient buffer; 0 = no cap. fast selects the fast integer
/// IDCT and plain upsampling. strict turns every libjpeg warning into SJ_WARNING.
/// On success writes the output size and components.
int sj_start(sj_decoder *d, int scale_denom, int out_gray, int out_cmyk, long max_memory, int fast, int strict,
             int *out_width, int *out_height, int *out_components);

/// Starts a planar (raw YCbCr) decode of a 3-component JPEG at 1/scale_denom, with no colour conversion and,
/// for 4:2:0, chroma kept at half the scaled size. Writes each plane's size and how many of its rows one
/// sj_read_raw call produces (the last group may hold fewer valid rows).
/// factors[i] is plane i's samples per luma sample (1 for luma, 0.5 for 4:2:0 chroma).
int sj_start_raw(sj_decoder *d, int scale_denom, long max_memory, int fast, int strict,
                 int widths[3], int heights[3], int rows_per_group[3], double xfactors[3], double yfactors[3]);

/// Starts a planar decode (as sj_start_raw) of one band of rows of a baseline JPEG cut at its restart markers, reusing
/// `d` (made by sj_create over the whole file, without drop_behind: several threads read the file at once, and the
/// caller releases its pages; a decode `d` was running is abandoned). libjpeg reads `header` (the
/// file's tables, frame and scan header, the frame's height patched to the band's: not copied, must outlive the
/// decode), then the file's bytes from offset `start` (just after the restart marker before the band).
/// `first_restart` is the file's number of the band's first restart interval: its markers are taken as numbered
/// from there. The decode stops after the band's last row; the data it was given runs on to the file's end.
/// `insufficient` starts the band with libjpeg's "data ran out at a marker" state set, as one decoder has it where the
/// band starts (what sj_end_band gave for the band before). The header's own warnings are counted when
/// `header_warnings` is set (for one band), else dropped.
int sj_start_band(sj_decoder *d, const unsigned char *header, size_t header_len, size_t start, int first_restart,
                  int insufficient, int header_warnings, int scale_denom, long max_memory, int fast, int strict,
                  int widths[3], int heights[3], int rows_per_group[3], double xfactors[3], double yfactors[3]);

/// After the last row of a band that is not the image's last: reads the restart marker that ends it as one decoder
/// would before the next band's first MCU, so bytes before the marker and a marker numbered out of turn are warned
/// about (an error when strict), as they are inside a band. `insufficient` receives libjpeg's "data ran out at a marker"
/// state after that restart: one decoder's where the next band starts.
int sj_end_band(sj_decoder *d, int *insufficient);

/// Decodes the next row group into the decoder's own plane rows; writes the number of valid luma rows
/// (0 at the end). Read them with sj_raw_row before the next call.
int sj_read_raw(sj_decoder *d, int *luma_rows);

/// Row `row` of plane `component` (0 Y, 1 Cb, 2 Cr) in the current group; valid until the next sj_read_raw.
const unsigned char *sj_raw_row(const sj_decoder *d, int component, int row);

/// After sj_start: restricts decoding to columns [*x, *x + *width) of the scaled image (widened by libjpeg
/// to iMCU boundaries: *x and *width are updated to what it will produce) and skips the first `skip_rows`
/// rows (entropy-decoded, but no IDCT, upsampling or colour conversion). Pass width 0 to keep all columns.
int sj_window(sj_decoder *d, unsigned int *x, unsigned int *width, unsigned int skip_rows);

/// Reads up to max_rows scanlines, top to bottom, into rows of `stride` bytes; writes the count read.
int sj_read_rows(sj_decoder *d, unsigned char *buffer, size_t stride, int max_rows, int *rows_read);

/// Ends decoding: jpeg_finish_decompress when every row was read, else jpeg_abort_decompress.
int sj_finish(sj_decoder *d);

/// Encodes 8-bit gray (components 1) or RGB (components 3) rows to a malloc'd JPEG in *out (free with
/// sj_free). subsampling: 0 = 4:2:0, 1 = 4:4:4. optimize computes optimal Huffman tables, which makes
/// libjpeg buffer every coefficient of the image (as progressive output always does).
/// icc/exif (may be NULL) are written as APP2 ICC_PROFILE markers and an APP1 Exif marker (exif is the
/// TIFF structure without the "Exif\0\0" prefix, at most 65527 bytes).
/// message receives the error text on failure.
int sj_encode(const unsigned char *pixels, int width, int height, size_t stride, int components,
              int quality, int subsampling_444, int progressive, int optimize,
              const unsigned char *icc, unsigned int icc_len, const unsigned char *exif, unsigned int exif_len,
              unsigned char **out, unsigned long *out_len, char *message, size_t message_len);
/// Encodes yuv420 planes (Y width×height, Cb and Cr ⌈width/2⌉×⌈height/2⌉, rows tightly packed) as a 4:2:0
/// JPEG with no colour conversion (raw data in). Other parameters as sj_encode.
int sj_encode_yuv420(const unsigned char *y, const unsigned char *cb, const unsigned char *cr, int width, int height,
                     int quality, int progressive, int optimize,
                     const unsigned char *icc, unsigned int icc_len, const unsigned char *exif, unsigned int exif_len,
                     unsigned char **out, unsigned long *out_len, char *message, size_t message_len);

/// Loads TurboJPEG (soname libturbojpeg.so.0) once per process (thread-safe): 0 when it is available, -1 when not;
/// then `shrink_turbojpeg_load_error` says why. `sj_transform` loads it itself and fails when it is missing.
int shrink_turbojpeg_load(void);
/// dlopen's or dlsym's message when `shrink_turbojpeg_load` failed, else "".
const char *shrink_turbojpeg_load_error(void);

/// Transforms a JPEG losslessly with TurboJPEG (no re-quantisation): op is a TJXOP_* value (1 hflip, 2 vflip,
/// 3 transpose, 4 transverse, 5 rot90, 6 rot180, 7 rot270); perfect makes partial edge blocks an error, trim
/// drops them. All markers (EXIF, ICC) are copied. *out is malloc'd by TurboJPEG: free with sj_tj_free.
/// crop_w > 0 also crops losslessly to (crop_x, crop_y, crop_w, crop_h) of the transformed image; the origin
/// must sit on an iMCU boundary. TurboJPEG is loaded on the first call: SJ_UNSUPPORTED, and why in `message`, when it
/// cannot be.
int sj_transform(const unsigned char *jpeg, unsigned long size, int op, int perfect, int trim,
                 int crop_x, int crop_y, int crop_w, int crop_h,
                 unsigned char **out, unsigned long *out_len, char *message, size_t message_len);
void sj_tj_free(unsigned char *p);

void sj_free(void *p);

/// A JPEG written to a file a few rows at a time (baseline, Huffman tables fixed), so an image larger than
/// memory can be encoded band by band. Memory: libjpeg's compressor state and one iMCU row of samples.
typedef struct sj_writer sj_writer;
/// Opens `path` for writing and starts a width × height JPEG of `components` (1 gray, 3 RGB) interleaved
/// samples, or of yuv420 planes written as raw data (components 0: 4:2:0, no colour conversion, no
/// downsampling). NULL on failure, with the reason in message.
sj_writer *sj_writer_open(const char *path, int width, int height, int components, int quality, int subsampling_444,
                          char *message, size_t message_len);
/// Writes `count` rows `stride` bytes apart; rows past the image height are an error.
int sj_writer_write(sj_writer *w, const unsigned char *rows, size_t stride, int count, char *message, size_t message_len);
/// Writes `count` rows of a yuv420 writer: luma rows `y_stride` apart and the (count + 1) / 2 chroma rows
/// of each plane that go with them, `c_stride` apart. Every call but the last must pass an even count.
int sj_writer_write_yuv420(sj_writer *w, const unsigned char *y, size_t y_stride, const unsigned char *cb,
                           const unsigned char *cr, size_t c_stride, int count, char *message, size_t message_len);
/// Finishes the JPEG (every row must have been written), closes the file and frees the writer.
int sj_writer_finish(sj_writer *w, char *message, size_t message_len);
/// Abandons the JPEG, closes the file and frees the writer (the partial file stays: the caller removes it).
void sj_writer_abort(sj_writer *w);

#endif
