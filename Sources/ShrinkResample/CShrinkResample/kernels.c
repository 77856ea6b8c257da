#include "CShrinkResample.h"

// Same results on every CPU: a × b + c stays a multiply and an add, never a fused one (GCC ignores the standard
// pragma and fuses by default, hence its own).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#pragma STDC FP_CONTRACT OFF

// Two builds and an ifunc need glibc (musl has no ifunc).
#if defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__) && defined(__clang__)
#define SHRINK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SHRINK_CLONES
#endif

// Eight floats, read from any float-aligned address.
typedef float shrink_v8f __attribute__((vector_size(32), aligned(4), may_alias));

SHRINK_CLONES
void shrink_resample_row1(const float *input, intptr_t input_count, float *output, intptr_t output_width,
                          const intptr_t *start, const intptr_t *count, const float *weights, intptr_t stride) {
    for (intptr_t x = 0; x < output_width; x++) {
        const float *w = weights + x * stride, *p = input + start[x];
        if (start[x] + stride <= input_count) {
            shrink_v8f acc = {0, 0, 0, 0, 0, 0, 0, 0};
            for (intptr_t k = 0; k < stride; k += 8) acc += *(const shrink_v8f *)(w + k) * *(const shrink_v8f *)(p + k);
            // Pairwise, as the Swift loop summed: halves, then quarters, then the last two.
            float q0 = (acc[0] + acc[4]) + (acc[2] + acc[6]), q1 = (acc[1] + acc[5]) + (acc[3] + acc[7]);
            output[x] = q0 + q1;
            continue;
        }
        float s0 = 0, s1 = 0;
        intptr_t k = 0, n = count[x];
        for (; k + 1 < n; k += 2) {
            s0 += w[k] * p[k];
            s1 += w[k + 1] * p[k + 1];
        }
        if (k < n) s0 += w[k] * p[k];
        output[x] = s0 + s1;
    }
}

// Four floats, read from any float-aligned address.
typedef float shrink_v4f __attribute__((vector_size(16), aligned(4), may_alias));

SHRINK_CLONES
void shrink_resample_row4(const float *input, intptr_t input_count, float *output, intptr_t output_width,
                          intptr_t channels, const intptr_t *start, const intptr_t *count, const float *weights,
                          intptr_t stride) {
    const intptr_t c = channels;
    intptr_t x = 0;
    // Four output pixels at a time, each in an accumulator of its own so that their additions overlap; each still
    // adds its taps one by one, in order (taps past a window have weight 0, and adding 0 changes no sum), so the
    // bits are those of the one-pixel loop below. Only where all four windows, read to the longest, stay in the row.
    for (; x + 4 <= output_width; x += 4) {
        intptr_t n = count[x];
        for (int i = 1; i < 4; i++) n = count[x + i] > n ? count[x + i] : n;
        int inside = 1;
        for (int i = 0; i < 4; i++) inside &= (start[x + i] + n) * c + 4 <= input_count + c && n <= stride;
        if (!inside) break;
        const float *p0 = input + start[x] * c, *p1 = input + start[x + 1] * c, *p2 = input + start[x + 2] * c,
                    *p3 = input + start[x + 3] * c;
        const float *w0 = weights + x * stride, *w1 = w0 + stride, *w2 = w1 + stride, *w3 = w2 + stride;
        shrink_v4f a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
        for (intptr_t k = 0; k < n; k++) {
            shrink_v4f v0 = {w0[k], w0[k], w0[k], w0[k]}, v1 = {w1[k], w1[k], w1[k], w1[k]};
            shrink_v4f v2 = {w2[k], w2[k], w2[k], w2[k]}, v3 = {w3[k], w3[k], w3[k], w3[k]};
            a0 += v0 * *(const shrink_v4f *)(p0 + k * c);
            a1 += v1 * *(const shrink_v4f *)(p1 + k * c);
            a2 += v2 * *(const shrink_v4f *)(p2 + k * c);
            a3 += v3 * *(const shrink_v4f *)(p3 + k * c);
        }
        shrink_v4f acc[4] = {a0, a1, a2, a3};
        for (int i = 0; i < 4; i++) {
            float *out = output + (x + i) * c;
            out[0] = acc[i][0];
            out[1] = acc[i][1];
            out[2] = acc[i][2];
            if (c == 4) out[3] = acc[i][3];
        }
    }
    for (; x < output_width; x++) {
        const float *w = weights + x * stride, *p = input + start[x] * c;
        shrink_v4f acc = {0, 0, 0, 0};
        // Each tap one 4-lane multiply and add, in order: the bits of the Swift loop this replaced.
        for (intptr_t k = 0, n = count[x]; k < n; k++, p += c) {
            float wk = w[k];
            shrink_v4f weight = {wk, wk, wk, wk};
            acc += weight * *(const shrink_v4f *)p;
        }
        float *out = output + x * c;
        out[0] = acc[0];
        out[1] = acc[1];
        out[2] = acc[2];
        if (c == 4) out[3] = acc[3];
    }
}

SHRINK_CLONES
void shrink_resample_columns(const float *ring, intptr_t ring_rows, intptr_t row_stride, intptr_t width, intptr_t start,
                             intptr_t count, const float *weights, float *accumulator) {
    float *restrict acc = accumulator;
    // The window's rows, found once (at most SHRINK_COLUMN_TAPS; longer windows find each row per block).
    enum { SHRINK_COLUMN_TAPS = 64 };
    const float *rows[SHRINK_COLUMN_TAPS];
    int listed = count <= SHRINK_COLUMN_TAPS;
    if (listed) for (intptr_t k = 0; k < count; k++) rows[k] = ring + ((start + k) % ring_rows) * row_stride;
    intptr_t i = 0;
    // 32 columns at a time, summed in registers across the taps: each column still adds its taps one by one,
    // in order, so the bits are those of the one-column loop below.
    for (; i + 32 <= width; i += 32) {
        shrink_v8f a0 = {0, 0, 0, 0, 0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
        for (intptr_t k = 0; k < count; k++) {
            const float *row = (listed ? rows[k] : ring + ((start + k) % ring_rows) * row_stride) + i;
            float wk = weights[k];
            shrink_v8f w = {wk, wk, wk, wk, wk, wk, wk, wk};
            a0 += w * *(const shrink_v8f *)row;
            a1 += w * *(const shrink_v8f *)(row + 8);
            a2 += w * *(const shrink_v8f *)(row + 16);
            a3 += w * *(const shrink_v8f *)(row + 24);
        }
        *(shrink_v8f *)(acc + i) = a0;
        *(shrink_v8f *)(acc + i + 8) = a1;
        *(shrink_v8f *)(acc + i + 16) = a2;
        *(shrink_v8f *)(acc + i + 24) = a3;
    }
    for (; i < width; i++) {
        float sum = 0;
        for (intptr_t k = 0; k < count; k++) sum += weights[k] * ring[((start + k) % ring_rows) * row_stride + i];
        acc[i] = sum;
    }
}

SHRINK_CLONES
void shrink_resample_quantize8(const float *input, intptr_t count, uint8_t *output) {
    for (intptr_t i = 0; i < count; i++) {
        float v = input[i] + 0.5f;
        output[i] = v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
    }
}

// Sixteen 8-bit samples (four RGBA pixels) read from any address; their 16- and 32-bit widenings.
typedef uint8_t shrink_v16u8 __attribute__((vector_size(16), aligned(1), may_alias));
typedef uint16_t shrink_v16u16 __attribute__((vector_size(32)));
typedef uint32_t shrink_v16u32 __attribute__((vector_size(64), aligned(4), may_alias));

SHRINK_CLONES
void shrink_box_accumulate8(const uint8_t *row, intptr_t pixels, intptr_t channels, int premultiply, int first,
                            uint32_t *sums) {
    // The first row of a block stores its values, the others add theirs: the sums need no clearing between blocks.
    const shrink_v16u32 keep = first ? (shrink_v16u32){0} : ~(shrink_v16u32){0};
    const uint32_t keep1 = first ? 0 : ~0u;
    intptr_t i = 0;
    if (premultiply && channels == 4) {
        // Four pixels at a time: colour × alpha in 16-bit lanes (at most 65,025), alpha × 1, widened to add.
        const shrink_v16u16 colour = {0xFFFF, 0xFFFF, 0xFFFF, 0, 0xFFFF, 0xFFFF, 0xFFFF, 0,
                                      0xFFFF, 0xFFFF, 0xFFFF, 0, 0xFFFF, 0xFFFF, 0xFFFF, 0};
        const shrink_v16u16 one = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (; i + 4 <= pixels; i += 4) {
            shrink_v16u16 p = __builtin_convertvector(*(const shrink_v16u8 *)(row + 4 * i), shrink_v16u16);
            shrink_v16u16 a = __builtin_shufflevector(p, p, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
            shrink_v16u32 *s = (shrink_v16u32 *)(sums + 4 * i);
            *s = (*s & keep) + __builtin_convertvector(p * ((a & colour) | one), shrink_v16u32);
        }
    }
    if (premultiply) {
        for (; i < pixels; i++) {
            uint32_t a = row[i * channels + channels - 1];
            for (intptr_t k = 0; k < channels - 1; k++)
                sums[i * channels + k] = (sums[i * channels + k] & keep1) + row[i * channels + k] * a;
            sums[i * channels + channels - 1] = (sums[i * channels + channels - 1] & keep1) + a;
        }
        return;
    }
    intptr_t n = pixels * channels, k = 0;
    for (; k + 16 <= n; k += 16) {
        shrink_v16u32 *s = (shrink_v16u32 *)(sums + k);
        *s = (*s & keep) + __builtin_convertvector(*(const shrink_v16u8 *)(row + k), shrink_v16u32);
    }
    for (; k < n; k++) sums[k] = (sums[k] & keep1) + row[k];
}

// Four 32-bit sums (an RGBA pixel's), read from any 4-byte-aligned address.
typedef uint32_t shrink_v4u32 __attribute__((vector_size(16), aligned(4), may_alias));

SHRINK_CLONES
void shrink_box_blocks(const uint32_t *pixel_sums, intptr_t pixels, intptr_t channels, intptr_t factor,
                       uint32_t *block_sums) {
    intptr_t blocks = (pixels + factor - 1) / factor;
    for (intptr_t b = 0; b < blocks; b++) {
        intptr_t x0 = b * factor, x1 = x0 + factor < pixels ? x0 + factor : pixels;
        if (channels == 4) {
            // A pixel's four sums as one vector.
            shrink_v4u32 sum = {0, 0, 0, 0};
            for (intptr_t x = x0; x < x1; x++) sum += *(const shrink_v4u32 *)(pixel_sums + 4 * x);
            *(shrink_v4u32 *)(block_sums + 4 * b) = sum;
            continue;
        }
        for (intptr_t k = 0; k < channels; k++) {
            uint32_t sum = 0;
            for (intptr_t x = x0; x < x1; x++) sum += pixel_sums[x * channels + k];
            block_sums[b * channels + k] = sum;
        }
    }
}

// Sixteen floats, written to any float-aligned address.
typedef float shrink_v16f __attribute__((vector_size(64), aligned(4), may_alias));

SHRINK_CLONES
void shrink_row_to_float8(const uint8_t *row, intptr_t count, intptr_t channels, int premultiply, float *out) {
    intptr_t i = 0;
    if (premultiply && channels == 4) {
        // Four pixels at a time: colour × (alpha × 1/255), alpha × 1 (exact: the same bits as one at a time).
        const shrink_v16f colour = {1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0};
        const shrink_v16f one = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (; i + 16 <= count; i += 16) {
            shrink_v16f p = __builtin_convertvector(*(const shrink_v16u8 *)(row + i), shrink_v16f);
            shrink_v16f a = __builtin_shufflevector(p, p, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
            a = a * (1.0f / 255.0f);
            *(shrink_v16f *)(out + i) = p * (a * colour + one);
        }
    } else if (!premultiply) {
        for (; i + 16 <= count; i += 16)
            *(shrink_v16f *)(out + i) = __builtin_convertvector(*(const shrink_v16u8 *)(row + i), shrink_v16f);
    }
    for (intptr_t k = i; k < count; k++) out[k] = (float)row[k];
    if (!premultiply) return;
    for (; i + channels <= count; i += channels) {
        float a = out[i + channels - 1] * (1.0f / 255.0f);
        for (intptr_t k = 0; k < channels - 1; k++) out[i + k] *= a;
    }
}
