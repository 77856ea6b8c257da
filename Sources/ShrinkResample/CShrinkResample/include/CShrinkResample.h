#ifndef CSHRINK_RESAMPLE_H
#define CSHRINK_RESAMPLE_H

#include <stdint.h>

/// The Lanczos resampler's inner loops over float samples, in C so that each is compiled twice on x86-64
/// Linux: for x86-64-v3 (AVX2, 8 floats a vector) and for the baseline (SSE2, 4), the CPU choosing at load
/// time (an ifunc; elsewhere the baseline build alone). Floating-point contraction is off, so both make the
/// very same bits, and the same as the Swift loops they replace.

/// One row of a one-channel horizontal pass: output[x] = Σ weights[x × stride + k] × input[start[x] + k].
/// Where input_count allows, each window is read as whole 8-float vectors (its weights are zero past
/// count[x]); else tap by tap. Cost: output_width × stride multiply-adds.
void shrink_resample_row1(const float *input, intptr_t input_count, float *output, intptr_t output_width,
                          const intptr_t *start, const intptr_t *count, const float *weights, intptr_t stride);

/// One row of a three- or four-channel horizontal pass: each output pixel's `channels` floats are
/// Σ weights[x × stride + k] × the input pixel at start[x] + k, over count[x] taps, one 4-lane multiply-add per tap
/// (for three channels the fourth lane is the next pixel's first sample, ignored: the input has a float of padding).
/// Four pixels are filtered side by side where the row (`input_count` floats) holds their windows; the weights are
/// zero past each window, up to `stride`. Cost: output_width × count multiply-adds of 4 lanes.
void shrink_resample_row4(const float *input, intptr_t input_count, float *output, intptr_t output_width,
                          intptr_t channels, const intptr_t *start, const intptr_t *count, const float *weights,
                          intptr_t stride);

/// One output row of the vertical pass: accumulator[i] = Σ weights[k] × ring row (start + k) mod ring_rows,
/// over `count` rows, `width` floats of each, the rows `row_stride` floats apart. Each column adds its taps in
/// order (the bits of the plain loop); 32 columns at a time stay in registers. Cost: width × count multiply-adds.
void shrink_resample_columns(const float *ring, intptr_t ring_rows, intptr_t row_stride, intptr_t width, intptr_t start,
                             intptr_t count, const float *weights, float *accumulator);

/// A filtered row to 8 bits: each sample plus 0.5, truncated, clamped to 0–255 (no NaN comes in). Cost: `count`
/// conversions, vectorised.
void shrink_resample_quantize8(const float *input, intptr_t count, uint8_t *output);

/// Adds one 8-bit row of `pixels` pixels into per-pixel sums (`pixels × channels`), colour times alpha when
/// `premultiply` (the last channel is alpha and adds as itself); `first` (a block's first row) stores instead of
/// adding, so the sums need no clearing. A box's rows are summed down this way, whatever its width, in whole
/// vectors; `shrink_box_blocks` then adds across. Cost: one multiply-add per sample.
void shrink_box_accumulate8(const uint8_t *row, intptr_t pixels, intptr_t channels, int premultiply, int first,
                            uint32_t *sums);

/// Sums the per-pixel sums across blocks of `factor` pixels (the last block may be narrower) into `block_sums`
/// (`ceil(pixels / factor) × channels`, overwritten). Cost: one pass over the per-pixel sums.
void shrink_box_blocks(const uint32_t *pixel_sums, intptr_t pixels, intptr_t channels, intptr_t factor,
                       uint32_t *block_sums);

/// One 8-bit row of `count` samples to floats on the 0–255 scale, colour times alpha / 255 when `premultiply` (the
/// last of `channels` is alpha and stays as it is): what the resampler takes when no box shrink runs. The same bits
/// as converting one sample at a time. Cost: `count` conversions, vectorised.
void shrink_row_to_float8(const uint8_t *row, intptr_t count, intptr_t channels, int premultiply, float *out);

#endif
