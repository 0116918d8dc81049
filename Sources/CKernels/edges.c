#include "edges.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
void fr_encode8(uint8_t *dst, const float *src, size_t n, int channels, const uint8_t *table, float steps) {
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
void fr_encode8(uint8_t *dst, const float *src, size_t n, int channels, const uint8_t *table, float steps) {
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
