#include "plane_warp.h"
#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <math.h>
#include <stdint.h>
#include <string.h>

// A sum of taps as a code: clamped to 0…255, halves rounded up (the vector loop rounds the same way).
static inline uint8_t to_code(float sum) {
    sum = sum < 0 ? 0 : sum > 255 ? 255 : sum;
    return (uint8_t)(int)(sum + 0.5f);
}

// The taps' weights for a position t ∈ [0, 1) past tap 0: bilinear's (taps 0, 1) or Keys' cubic (a = −½; taps
// −1…2, at distances 1 + t, t, 1 − t, 2 − t: the outer two on the cubic's far piece, the inner two on its near one).
static inline void plane_weights(float t, int taps, float w[4]) {
    if (taps == 2) {
        w[0] = 1 - t;
        w[1] = t;
        return;
    }
    const float d0 = 1 + t, d1 = t, d2 = 1 - t, d3 = 2 - t;
    w[0] = ((-0.5f * d0 + 2.5f) * d0 - 4) * d0 + 2;
    w[1] = (1.5f * d1 - 2.5f) * d1 * d1 + 1;
    w[2] = (1.5f * d2 - 2.5f) * d2 * d2 + 1;
    w[3] = ((-0.5f * d3 + 2.5f) * d3 - 4) * d3 + 2;
}

// One sample anywhere: taps outside the plane read the background.
static uint8_t sample_general(double u, double v, const fr_plane_source *s) {
    const int n = s->taps, lo = 1 - n / 2;
    if (!(u > -1e9 && u < 1e9 && v > -1e9 && v < 1e9)) return to_code(s->background);
    const long ix = (long)floor(u), iy = (long)floor(v);
    if (ix + lo + n <= 0 || ix + lo >= s->width || iy + lo + n <= 0 || iy + lo >= s->height) return to_code(s->background);
    float wx[4], wy[4];
    plane_weights((float)(u - (double)ix), n, wx);
    plane_weights((float)(v - (double)iy), n, wy);
    float sum = 0;
    for (int j = 0; j < n; j++) {
        const long row = iy + lo + j;
        float across = 0;
        for (int i = 0; i < n; i++) {
            const long column = ix + lo + i;
            const float value = row < 0 || row >= s->height || column < 0 || column >= s->width
                ? s->background : (float)s->base[row * s->stride + column];
            across += value * wx[i];
        }
        sum += across * wy[j];
    }
    return to_code(sum);
}

// The x (0…count) for which lo ≤ u0 + x·du < hi, widened by `slack` on each side: [*first, *end).
static void span(double u0, double du, double lo, double hi, double slack, size_t count, double *first, double *end) {
    double a, b;
    if (du == 0) {
        a = u0 >= lo && u0 < hi ? 0 : (double)count;
        b = u0 >= lo && u0 < hi ? (double)count : 0;
    } else {
        a = (du > 0 ? lo - u0 : hi - u0) / du;
        b = (du > 0 ? hi - u0 : lo - u0) / du;
    }
    a = a - slack, b = b + slack;
    *first = a > *first ? a : *first;
    *end = b < *end ? b : *end;
}

// Whether sample x's whole window lies inside the plane (computed as the vector loop computes its positions).
static inline int inside(size_t x, double u0, double v0, double du, double dv, const fr_plane_source *s) {
    const int n = s->taps, lo = 1 - n / 2;
    const double u = (double)x * du + u0, v = (double)x * dv + v0;
    if (!(u > -1e9 && u < 1e9 && v > -1e9 && v < 1e9)) return 0;
    const long ix = (long)floor(u), iy = (long)floor(v);
    return ix + lo >= 0 && ix + lo + n <= s->width && iy + lo >= 0 && iy + lo + n <= s->height;
}

#if defined(__x86_64__) || defined(__i386__)
// Samples x0..<x1, every one with its window inside the plane, eight at a time: the four taps of each window row
// are one 32-bit gather.
__attribute__((target("avx2,fma")))
static size_t interior_avx2(uint8_t *out, size_t x0, size_t x1, double u0, double v0, double du, double dv,
                            const fr_plane_source *s) {
    const int n = s->taps, lo = 1 - n / 2;
    const __m256d step = _mm256_setr_pd(0, 1, 2, 3), vdu = _mm256_set1_pd(du), vdv = _mm256_set1_pd(dv);
    const __m256d vu0 = _mm256_set1_pd(u0), vv0 = _mm256_set1_pd(v0);
    const __m256i stride = _mm256_set1_epi32((int)s->stride), mask = _mm256_set1_epi32(0xFF);
    const __m256i origin = _mm256_set1_epi32(lo * (int)s->stride + lo);
    const int *base = (const int *)(const void *)s->base;
    size_t x = x0;
    for (; x + 8 <= x1; x += 8) {
        const __m256d xa = _mm256_add_pd(_mm256_set1_pd((double)x), step), xb = _mm256_add_pd(xa, _mm256_set1_pd(4));
        const __m256d ua = _mm256_add_pd(_mm256_mul_pd(xa, vdu), vu0), ub = _mm256_add_pd(_mm256_mul_pd(xb, vdu), vu0);
        const __m256d va = _mm256_add_pd(_mm256_mul_pd(xa, vdv), vv0), vb = _mm256_add_pd(_mm256_mul_pd(xb, vdv), vv0);
        const __m256d fua = _mm256_floor_pd(ua), fub = _mm256_floor_pd(ub), fva = _mm256_floor_pd(va), fvb = _mm256_floor_pd(vb);
        const __m256 tx = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_sub_pd(ub, fub)), _mm256_cvtpd_ps(_mm256_sub_pd(ua, fua)));
        const __m256 ty = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_sub_pd(vb, fvb)), _mm256_cvtpd_ps(_mm256_sub_pd(va, fva)));
        const __m256i ix = _mm256_set_m128i(_mm256_cvttpd_epi32(fub), _mm256_cvttpd_epi32(fua));
        const __m256i iy = _mm256_set_m128i(_mm256_cvttpd_epi32(fvb), _mm256_cvttpd_epi32(fva));
        __m256i offset = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(iy, stride), ix), origin);
        __m256 wx[4], wy[4];
        if (n == 2) {
            wx[0] = _mm256_sub_ps(_mm256_set1_ps(1), tx);
            wx[1] = tx;
            wy[0] = _mm256_sub_ps(_mm256_set1_ps(1), ty);
            wy[1] = ty;
        } else {
            const __m256 one = _mm256_set1_ps(1), two = _mm256_set1_ps(2);
            const __m256 a = _mm256_set1_ps(-0.5f), b = _mm256_set1_ps(2.5f), c = _mm256_set1_ps(4), e = _mm256_set1_ps(1.5f);
            for (int axis = 0; axis < 2; axis++) {
                const __m256 t = axis ? ty : tx;
                __m256 *w = axis ? wy : wx;
                const __m256 d0 = _mm256_add_ps(one, t), d2 = _mm256_sub_ps(one, t), d3 = _mm256_sub_ps(two, t);
                // The scalar loop's order of operations: far ((−½d + 5⁄2)d − 4)d + 2, near (3⁄2d − 5⁄2)d·d + 1.
                w[0] = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(a, d0), b), d0), c), d0), two);
                w[1] = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(e, t), b), t), t), one);
                w[2] = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(e, d2), b), d2), d2), one);
                w[3] = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(a, d3), b), d3), c), d3), two);
            }
        }
        __m256 sum = _mm256_setzero_ps();
        for (int j = 0; j < n; j++, offset = _mm256_add_epi32(offset, stride)) {
            const __m256i g = _mm256_i32gather_epi32(base, offset, 1);
            __m256 across = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(g, mask)), wx[0]);
            across = _mm256_add_ps(across, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(g, 8), mask)), wx[1]));
            if (n == 4) {
                across = _mm256_add_ps(across, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(g, 16), mask)), wx[2]));
                across = _mm256_add_ps(across, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(g, 24)), wx[3]));
            }
            sum = _mm256_add_ps(sum, _mm256_mul_ps(across, wy[j]));
        }
        sum = _mm256_min_ps(_mm256_max_ps(sum, _mm256_setzero_ps()), _mm256_set1_ps(255));
        const __m256i codes = _mm256_cvttps_epi32(_mm256_add_ps(sum, _mm256_set1_ps(0.5f)));
        const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(codes), _mm256_extracti128_si256(codes, 1));
        _mm_storel_epi64((__m128i *)(void *)(out + x), _mm_packus_epi16(words, words));
    }
    return x;
}
#endif

void fr_plane_warp_row(uint8_t *out, size_t count, double u0, double v0, double du, double dv, const fr_plane_source *s) {
    const int n = s->taps, lo = 1 - n / 2;
    const uint8_t background = to_code(s->background);
    // Samples whose taps may touch the plane (widened: the rest is background), and within them those whose whole
    // window lies inside (narrowed, then checked at both ends: along a line the inside is one interval).
    double touch0 = 0, touch1 = (double)count, in0 = 0, in1 = (double)count;
    span(u0, du, 1 - n - lo, s->width - lo, 2, count, &touch0, &touch1);
    span(v0, dv, 1 - n - lo, s->height - lo, 2, count, &touch0, &touch1);
    span(u0, du, -lo, s->width - n - lo + 1, -1, count, &in0, &in1);
    span(v0, dv, -lo, s->height - n - lo + 1, -1, count, &in0, &in1);
    if (!(touch1 > touch0)) {
        memset(out, background, count);
        return;
    }
    const size_t t0 = (size_t)ceil(touch0), t1 = (size_t)floor(touch1) < count ? (size_t)floor(touch1) : count;
    size_t i0 = t0, i1 = t0;
    if (in1 > in0) {
        i0 = (size_t)ceil(in0);
        i1 = (size_t)floor(in1) < count ? (size_t)floor(in1) : count;
        i0 = i0 < t0 ? t0 : i0;
        i1 = i1 > t1 ? t1 : i1;
        while (i0 < i1 && !inside(i0, u0, v0, du, dv, s)) i0++;
        while (i1 > i0 && !inside(i1 - 1, u0, v0, du, dv, s)) i1--;
        if (i1 <= i0) i0 = i1 = t0;
    }
    memset(out, background, t0);
    if (t1 < count) memset(out + t1, background, count - t1);
    for (size_t x = t0; x < i0; x++) out[x] = sample_general((double)x * du + u0, (double)x * dv + v0, s);
    size_t x = i0;
#if defined(__x86_64__) || defined(__i386__)
    // 32-bit gather offsets: planes under 2 GiB.
    if (fr_kernels_avx2() && (double)s->stride * s->height < 2147483647.0) x = interior_avx2(out, i0, i1, u0, v0, du, dv, s);
#endif
    for (; x < t1; x++) out[x] = sample_general((double)x * du + u0, (double)x * dv + v0, s);
}
