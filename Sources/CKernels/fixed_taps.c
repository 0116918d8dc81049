#include "fixed_taps.h"
#include "resample_fixed.h"
#include "kernels.h"
#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
// Sixteen values a step: the taps in pairs, each pair's two samples interleaved as 16-bit lanes and multiplied by
// their two weights with one vpmaddwd (samples ≤ 32640 and weights ≤ 2^14 are both signed 16-bit).
__attribute__((target("avx2")))
static size_t fixed_h8_avx2(int16_t *out, const uint8_t *src, const int16_t *w, int taps, size_t stride, size_t n) {
    const __m256i round = _mm256_set1_epi32(1 << 6);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i lo = round, hi = round;
        for (int t = 0; t < taps; t += 2) {
            const int pair = t + 1 < taps;
            const __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(src + i + t * stride)));
            const __m256i b = pair ? _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(src + i + (t + 1) * stride)))
                                   : _mm256_setzero_si256();
            const __m256i weights = _mm256_set1_epi32((int)(uint16_t)w[t] | (pair ? (int)w[t + 1] << 16 : 0));
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), weights));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), weights));
        }
        // unpacklo/hi take values 0–3 and 8–11 / 4–7 and 12–15; packs puts them back in order.
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_packs_epi32(_mm256_srai_epi32(lo, 7), _mm256_srai_epi32(hi, 7)));
    }
    return i;
}

// The vertical pass over 16-bit rows, shifted right by `shift` and rounded half up, then clamped to bytes (`bytes`:
// packs and packus clamp to [0, 255]) or kept as 16-bit values.
__attribute__((target("avx2")))
static size_t fixed_v_avx2(void *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n, int shift,
                           int bytes) {
    const __m128i count = _mm_cvtsi32_si128(shift);
    const __m256i round = _mm256_set1_epi32(1 << (shift - 1));
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i lo = round, hi = round;
        for (int t = 0; t < taps; t += 2) {
            const int pair = t + 1 < taps;
            const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[t] + i));
            const __m256i b = pair ? _mm256_loadu_si256((const __m256i *)(rows[t + 1] + i)) : _mm256_setzero_si256();
            const __m256i weights = _mm256_set1_epi32((int)(uint16_t)w[t] | (pair ? (int)w[t + 1] << 16 : 0));
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), weights));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), weights));
        }
        const __m256i words = _mm256_packs_epi32(_mm256_sra_epi32(lo, count), _mm256_sra_epi32(hi, count));
        if (bytes) {
            const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), _MM_SHUFFLE(3, 1, 2, 0));
            _mm_storeu_si128((__m128i *)((uint8_t *)out + i), _mm256_castsi256_si128(packed));
        } else {
            _mm256_storeu_si256((__m256i *)((int16_t *)out + i), words);
        }
    }
    return i;
}

__attribute__((target("avx2")))
static size_t kernel8_avx2(uint8_t *out, const uint8_t *const *src, const int16_t *w, int taps, int shift, int32_t bias,
                           size_t n) {
    const __m256i start = _mm256_set1_epi32(bias + (1 << (shift - 1)));
    const __m128i count = _mm_cvtsi32_si128(shift);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i lo = start, hi = start;
        for (int t = 0; t < taps; t += 2) {
            const int pair = t + 1 < taps;
            const __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(src[t] + i)));
            const __m256i b = pair ? _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(src[t + 1] + i)))
                                   : _mm256_setzero_si256();
            const __m256i weights = _mm256_set1_epi32((int)(uint16_t)w[t] | (pair ? (int)w[t + 1] << 16 : 0));
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), weights));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), weights));
        }
        // packs then packus clamp to [0, 255], as the portable loop does.
        const __m256i words = _mm256_packs_epi32(_mm256_sra_epi32(lo, count), _mm256_sra_epi32(hi, count));
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), _MM_SHUFFLE(3, 1, 2, 0));
        _mm_storeu_si128((__m128i *)(out + i), _mm256_castsi256_si128(packed));
    }
    return i;
}

__attribute__((target("avx2,fma")))
static size_t unsharp8_avx2(uint8_t *out, const uint8_t *original, const int16_t *blurred, size_t n, float amount,
                            float threshold) {
    const __m256 k = _mm256_set1_ps(amount), t = _mm256_set1_ps(threshold), eighth = _mm256_set1_ps(1.0f / 128);
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255), half = _mm256_set1_ps(0.5f);
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 s = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(original + i))));
        const __m256 b = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(blurred + i)))), eighth);
        __m256 d = _mm256_sub_ps(s, b);
        d = _mm256_and_ps(d, _mm256_cmp_ps(_mm256_and_ps(d, magnitude), t, _CMP_GE_OQ));
        const __m256 v = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(s, _mm256_mul_ps(d, k)), zero), top);
        const __m256i q = _mm256_cvttps_epi32(_mm256_add_ps(v, half));
        const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
        _mm_storel_epi64((__m128i *)(out + i), _mm_packus_epi16(words, words));
    }
    return i;
}

__attribute__((target("avx2")))
static void box_v8_avx2(uint8_t *const *out, const uint16_t *const *rows, uint32_t *sums, int radius, size_t count,
                        float scale, size_t n) {
    const __m256 k = _mm256_set1_ps(scale), half = _mm256_set1_ps(0.5f);
    const size_t window = 2 * (size_t)radius + 1;
    for (size_t y = 0; y < count; y++) {
        const uint16_t *add = rows[y + window], *remove = rows[y];
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            __m256i s = _mm256_loadu_si256((const __m256i *)(sums + i));
            const __m256i q = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(s), k), half));
            const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
            _mm_storel_epi64((__m128i *)(out[y] + i), _mm_packus_epi16(words, words));
            s = _mm256_add_epi32(s, _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(add + i))));
            s = _mm256_sub_epi32(s, _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(remove + i))));
            _mm256_storeu_si256((__m256i *)(sums + i), s);
        }
        for (; i < n; i++) {
            out[y][i] = (uint8_t)(int)((float)sums[i] * scale + 0.5f);
            sums[i] += (uint32_t)add[i] - remove[i];
        }
    }
}
#endif

void fr_fixed_taps_h8(int16_t *out, const uint8_t *src, const int16_t *w, int taps, size_t stride, size_t n) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = fixed_h8_avx2(out, src, w, taps, stride, n);
#endif
    for (; i < n; i++) {
        int32_t sum = 1 << 6;
        for (int t = 0; t < taps; t++) sum += (int32_t)w[t] * src[i + t * stride];
        out[i] = (int16_t)(sum >> 7);
    }
}

// Values i…n-1 of the vertical pass over 16-bit rows, shifted right by `shift` (rounded half up) and clamped to bytes.
static void fixed_v8_portable(uint8_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t i, size_t n,
                              int shift) {
    for (; i < n; i++) {
        int32_t sum = 1 << (shift - 1);
        for (int t = 0; t < taps; t++) sum += (int32_t)w[t] * rows[t][i];
        sum >>= shift;
        out[i] = (uint8_t)(sum < 0 ? 0 : (sum > 255 ? 255 : sum));
    }
}

// The vertical pass to samples: the AVX2 loop where it runs, the portable one for the rest.
static void fixed_v8(uint8_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n, int shift) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = fixed_v_avx2(out, rows, w, taps, n, shift, 1);
#endif
    fixed_v8_portable(out, rows, w, taps, i, n, shift);
}

void fr_fixed_taps_v8(uint8_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n) {
    fixed_v8(out, rows, w, taps, n, 21);
}

void fr_fixed_taps_v16(int16_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = fixed_v_avx2(out, rows, w, taps, n, 14, 0);
#endif
    for (; i < n; i++) {
        int32_t sum = 1 << 13;
        for (int t = 0; t < taps; t++) sum += (int32_t)w[t] * rows[t][i];
        out[i] = (int16_t)(sum >> 14);
    }
}

void fr_resample_v8(uint8_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n) {
    fixed_v8(out, rows, w, taps, n, 20);
}

void fr_fixed_unsharp8(uint8_t *out, const uint8_t *original, const int16_t *blurred, size_t n, float amount,
                       float threshold) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = unsharp8_avx2(out, original, blurred, n, amount, threshold);
#endif
    for (; i < n; i++) {
        const float s = (float)original[i], b = (float)blurred[i] * (1.0f / 128);
        float d = s - b;
        if (!(fabsf(d) >= threshold)) d = 0;
        float v = s + d * amount;
        v = v > 0 ? (v < 255 ? v : 255) : 0;
        out[i] = (uint8_t)(int)(v + 0.5f);
    }
}

void fr_fixed_kernel8(uint8_t *out, const uint8_t *const *src, const int16_t *w, int taps, int shift, int32_t bias,
                      size_t n) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = kernel8_avx2(out, src, w, taps, shift, bias, n);
#endif
    for (; i < n; i++) {
        int32_t sum = bias + (1 << (shift - 1));
        for (int t = 0; t < taps; t++) sum += (int32_t)w[t] * src[t][i];
        sum >>= shift;
        out[i] = (uint8_t)(sum < 0 ? 0 : (sum > 255 ? 255 : sum));
    }
}

void fr_box_sums_h8(uint16_t *out, const uint8_t *src, int radius, size_t stride, size_t n) {
    // One running sum per channel, the channels of a pixel side by side so their chains overlap in the pipeline.
    const size_t span = (2 * (size_t)radius + 1) * stride;
    if (stride == 3 && n % 3 == 0) {
        uint32_t s0 = 0, s1 = 0, s2 = 0;
        for (size_t k = 0; k < span; k += 3) { s0 += src[k]; s1 += src[k + 1]; s2 += src[k + 2]; }
        for (size_t i = 0; i + 3 <= n; i += 3) {
            out[i] = (uint16_t)s0; out[i + 1] = (uint16_t)s1; out[i + 2] = (uint16_t)s2;
            if (i + 3 < n) {
                s0 += (uint32_t)src[i + span] - src[i];
                s1 += (uint32_t)src[i + span + 1] - src[i + 1];
                s2 += (uint32_t)src[i + span + 2] - src[i + 2];
            }
        }
        return;
    }
    for (size_t c = 0; c < stride && c < n; c++) {
        uint32_t sum = 0;
        for (size_t k = c; k < span; k += stride) sum += src[k];
        for (size_t i = c; i < n; i += stride) {
            out[i] = (uint16_t)sum;
            if (i + stride < n) sum += (uint32_t)src[i + span] - src[i];
        }
    }
}

void fr_box_sums_v8(uint8_t *const *out, const uint16_t *const *rows, uint32_t *sums, int radius, size_t count,
                    float scale, size_t n) {
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) {
        box_v8_avx2(out, rows, sums, radius, count, scale, n);
        return;
    }
#endif
    const size_t window = 2 * (size_t)radius + 1;
    for (size_t y = 0; y < count; y++) {
        for (size_t i = 0; i < n; i++) {
            out[y][i] = (uint8_t)(int)((float)sums[i] * scale + 0.5f);
            sums[i] += (uint32_t)rows[y + window][i] - rows[y][i];
        }
    }
}

void fr_box_sums_start(uint32_t *sums, const uint16_t *const *rows, int radius, size_t n) {
    for (size_t i = 0; i < n; i++) sums[i] = 0;
    for (int k = 0; k <= 2 * radius; k++) {
        const uint16_t *row = rows[k];
        for (size_t i = 0; i < n; i++) sums[i] += row[i];
    }
}
