#include "bilateral.h"
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// 2^y as FastMath.exp2 computes it (y clamped to [−126, 127]; the integer part from the float's bits; a 7th-order
// series for the fraction), with fused multiply-adds.
__attribute__((target("avx2,fma"))) static inline __m256 exp2_avx2(__m256 y) {
    __m256 v = _mm256_min_ps(_mm256_max_ps(y, _mm256_set1_ps(-126.0f)), _mm256_set1_ps(127.0f));
    const __m256 magic = _mm256_set1_ps(12582912.0f);
    __m256 shifted = _mm256_add_ps(v, magic);
    __m256i n = _mm256_sub_epi32(_mm256_castps_si256(shifted), _mm256_castps_si256(magic));
    __m256 t = _mm256_mul_ps(_mm256_sub_ps(v, _mm256_sub_ps(shifted, magic)), _mm256_set1_ps(0.69314718f));
    __m256 p = _mm256_set1_ps(1.0f / 5040);
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.0f / 720));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.0f / 120));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.0f / 24));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.0f / 6));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0.5f));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.0f));
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1.0f));
    __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n, _mm256_set1_epi32(127)), 23));
    return _mm256_mul_ps(p, scale);
}

__attribute__((target("avx2,fma")))
size_t fr_bilateral_tap_avx2(float *out, float *norms, const float *row, const float *centre, size_t n, float spatial,
                             float scale) {
    const __m256 k = _mm256_set1_ps(scale), ws = _mm256_set1_ps(spatial);
    // After two rounds of in-lane pairwise sums the eight distances come out as pixels 0 2 4 6 | 1 3 5 7; these
    // indices spread each pixel's weight over its four floats, and put the weights back in pixel order.
    const __m256i spread[4] = {_mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4), _mm256_setr_epi32(1, 1, 1, 1, 5, 5, 5, 5),
                               _mm256_setr_epi32(2, 2, 2, 2, 6, 6, 6, 6), _mm256_setr_epi32(3, 3, 3, 3, 7, 7, 7, 7)};
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v[4], s[4];
        for (int j = 0; j < 4; j++) {
            v[j] = _mm256_loadu_ps(row + 4 * i + 8 * j);
            __m256 d = _mm256_sub_ps(v[j], _mm256_loadu_ps(centre + 4 * i + 8 * j));
            s[j] = _mm256_mul_ps(d, d);
        }
        __m256 sums = _mm256_hadd_ps(_mm256_hadd_ps(s[0], s[1]), _mm256_hadd_ps(s[2], s[3]));
        __m256 w = _mm256_mul_ps(exp2_avx2(_mm256_mul_ps(sums, k)), ws);
        for (int j = 0; j < 4; j++) {
            float *o = out + 4 * i + 8 * j;
            _mm256_storeu_ps(o, _mm256_fmadd_ps(v[j], _mm256_permutevar8x32_ps(w, spread[j]), _mm256_loadu_ps(o)));
        }
        _mm256_storeu_ps(norms + i, _mm256_add_ps(_mm256_loadu_ps(norms + i), _mm256_permutevar8x32_ps(w, order)));
    }
    return i;
}
#else
// Never called where fr_kernels_avx2() is 0; defined so the package links on every architecture.
size_t fr_bilateral_tap_avx2(float *out, float *norms, const float *row, const float *centre, size_t n, float spatial,
                             float scale) {
    (void)out; (void)norms; (void)row; (void)centre; (void)n; (void)spatial; (void)scale; abort();
}
#endif
