#include "blend.h"
#include <stdint.h>
#include <string.h>

int fr_floats_zero(const float *values, size_t count) {
    // The words or-ed a block at a time (the compiler vectorises it), stopping at the first block with a bit set.
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        uint32_t words[16], any = 0;
        memcpy(words, values + i, sizeof words);
        for (int k = 0; k < 16; k++) any |= words[k];
        if (any) return 0;
    }
    for (; i < count; i++) {
        uint32_t word;
        memcpy(&word, values + i, sizeof word);
        if (word) return 0;
    }
    return 1;
}
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#pragma STDC FP_CONTRACT OFF

// B(Cb, Cs) of straight colours, as the Swift `BlendFunction`s write it.
__attribute__((target("avx2"), always_inline)) static inline __m256 blend_function(__m256 cb, __m256 cs, enum fr_blend_mode mode) {
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    switch (mode) {
    case FR_BLEND_NORMAL: return cs;
    case FR_BLEND_MULTIPLY: return _mm256_mul_ps(cb, cs);
    case FR_BLEND_SCREEN: return _mm256_sub_ps(_mm256_add_ps(cb, cs), _mm256_mul_ps(cb, cs));
    case FR_BLEND_DARKEN: return _mm256_min_ps(cb, cs);
    case FR_BLEND_LIGHTEN: return _mm256_max_ps(cb, cs);
    case FR_BLEND_DIFFERENCE: {
        __m256 d = _mm256_sub_ps(cb, cs);
        return _mm256_blendv_ps(d, _mm256_sub_ps(zero, d), _mm256_cmp_ps(d, zero, _CMP_LT_OQ));
    }
    case FR_BLEND_EXCLUSION:
        return _mm256_sub_ps(_mm256_add_ps(cb, cs), _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(2.0f), cb), cs));
    case FR_BLEND_ADD: return _mm256_min_ps(_mm256_add_ps(cb, cs), one);
    case FR_BLEND_SUBTRACT: return _mm256_max_ps(_mm256_sub_ps(cb, cs), zero);
    default: break;  // the other modes have no AVX2 loop: CompositeStages never passes them here
    }
    return cs;
}

__attribute__((target("avx2"), always_inline))
static inline size_t blend_row(float *out, const float *source, const float *backdrop, size_t count, float opacity,
                               enum fr_blend_mode mode) {
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps(), o = _mm256_set1_ps(opacity);
    size_t x = 0;
    for (; x + 2 <= count; x += 2) {
        __m256 s = _mm256_mul_ps(_mm256_loadu_ps(source + 4 * x), o);
        __m256 b = _mm256_loadu_ps(backdrop + 4 * x);
        __m256 as = _mm256_permute_ps(s, 0xFF), ab = _mm256_permute_ps(b, 0xFF);
        // a > 0 ? c / a : 0 (the division's result where a is 0 is masked away).
        __m256 straightS = _mm256_and_ps(_mm256_div_ps(s, as), _mm256_cmp_ps(as, zero, _CMP_GT_OQ));
        __m256 straightB = _mm256_and_ps(_mm256_div_ps(b, ab), _mm256_cmp_ps(ab, zero, _CMP_GT_OQ));
        __m256 f = blend_function(straightB, straightS, mode);
        // s(1 − αb) + b(1 − αs) + B·(αs·αb), summed left to right; αo = αs + αb(1 − αs).
        __m256 c = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(s, _mm256_sub_ps(one, ab)),
                                               _mm256_mul_ps(b, _mm256_sub_ps(one, as))),
                                 _mm256_mul_ps(f, _mm256_mul_ps(as, ab)));
        __m256 alpha = _mm256_add_ps(as, _mm256_mul_ps(ab, _mm256_sub_ps(one, as)));
        _mm256_storeu_ps(out + 4 * x, _mm256_blend_ps(c, alpha, 0x88));
    }
    return x;
}

// One loop a mode, so the mode's choice is made once a row, not once a pixel.
#define FR_BLEND_CASE(MODE) \
    case MODE: return blend_row(out, source, backdrop, count, opacity, MODE);

__attribute__((target("avx2")))
size_t fr_blend_row_avx2(float *out, const float *source, const float *backdrop, size_t count, float opacity,
                         enum fr_blend_mode mode) {
    switch (mode) {
    FR_BLEND_CASE(FR_BLEND_NORMAL)
    FR_BLEND_CASE(FR_BLEND_MULTIPLY)
    FR_BLEND_CASE(FR_BLEND_SCREEN)
    FR_BLEND_CASE(FR_BLEND_DARKEN)
    FR_BLEND_CASE(FR_BLEND_LIGHTEN)
    FR_BLEND_CASE(FR_BLEND_DIFFERENCE)
    FR_BLEND_CASE(FR_BLEND_EXCLUSION)
    FR_BLEND_CASE(FR_BLEND_ADD)
    FR_BLEND_CASE(FR_BLEND_SUBTRACT)
    default: break;  // no loop here: the caller blends every pixel
    }
    return 0;
}
#else
// Never called where fr_kernels_avx2() is 0; defined so the package links on every architecture.
size_t fr_blend_row_avx2(float *out, const float *source, const float *backdrop, size_t count, float opacity,
                         enum fr_blend_mode mode) {
    (void)out; (void)source; (void)backdrop; (void)count; (void)opacity; (void)mode;
    return 0;
}
#endif
