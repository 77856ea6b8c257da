// TIFF's horizontal predictor undone: each sample plus the same sample of the pixel before it, a running sum per
// channel along the row. See include/cshrink_tiff.h.
#include "cshrink_tiff.h"

#if defined(__SSE2__)
#include <emmintrin.h>

// Three channels, 15 bytes (five pixels) a step: the running sums inside a step are three shifted adds, independent of
// the other steps; what a step adds to every later one (its last pixel, spread to five pixels) is one add on a
// chain. Stores are 16 bytes wide, so each step's input is loaded before the step before it is stored.
static size_t undo3_sse2(uint8_t *row, size_t count) {
    size_t i = 3;
    if (count < 3 + 16) return i;
    const __m128i last = _mm_setr_epi8(-1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    __m128i carry = _mm_cvtsi32_si128(row[0] | row[1] << 8 | row[2] << 16);
    carry = _mm_or_si128(carry, _mm_slli_si128(carry, 3));
    carry = _mm_or_si128(carry, _mm_slli_si128(carry, 6));
    carry = _mm_or_si128(carry, _mm_slli_si128(carry, 12));
    carry = _mm_and_si128(carry, _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0));
    __m128i x = _mm_loadu_si128((const __m128i *)(row + i));
    while (i + 15 + 16 <= count) {
        __m128i next = _mm_loadu_si128((const __m128i *)(row + i + 15));
        x = _mm_add_epi8(x, _mm_slli_si128(x, 3));
        x = _mm_add_epi8(x, _mm_slli_si128(x, 6));
        x = _mm_add_epi8(x, _mm_slli_si128(x, 12));
        __m128i spread = _mm_and_si128(_mm_srli_si128(x, 12), last);
        spread = _mm_or_si128(spread, _mm_slli_si128(spread, 3));
        spread = _mm_or_si128(spread, _mm_slli_si128(spread, 6));
        spread = _mm_or_si128(spread, _mm_slli_si128(spread, 12));
        _mm_storeu_si128((__m128i *)(row + i), _mm_add_epi8(x, carry));
        carry = _mm_add_epi8(carry, spread);
        x = next;
        i += 15;
    }
    // The last store's sixteenth byte is the first one left to the caller: put its input back.
    row[i] = (uint8_t)_mm_cvtsi128_si32(x);
    return i;
}
#endif

void cshrink_tiff_undo_predictor8(uint8_t *row, size_t count, int samples) {
    if (samples <= 0 || count <= (size_t)samples) return;
    size_t i = (size_t)samples;
#if defined(__SSE2__)
    if (samples == 3) i = undo3_sse2(row, count);
#endif
    for (; i < count; i++) row[i] = (uint8_t)(row[i] + row[i - (size_t)samples]);
}
