#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <stdlib.h>
#include <string.h>

// -1: not decided yet. Read and written atomically: render threads ask while a test may switch.
static int enabled = -1;

static int supported(void) {
#if defined(__x86_64__) || defined(__i386__)
    const char *choice = getenv("FILTERRUN_SIMD");
    if (choice && strcmp(choice, "portable") == 0) return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

int fr_kernels_avx2(void) {
    int state = __atomic_load_n(&enabled, __ATOMIC_RELAXED);
    if (state < 0) {
        state = supported();
        __atomic_store_n(&enabled, state, __ATOMIC_RELAXED);
    }
    return state;
}

void fr_kernels_set_avx2(int on) {
    __atomic_store_n(&enabled, on ? supported() : 0, __ATOMIC_RELAXED);
}

int fr_kernels_avx512vbmi(void) {
#if defined(__x86_64__)
    static int vbmi = -1;
    int state = __atomic_load_n(&vbmi, __ATOMIC_RELAXED);
    if (state < 0) {
        __builtin_cpu_init();
        state = __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw");
        __atomic_store_n(&vbmi, state, __ATOMIC_RELAXED);
    }
    return state && fr_kernels_avx2();
#else
    return 0;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma")))
void fr_vertical_taps_avx2(float *out, const float *const *rows, const float *weights, int taps, size_t n, int add) {
    size_t i = 0;
    // 32 floats a step in four accumulators, so the FMA latency is hidden.
    for (; i + 32 <= n; i += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        if (add) {
            a0 = _mm256_loadu_ps(out + i);
            a1 = _mm256_loadu_ps(out + i + 8);
            a2 = _mm256_loadu_ps(out + i + 16);
            a3 = _mm256_loadu_ps(out + i + 24);
        }
        for (int t = 0; t < taps; t++) {
            const float *src = rows[t] + i;
            __m256 w = _mm256_broadcast_ss(&weights[t]);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(src), w, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(src + 8), w, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(src + 16), w, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(src + 24), w, a3);
        }
        _mm256_storeu_ps(out + i, a0);
        _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2);
        _mm256_storeu_ps(out + i + 24, a3);
    }
    for (; i + 8 <= n; i += 8) {
        __m256 a = add ? _mm256_loadu_ps(out + i) : _mm256_setzero_ps();
        for (int t = 0; t < taps; t++) a = _mm256_fmadd_ps(_mm256_loadu_ps(rows[t] + i), _mm256_broadcast_ss(&weights[t]), a);
        _mm256_storeu_ps(out + i, a);
    }
    for (; i < n; i++) {
        float a = add ? out[i] : 0;
        for (int t = 0; t < taps; t++) a = __builtin_fmaf(rows[t][i], weights[t], a);
        out[i] = a;
    }
}

__attribute__((target("avx2,fma")))
void fr_vertical_taps4_avx2(float *const *out, const float *const *rows, const float *weights, int taps, size_t n) {
    size_t i = 0;
    // Sixteen floats of four output rows a step: each input row's vectors are loaded once for the (up to) four
    // outputs it feeds, instead of once per output, so the loads no longer outrun what L2 delivers.
    for (; i + 16 <= n; i += 16) {
        __m256 a[4][2];
        for (int k = 0; k < 4; k++) a[k][0] = a[k][1] = _mm256_setzero_ps();
        for (int r = 0; r < taps + 3; r++) {
            const __m256 v0 = _mm256_loadu_ps(rows[r] + i), v1 = _mm256_loadu_ps(rows[r] + i + 8);
            for (int k = 0; k < 4; k++) {
                const int t = r - k;
                if (t < 0 || t >= taps) continue;
                const __m256 w = _mm256_broadcast_ss(&weights[t]);
                a[k][0] = _mm256_fmadd_ps(v0, w, a[k][0]);
                a[k][1] = _mm256_fmadd_ps(v1, w, a[k][1]);
            }
        }
        for (int k = 0; k < 4; k++) {
            _mm256_storeu_ps(out[k] + i, a[k][0]);
            _mm256_storeu_ps(out[k] + i + 8, a[k][1]);
        }
    }
    for (; i < n; i++) {
        for (int k = 0; k < 4; k++) {
            float a = 0;
            for (int t = 0; t < taps; t++) a = __builtin_fmaf(rows[t + k][i], weights[t], a);
            out[k][i] = a;
        }
    }
}

__attribute__((target("avx2,fma")))
void fr_unsharp_combine_avx2(float *out, const float *original, const float *blurred, size_t width, float amount,
                             float threshold) {
    const __m256 zero = _mm256_setzero_ps(), k = _mm256_set1_ps(amount), limit = _mm256_set1_ps(threshold);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    size_t x = 0;
    // Two pixels a register; multiplies and adds kept apart (no FMA), as the Swift definition rounds them.
    for (; x + 2 <= width; x += 2) {
        const __m256 a = _mm256_loadu_ps(original + 4 * x), b = _mm256_loadu_ps(blurred + 4 * x);
        const __m256 alpha = _mm256_permute_ps(a, 0xFF), blurredAlpha = _mm256_permute_ps(b, 0xFF);
        const __m256 covered = _mm256_cmp_ps(alpha, zero, _CMP_GT_OQ);
        const __m256 blurredCovered = _mm256_cmp_ps(blurredAlpha, zero, _CMP_GT_OQ);
        const __m256 colour = _mm256_and_ps(_mm256_div_ps(a, alpha), covered);
        __m256 d = _mm256_and_ps(_mm256_sub_ps(colour, _mm256_div_ps(b, blurredAlpha)), blurredCovered);
        if (threshold > 0) {
            const __m256 magnitude = _mm256_andnot_ps(sign, d);
            d = _mm256_andnot_ps(_mm256_cmp_ps(magnitude, limit, _CMP_LT_OQ), d);
        }
        const __m256 v = _mm256_mul_ps(_mm256_add_ps(colour, _mm256_mul_ps(d, k)), alpha);
        _mm256_storeu_ps(out + 4 * x, _mm256_blend_ps(v, alpha, 0x88));
    }
    for (; x < width; x++) {
        const __m128 a = _mm_loadu_ps(original + 4 * x), b = _mm_loadu_ps(blurred + 4 * x);
        const __m128 alpha = _mm_shuffle_ps(a, a, 0xFF), blurredAlpha = _mm_shuffle_ps(b, b, 0xFF);
        const __m128 colour = _mm_and_ps(_mm_div_ps(a, alpha), _mm_cmpgt_ps(alpha, _mm_setzero_ps()));
        __m128 d = _mm_and_ps(_mm_sub_ps(colour, _mm_div_ps(b, blurredAlpha)), _mm_cmpgt_ps(blurredAlpha, _mm_setzero_ps()));
        if (threshold > 0) {
            const __m128 magnitude = _mm_andnot_ps(_mm_set1_ps(-0.0f), d);
            d = _mm_andnot_ps(_mm_cmplt_ps(magnitude, _mm_set1_ps(threshold)), d);
        }
        const __m128 v = _mm_mul_ps(_mm_add_ps(colour, _mm_mul_ps(d, _mm_set1_ps(amount))), alpha);
        _mm_storeu_ps(out + 4 * x, _mm_blend_ps(v, alpha, 0x8));
    }
}

__attribute__((target("avx2,fma")))
void fr_horizontal_resample_avx2(float *out, const float *src, const int32_t *indices, const float *weights, int taps,
                                 size_t width) {
    size_t x = 0;
    // Two output pixels a register: pixel x in the low half, x + 1 in the high half, each tap a pair of loads.
    for (; x + 2 <= width; x += 2) {
        const int32_t *ia = indices + x * taps, *ib = ia + taps;
        const float *wa = weights + x * taps, *wb = wa + taps;
        __m256 sum = _mm256_setzero_ps();
        for (int t = 0; t < taps; t++) {
            const __m256 v = _mm256_set_m128(_mm_loadu_ps(src + 4 * ib[t]), _mm_loadu_ps(src + 4 * ia[t]));
            sum = _mm256_fmadd_ps(v, _mm256_set_m128(_mm_set1_ps(wb[t]), _mm_set1_ps(wa[t])), sum);
        }
        _mm256_storeu_ps(out + 4 * x, sum);
    }
    for (; x < width; x++) {
        __m128 sum = _mm_setzero_ps();
        for (int t = 0; t < taps; t++)
            sum = _mm_fmadd_ps(_mm_loadu_ps(src + 4 * indices[x * taps + t]), _mm_set1_ps(weights[x * taps + t]), sum);
        _mm_storeu_ps(out + 4 * x, sum);
    }
}

__attribute__((target("avx2,fma")))
void fr_horizontal_taps_avx2(float *out, const float *padded, const float *weights, int taps, size_t width) {
    size_t x = 0;
    // Eight pixels a step: each 256-bit register holds two neighbouring RGBA pixels, so one unaligned load per tap
    // and register feeds both.
    for (; x + 8 <= width; x += 8) {
        const float *p = padded + 4 * x;
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int t = 0; t < taps; t++) {
            __m256 w = _mm256_broadcast_ss(&weights[t]);
            const float *q = p + 4 * t;
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(q), w, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(q + 8), w, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(q + 16), w, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(q + 24), w, a3);
        }
        _mm256_storeu_ps(out + 4 * x, a0);
        _mm256_storeu_ps(out + 4 * x + 8, a1);
        _mm256_storeu_ps(out + 4 * x + 16, a2);
        _mm256_storeu_ps(out + 4 * x + 24, a3);
    }
    for (; x < width; x++) {
        __m128 a = _mm_setzero_ps();
        for (int t = 0; t < taps; t++) a = _mm_fmadd_ps(_mm_loadu_ps(padded + 4 * (x + t)), _mm_set1_ps(weights[t]), a);
        _mm_storeu_ps(out + 4 * x, a);
    }
}
#else
// Never called where fr_kernels_avx2() is 0; defined so the package links on every architecture.
void fr_vertical_taps_avx2(float *out, const float *const *rows, const float *weights, int taps, size_t n, int add) {
    (void)out; (void)rows; (void)weights; (void)taps; (void)n; (void)add; abort();
}
void fr_vertical_taps4_avx2(float *const *out, const float *const *rows, const float *weights, int taps, size_t n) {
    (void)out; (void)rows; (void)weights; (void)taps; (void)n; abort();
}
void fr_horizontal_taps_avx2(float *out, const float *padded, const float *weights, int taps, size_t width) {
    (void)out; (void)padded; (void)weights; (void)taps; (void)width; abort();
}
void fr_horizontal_resample_avx2(float *out, const float *src, const int32_t *indices, const float *weights, int taps,
                                 size_t width) {
    (void)out; (void)src; (void)indices; (void)weights; (void)taps; (void)width; abort();
}
void fr_unsharp_combine_avx2(float *out, const float *original, const float *blurred, size_t width, float amount,
                             float threshold) {
    (void)out; (void)original; (void)blurred; (void)width; (void)amount; (void)threshold; abort();
}
#endif
