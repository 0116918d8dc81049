#include "resample_fixed.h"
#include "kernels.h"
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// Outputs first…end-1 one channel value at a time.
static void h8_portable(int16_t *out16, uint8_t *out8, const uint8_t *src, const int32_t *indices, const int16_t *w,
                        int taps, int channels, size_t first, size_t end) {
    for (size_t x = first; x < end; x++) {
        for (int c = 0; c < channels; c++) {
            int32_t sum = 0;
            for (int t = 0; t < taps; t++) {
                sum += (int32_t)w[x * taps + t] * src[(size_t)indices[x * taps + t] * channels + c];
            }
            if (out16) {
                out16[x * channels + c] = (int16_t)((sum + (1 << 7)) >> 8);
            } else {
                sum = (sum + (1 << 13)) >> 14;
                out8[x * channels + c] = (uint8_t)(sum < 0 ? 0 : (sum > 255 ? 255 : sum));
            }
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
// RGB bytes to RGBX (X = 0), then two pixels a step, their taps in pairs: one 8-byte load holds a pair's two
// neighbouring pixels, a shuffle puts each channel's two samples side by side as 16-bit lanes, and vpmaddwd
// multiplies them by the pair's two weights (samples ≤ 255 and |weights| < 2^15 are both signed 16-bit).
// Returns the first output it did not write, from `first`.
__attribute__((target("avx2")))
static size_t h8_rgb_avx2(int16_t *out16, uint8_t *out8, const uint8_t *src, size_t inWidth, const int32_t *indices,
                          const int16_t *w, int taps, size_t width, size_t first, size_t end, uint8_t *rgbx) {
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    size_t p = 0;
    for (; p + 6 <= inWidth; p += 4) {  // 16 bytes read, 12 used
        _mm_storeu_si128((__m128i *)(rgbx + 4 * p),
                         _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(src + 3 * p)), spread));
    }
    for (; p < inWidth; p++) {
        rgbx[4 * p] = src[3 * p]; rgbx[4 * p + 1] = src[3 * p + 1]; rgbx[4 * p + 2] = src[3 * p + 2]; rgbx[4 * p + 3] = 0;
    }
    memset(rgbx + 4 * inWidth, 0, 8);
    const __m128i pairs = _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    const __m256i round = _mm256_set1_epi32(out16 ? 1 << 7 : 1 << 13);
    size_t x = first;
    // Each store writes one value of pixel x + 2, rewritten later: stop while that pixel exists.
    for (; x + 2 <= end && x + 2 < width; x += 2) {
        const uint8_t *a = rgbx + 4 * (size_t)indices[x * taps], *b = rgbx + 4 * (size_t)indices[(x + 1) * taps];
        const int16_t *wa = w + x * taps, *wb = w + (x + 1) * taps;
        __m256i sum = round;
        for (int t = 0; t < taps; t += 2) {
            const __m128i both = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(a + 4 * t)),
                                                    _mm_loadl_epi64((const __m128i *)(b + 4 * t)));
            const __m256i samples = _mm256_cvtepu8_epi16(_mm_shuffle_epi8(both, pairs));
            int32_t pa, pb;
            memcpy(&pa, wa + t, 4);
            memcpy(&pb, wb + t, 4);
            const __m256i weights = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi32(pa)), _mm_set1_epi32(pb), 1);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(samples, weights));
        }
        if (out16) {
            const __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(sum, 8), sum);
            _mm_storel_epi64((__m128i *)(out16 + 3 * x), _mm256_castsi256_si128(words));
            _mm_storel_epi64((__m128i *)(out16 + 3 * x + 3), _mm256_extracti128_si256(words, 1));
        } else {
            const __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(sum, 14), sum);
            const __m256i bytes = _mm256_packus_epi16(words, words);
            const int32_t pa = _mm_cvtsi128_si32(_mm256_castsi256_si128(bytes));
            const int32_t pb = _mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1));
            memcpy(out8 + 3 * x, &pa, 4);
            memcpy(out8 + 3 * x + 3, &pb, 4);
        }
    }
    return x;
}
#endif

void fr_resample_h8(int16_t *out16, uint8_t *out8, const uint8_t *src, size_t inWidth, const int32_t *indices,
                    const int16_t *w, int taps, size_t width, int channels, size_t first, size_t end,
                    uint8_t *scratch) {
    size_t done = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (channels == 3 && fr_kernels_avx2() && first < end) {
        h8_portable(out16, out8, src, indices, w, taps, channels, 0, first);
        done = h8_rgb_avx2(out16, out8, src, inWidth, indices, w, taps, width, first, end, scratch);
    }
#else
    (void)inWidth; (void)first; (void)end; (void)scratch;
#endif
    h8_portable(out16, out8, src, indices, w, taps, channels, done, width);
}
