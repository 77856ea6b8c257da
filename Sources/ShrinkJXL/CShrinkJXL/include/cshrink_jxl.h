// libjxl, loaded with dlopen on first use (linked, every process would map it and the C++ libraries it pulls in),
// behind a few calls: the header (basic information and the colour the decoded pixels are in), that colour as an
// ICC profile, one decode of the first frame into a buffer, and one encode of a still image. Building needs jxl/decode.h (Debian: libjxl-dev);
// running needs libjxl0.7 only for JPEG XL files. No parallel runner: a decode runs on the calling thread, as the
// pipeline's other codecs do. (libjxl 0.7's image-out callback holds the frame as floats, 12 bytes a pixel, where
// the buffer it writes into directly costs what it holds: BENCHMARKS.md.)
#ifndef CSHRINK_JXL_H
#define CSHRINK_JXL_H
#include <stddef.h>
#include <stdint.h>

/// Loads libjxl (soname libjxl.so.0.7) once per process (thread-safe): 0 when it is available, -1 when not; then
/// `shrink_jxl_load_error` says why. The functions below load it themselves and fail when it is missing.
int shrink_jxl_load(void);
/// dlopen's or dlsym's message when `shrink_jxl_load` failed, else "".
const char *shrink_jxl_load_error(void);

/// What a JPEG XL file's headers say, read without decoding a pixel.
typedef struct {
    /// The stored size (before the orientation is applied).
    uint32_t width, height;
    /// Bits of each colour sample (and exponent bits: 0 for integer samples).
    uint32_t bits_per_sample, exponent_bits;
    /// 1 (gray) or 3 (colour).
    uint32_t color_channels;
    /// Bits of the alpha channel (0 without alpha), and whether it is stored premultiplied.
    uint32_t alpha_bits, alpha_premultiplied;
    /// Extra channels (alpha, depth, spot colours, black).
    uint32_t extra_channels;
    /// The EXIF-style orientation of the codestream, 1–8.
    uint32_t orientation;
    /// 0 when the samples are XYB (lossy, converted to the output colour by libjxl), 1 when in the original space.
    int uses_original_profile;
    int have_animation, have_container, have_preview;
    /// An extra channel of type black (CMYK), or a spot colour.
    int has_black, has_spot;
    /// The decoded pixels' colour: 1 when it is sRGB (or gray with sRGB's transfer), so no profile is needed.
    int is_srgb;
    /// The size of the decoded pixels' colour as an ICC profile (libjxl makes one for an encoded colour space).
    size_t icc_size;
    /// 1 when the colour was read; 0 when the file ends (or fails) after the basic information.
    int has_color;
} cshrink_jxl_info;

/// libjxl's version ("0.7.0"), or a note that it could not be loaded.
const char *cshrink_jxl_version(void);

/// Reads the headers of the JPEG XL file in `data` (`size` bytes). 1 when the basic information was read (the colour
/// too when `has_color`; else `error` says why not); 0 when it is not a file libjxl reads (`error`, `error_size`
/// bytes, says why).
int cshrink_jxl_read_info(const void *data, size_t size, cshrink_jxl_info *info, char *error, size_t error_size);

/// Copies the decoded pixels' colour as an ICC profile into `out` (`capacity` bytes, at least `icc_size`). 1 on
/// success.
int cshrink_jxl_read_icc(const void *data, size_t size, void *out, size_t capacity, char *error, size_t error_size);

/// Decodes the first frame (composited, unpremultiplied, orientation not applied) into `out` (`out_size` bytes: the
/// stored width × height × `channels` samples) as `channels` (1 gray, 3 RGB, 4 RGBA) 8-bit samples, or 16-bit when
/// `sixteen_bit`. 1 on success, 0 on error (`error`, `error_size` bytes, says why).
int cshrink_jxl_decode(
    const void *data, size_t size, uint32_t channels, int sixteen_bit, void *out, size_t out_size, char *error,
    size_t error_size);

/// Encodes `width` × `height` pixels of `channels` (1 gray, 2 gray + alpha, 3 RGB, 4 RGBA) 8-bit samples, or 16-bit
/// when `sixteen_bit`, rows packed: lossless, or lossy at butteraugli `distance` (XYB), at libjxl's `effort` (1–9), the
/// colour tagged with `icc` (`icc_size` bytes) or as sRGB. 1 on success, `*out` (`*out_size` bytes) then holds the
/// file (free it with cshrink_jxl_free); 0 on error (`error`, `error_size` bytes, says why).
int cshrink_jxl_encode(
    const void *pixels, uint32_t width, uint32_t height, uint32_t channels, int sixteen_bit, float distance,
    int lossless, int effort, const void *icc, size_t icc_size, unsigned char **out, size_t *out_size, char *error,
    size_t error_size);

/// Frees what cshrink_jxl_encode returned.
void cshrink_jxl_free(void *bytes);

#endif
