#include "luminance.h"
#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <math.h>

static inline float luma(const float *p) {
    const float r = 0.2126f * p[0], g = 0.7152f * p[1], b = 0.0722f * p[2];
    const float rg = r + g;
    return rg + b;
}

static inline float sobel(const float *a, const float *b, const float *c, size_t x) {
    // x is the padded index of the pixel's left neighbour.
    const float right = (a[x + 2] + 2 * b[x + 2]) + c[x + 2], left = (a[x] + 2 * b[x]) + c[x];
    const float below = (c[x] + 2 * c[x + 1]) + c[x + 2], above = (a[x] + 2 * a[x + 1]) + a[x + 2];
    const float gx = right - left, gy = below - above;
    const float gx2 = gx * gx, gy2 = gy * gy;
    return sqrtf(gx2 + gy2) / 4;
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2")))
static size_t luminance_avx2(float *out, const float *rgba, size_t n) {
    // Eight pixels: gather their R, G and B with strided index vectors.
    const __m256i index = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    const __m256 kr = _mm256_set1_ps(0.2126f), kg = _mm256_set1_ps(0.7152f), kb = _mm256_set1_ps(0.0722f);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const float *p = rgba + 4 * i;
        const __m256 r = _mm256_i32gather_ps(p, index, 4), g = _mm256_i32gather_ps(p + 1, index, 4),
                     b = _mm256_i32gather_ps(p + 2, index, 4);
        const __m256 rg = _mm256_add_ps(_mm256_mul_ps(kr, r), _mm256_mul_ps(kg, g));
        _mm256_storeu_ps(out + i, _mm256_add_ps(rg, _mm256_mul_ps(kb, b)));
    }
    return i;
}

__attribute__((target("avx2")))
static size_t sobel_avx2(float *out, const float *a, const float *b, const float *c, size_t n) {
    const __m256 two = _mm256_set1_ps(2), quarter = _mm256_set1_ps(4), one = _mm256_set1_ps(1);
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m256 a0 = _mm256_loadu_ps(a + x), a1 = _mm256_loadu_ps(a + x + 1), a2 = _mm256_loadu_ps(a + x + 2);
        const __m256 b0 = _mm256_loadu_ps(b + x), b2 = _mm256_loadu_ps(b + x + 2);
        const __m256 c0 = _mm256_loadu_ps(c + x), c1 = _mm256_loadu_ps(c + x + 1), c2 = _mm256_loadu_ps(c + x + 2);
        const __m256 right = _mm256_add_ps(_mm256_add_ps(a2, _mm256_mul_ps(two, b2)), c2);
        const __m256 left = _mm256_add_ps(_mm256_add_ps(a0, _mm256_mul_ps(two, b0)), c0);
        const __m256 below = _mm256_add_ps(_mm256_add_ps(c0, _mm256_mul_ps(two, c1)), c2);
        const __m256 above = _mm256_add_ps(_mm256_add_ps(a0, _mm256_mul_ps(two, a1)), a2);
        const __m256 gx = _mm256_sub_ps(right, left), gy = _mm256_sub_ps(below, above);
        const __m256 m = _mm256_div_ps(_mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(gx, gx), _mm256_mul_ps(gy, gy))), quarter);
        // (m, m, m, 1) for each of the eight.
        const __m256 lo = _mm256_unpacklo_ps(m, m), hi = _mm256_unpackhi_ps(m, m);   // m0 m0 m1 m1 | m4 m4 m5 m5 …
        const __m256 lo1 = _mm256_unpacklo_ps(m, one), hi1 = _mm256_unpackhi_ps(m, one); // m0 1 m1 1 | m4 1 m5 1 …
        // Pixel pairs: (m0 m0 m0 1 m1 m1 m1 1) from lo and lo1.
        const __m256 p01_45 = _mm256_shuffle_ps(lo, lo1, _MM_SHUFFLE(1, 0, 1, 0));  // m0 m0 m0 1 | m4 m4 m4 1
        const __m256 q01_45 = _mm256_shuffle_ps(lo, lo1, _MM_SHUFFLE(3, 2, 3, 2));  // m1 m1 m1 1 | m5 m5 m5 1
        const __m256 p23_67 = _mm256_shuffle_ps(hi, hi1, _MM_SHUFFLE(1, 0, 1, 0));  // m2 … | m6 …
        const __m256 q23_67 = _mm256_shuffle_ps(hi, hi1, _MM_SHUFFLE(3, 2, 3, 2));  // m3 … | m7 …
        float *o = out + 4 * x;
        _mm256_storeu_ps(o, _mm256_permute2f128_ps(p01_45, q01_45, 0x20));       // pixels 0, 1
        _mm256_storeu_ps(o + 8, _mm256_permute2f128_ps(p23_67, q23_67, 0x20));   // pixels 2, 3
        _mm256_storeu_ps(o + 16, _mm256_permute2f128_ps(p01_45, q01_45, 0x31));  // pixels 4, 5
        _mm256_storeu_ps(o + 24, _mm256_permute2f128_ps(p23_67, q23_67, 0x31));  // pixels 6, 7
    }
    return x;
}
#endif

void fr_luminance_row(float *out, const float *rgba, size_t n) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = luminance_avx2(out, rgba, n);
#endif
    for (; i < n; i++) out[i] = luma(rgba + 4 * i);
}

void fr_sobel_row(float *out, const float *a, const float *b, const float *c, size_t n) {
    size_t x = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) x = sobel_avx2(out, a, b, c, n);
#endif
    for (; x < n; x++) {
        const float m = sobel(a, b, c, x);
        out[4 * x] = out[4 * x + 1] = out[4 * x + 2] = m;
        out[4 * x + 3] = 1;
    }
}

void fr_luminance_row8(float *out, const uint8_t *src, size_t n, int channels, const float *tables) {
    const float *r = tables, *g = tables + 256, *b = tables + 512;
    if (channels == 1) {
        for (size_t i = 0; i < n; i++) out[i] = (r[src[i]] + g[src[i]]) + b[src[i]];
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = src + 3 * i;
        out[i] = (r[p[0]] + g[p[1]]) + b[p[2]];
    }
}
