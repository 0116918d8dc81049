#include "resample8.h"
#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// Pixels first…end-1, one at a time.
static void portable(float *out, const uint8_t *const *rows, const float *weights, int taps, size_t first,
                     size_t end, int channels, int add) {
    float total = 0;
    for (int t = 0; t < taps; t++) total += weights[t];
    for (size_t x = first; x < end; x++) {
        float sum[3] = {0, 0, 0};
        for (int t = 0; t < taps; t++) {
            const uint8_t *p = rows[t] + x * (size_t)channels;
            for (int c = 0; c < 3; c++) {
                const uint8_t code = p[channels == 1 ? 0 : c];
                sum[c] += weights[t] * (float)code;
            }
        }
        float *o = out + 4 * x;
        for (int c = 0; c < 3; c++) {
            const float v = sum[c] * (1.0f / 255);
            o[c] = add ? o[c] + v : v;
        }
        o[3] = add ? o[3] + total : total;
    }
}

#if defined(__x86_64__) || defined(__i386__)
// Four pixels a step: their samples spread to R, G, B, 0 bytes, two pixels a register of floats.
__attribute__((target("avx2,fma"), always_inline))
static inline size_t four_at_a_time(float *out, const uint8_t *const *rows, const float *weights, int taps,
                                    size_t pixels, const int channels, int add) {
    const char Z = (char)0x80;
    const __m128i spread = channels == 1 ? _mm_setr_epi8(0, 0, 0, Z, 1, 1, 1, Z, 2, 2, 2, Z, 3, 3, 3, Z)
                                         : _mm_setr_epi8(0, 1, 2, Z, 3, 4, 5, Z, 6, 7, 8, Z, 9, 10, 11, Z);
    float total = 0;
    for (int t = 0; t < taps; t++) total += weights[t];
    // Colour codes / 255, alpha the weights' sum: the samples' alpha lanes read 0.
    const float scale = 1.0f / 255;
    const __m256 colour = _mm256_setr_ps(scale, scale, scale, 0, scale, scale, scale, 0);
    const __m256 alpha = _mm256_setr_ps(0, 0, 0, total, 0, 0, 0, total);
    // A step reads 16 bytes (RGB) or 4 (grey) from its first pixel: it stays inside the row.
    const size_t reach = channels == 1 ? 4 : 6;
    size_t x = 0;
    for (; x + reach <= pixels; x += 4) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0;
        for (int t = 0; t < taps; t++) {
            const uint8_t *p = rows[t] + x * (size_t)channels;
            __m128i bytes;
            if (channels == 1) {
                int32_t word;
                __builtin_memcpy(&word, p, 4);
                bytes = _mm_cvtsi32_si128(word);
            } else {
                bytes = _mm_loadu_si128((const __m128i *)p);
            }
            bytes = _mm_shuffle_epi8(bytes, spread);
            const __m256i lo = _mm256_cvtepu8_epi32(bytes), hi = _mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8));
            const __m256 w = _mm256_broadcast_ss(&weights[t]);
            a0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(lo), w, a0);
            a1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hi), w, a1);
        }
        a0 = _mm256_fmadd_ps(a0, colour, alpha);
        a1 = _mm256_fmadd_ps(a1, colour, alpha);
        float *o = out + 4 * x;
        if (add) {
            a0 = _mm256_add_ps(a0, _mm256_loadu_ps(o));
            a1 = _mm256_add_ps(a1, _mm256_loadu_ps(o + 8));
        }
        _mm256_storeu_ps(o, a0);
        _mm256_storeu_ps(o + 8, a1);
    }
    return x;
}

__attribute__((target("avx2,fma")))
static size_t avx2_grey(float *out, const uint8_t *const *rows, const float *weights, int taps, size_t pixels,
                        int add) {
    return four_at_a_time(out, rows, weights, taps, pixels, 1, add);
}

__attribute__((target("avx2,fma")))
static size_t avx2_rgb(float *out, const uint8_t *const *rows, const float *weights, int taps, size_t pixels,
                       int add) {
    return four_at_a_time(out, rows, weights, taps, pixels, 3, add);
}
#endif

void fr_vertical_taps8(float *out, const uint8_t *const *rows, const float *weights, int taps, size_t pixels,
                       int channels, int add) {
    size_t done = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2())
        done = (channels == 1 ? avx2_grey : avx2_rgb)(out, rows, weights, taps, pixels, add);
#endif
    portable(out, rows, weights, taps, done, pixels, channels, add);
}
