#include "edges.h"
#include "kernels.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// Eight pixels at a time with AVX2: the same divisions, clamps and roundings as the SSE2 loop below, one channel a
// vector; codes are looked up in `words` (the table as 32-bit entries) by a gather, packed into one 32-bit word a
// pixel and compacted to the layout's bytes. Returns how many pixels it wrote (a multiple of eight).
__attribute__((target("avx2")))
static size_t encode8_avx2(uint8_t *dst, const float *src, size_t n, int channels, const int32_t *words, float steps) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    const __m256 scale = _mm256_set1_ps(words ? steps : 255.0f), full = _mm256_set1_ps(255.0f);
    // The transpose leaves pixels 0, 2, 4, 6, 1, 3, 5, 7 in lanes 0–7; this puts them back in order.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    // Each 128-bit half holds four pixels' words [c0 c1 c2 c3]: keep the layout's first `channels` bytes of each.
    const char Z = (char)0x80;
    __m256i compact;
    switch (channels) {
    case 1: compact = _mm256_setr_epi8(0, 4, 8, 12, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 4, 8, 12, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z); break;
    case 2: compact = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, Z, Z, Z, Z, Z, Z, Z, Z, 0, 1, 4, 5, 8, 9, 12, 13, Z, Z, Z, Z, Z, Z, Z, Z); break;
    case 3: compact = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, Z, Z, Z, Z, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, Z, Z, Z, Z); break;
    default: compact = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); break;
    }
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const float *p = src + 4 * i;
        const __m256 a0 = _mm256_loadu_ps(p), a1 = _mm256_loadu_ps(p + 8);
        const __m256 a2 = _mm256_loadu_ps(p + 16), a3 = _mm256_loadu_ps(p + 24);
        const __m256 t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpackhi_ps(a0, a1);
        const __m256 t2 = _mm256_unpacklo_ps(a2, a3), t3 = _mm256_unpackhi_ps(a2, a3);
        const __m256 alpha = _mm256_shuffle_ps(t1, t3, 0xEE);
        const __m256 covered = _mm256_cmp_ps(alpha, zero, _CMP_GT_OQ);
        __m256 c[3] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE), _mm256_shuffle_ps(t1, t3, 0x44)};
        // Eight opaque pixels (an opaque photo's every group): c / 1 is c, so the divisions are skipped, same bits.
        const int opaque = _mm256_movemask_ps(_mm256_cmp_ps(alpha, one, _CMP_EQ_OQ)) == 0xFF;
        for (int k = 0; k < 3; k++) {
            __m256 v = opaque ? c[k] : _mm256_and_ps(_mm256_div_ps(c[k], alpha), covered);
            v = _mm256_and_ps(v, _mm256_cmp_ps(v, zero, _CMP_GE_OQ));
            c[k] = _mm256_min_ps(v, one);
        }
        const int colours = channels <= 2 ? 1 : 3;
        if (channels <= 2) {
            __m256 y = _mm256_add_ps(_mm256_mul_ps(c[0], _mm256_set1_ps(0.2126f)), _mm256_mul_ps(c[1], _mm256_set1_ps(0.7152f)));
            c[0] = _mm256_min_ps(_mm256_add_ps(y, _mm256_mul_ps(c[2], _mm256_set1_ps(0.0722f))), one);
        }
        __m256i word = _mm256_setzero_si256();
        for (int k = 0; k < colours; k++) {
            __m256i code = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c[k], scale), half));
            if (words) code = _mm256_i32gather_epi32((const int *)words, code, 4);
            word = _mm256_or_si256(word, _mm256_slli_epi32(code, 8 * k));
        }
        if (channels == 2 || channels == 4) {
            const __m256 clamped = _mm256_min_ps(_mm256_and_ps(alpha, covered), one);
            const __m256i code = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(clamped, full), half));
            word = _mm256_or_si256(word, _mm256_slli_epi32(code, 8 * (channels - 1)));
        }
        word = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(word, order), compact);
        uint8_t bytes[32];
        _mm256_storeu_si256((__m256i *)bytes, word);
        // Sizes known at compile time: the copies are a few moves, not calls.
        uint8_t *d = dst + i * channels;
        switch (channels) {
        case 1: memcpy(d, bytes, 4); memcpy(d + 4, bytes + 16, 4); break;
        case 2: memcpy(d, bytes, 8); memcpy(d + 8, bytes + 16, 8); break;
        case 3: memcpy(d, bytes, 12); memcpy(d + 12, bytes + 16, 12); break;
        default: memcpy(d, bytes, 16); memcpy(d + 16, bytes + 16, 16); break;
        }
    }
    return i;
}
#endif

#if defined(__SSE2__)
void fr_encode8(uint8_t *dst, const float *src, size_t n, int channels, const uint8_t *table, const int32_t *words,
                float steps) {
    if (fr_kernels_avx2() && (words || !table)) {
        const size_t done = encode8_avx2(dst, src, n, channels, words, steps);
        dst += done * channels;
        src += 4 * done;
        n -= done;
    }
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
    const __m128 scale = _mm_set1_ps(table ? steps : 255.0f);
    for (size_t i = 0; i < n; i++, dst += channels) {
        __m128 v = _mm_loadu_ps(src + 4 * i);
        __m128 a = _mm_shuffle_ps(v, v, 0xFF);
        // c / α where α > 0, else 0; then NaN and negatives to 0, above 1 to 1.
        __m128 s = _mm_and_ps(_mm_div_ps(v, a), _mm_cmpgt_ps(a, zero));
        s = _mm_and_ps(s, _mm_cmpge_ps(s, zero));
        s = _mm_min_ps(s, one);
        if (channels <= 2) {
            // Grey: the Rec. 709 luminance of the clamped colour, as PixelConverter defines it.
            float c[4];
            _mm_storeu_ps(c, s);
            float y = 0.2126f * c[0] + 0.7152f * c[1];
            y = y + 0.0722f * c[2];
            y = y > 1 ? 1 : y;
            const int32_t k = (int32_t)(y * (table ? steps : 255.0f) + 0.5f);
            dst[0] = table ? table[k] : (uint8_t)k;
            if (channels == 2) {
                __m128 clamped = _mm_min_ss(_mm_and_ps(a, _mm_cmpgt_ss(a, zero)), one);
                dst[1] = (uint8_t)_mm_cvttss_si32(_mm_add_ss(_mm_mul_ss(clamped, _mm_set_ss(255.0f)), half));
            }
            continue;
        }
        __m128i index = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(s, scale), half));
        int32_t k[4];
        _mm_storeu_si128((__m128i *)k, index);
        if (table) {
            dst[0] = table[k[0]]; dst[1] = table[k[1]]; dst[2] = table[k[2]];
        } else {
            dst[0] = (uint8_t)k[0]; dst[1] = (uint8_t)k[1]; dst[2] = (uint8_t)k[2];
        }
        if (channels == 4) {
            __m128 clamped = _mm_min_ss(_mm_and_ps(a, _mm_cmpgt_ss(a, zero)), one);
            dst[3] = (uint8_t)_mm_cvttss_si32(_mm_add_ss(_mm_mul_ss(clamped, _mm_set_ss(255.0f)), half));
        }
    }
}
#else
#pragma STDC FP_CONTRACT OFF
void fr_encode8(uint8_t *dst, const float *src, size_t n, int channels, const uint8_t *table, const int32_t *words,
                float steps) {
    (void)words;
    float scale = table ? steps : 255.0f;
    for (size_t i = 0; i < n; i++, dst += channels) {
        const float *p = src + 4 * i;
        float a = p[3], straight[3];
        for (int c = 0; c < 3; c++) {
            float s = a > 0 ? p[c] / a : 0;
            s = s >= 0 ? s : 0;
            straight[c] = s > 1 ? 1 : s;
        }
        if (channels <= 2) {
            // Grey: the Rec. 709 luminance of the clamped colour, as PixelConverter defines it.
            float y = 0.2126f * straight[0] + 0.7152f * straight[1];
            y = y + 0.0722f * straight[2];
            y = y > 1 ? 1 : y;
            int32_t k = (int32_t)(y * scale + 0.5f);
            dst[0] = table ? table[k] : (uint8_t)k;
        } else {
            for (int c = 0; c < 3; c++) {
                int32_t k = (int32_t)(straight[c] * scale + 0.5f);
                dst[c] = table ? table[k] : (uint8_t)k;
            }
        }
        if (channels == 4 || channels == 2) {
            float clamped = a > 0 ? (a < 1 ? a : 1) : 0;
            dst[channels - 1] = (uint8_t)(int32_t)(clamped * 255.0f + 0.5f);
        }
    }
}
#endif
