#include "affine.h"
#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <math.h>
#include <string.h>

// How one output pixel's taps meet the input.
enum { OUTSIDE, INSIDE, STRADDLES };

// The first tap (ix + lo, iy + lo) of a pixel at (u, v) and whether its n × n window lies inside the held rows.
static inline int classify(double u, double v, const fr_affine_source *s, long *ix, long *iy) {
    // Far outside (or not a number): background, without converting an out-of-range double to an integer.
    if (!(u > -1e9 && u < 1e9 && v > -1e9 && v < 1e9)) return OUTSIDE;
    const long n = s->taps, lo = 1 - n / 2;
    *ix = (long)floor(u);
    *iy = (long)floor(v);
    const long x0 = *ix + lo, y0 = *iy + lo;
    if (x0 + n <= 0 || x0 >= s->width || y0 + n <= 0 || y0 >= s->height) return OUTSIDE;
    if (x0 >= 0 && x0 + n <= s->width && y0 >= s->first_row && y0 + n <= s->first_row + s->rows && y0 >= 0
        && y0 + n <= s->height)
        return INSIDE;
    return STRADDLES;
}

// The weights of the taps for a position t ∈ [0, 1) past tap 0: bilinear's (taps 0, 1), Keys' cubic (a = −½;
// taps −1…2) or Lanczos-3's from the table (taps −2…3).
static inline void weights(float t, const fr_affine_source *s, float w[6]) {
    if (s->taps == 2) {
        w[0] = 1 - t;
        w[1] = t;
    } else if (s->taps == 4) {
        const float d[4] = {1 + t, t, 1 - t, 2 - t};
        for (int k = 0; k < 4; k++) {
            const float x = d[k], x2 = x * x;
            w[k] = x > 1 ? ((-0.5f * x + 2.5f) * x - 4) * x + 2 : (1.5f * x - 2.5f) * x2 + 1;
        }
    } else {
        const float position = t * (float)s->lanczos_steps;
        int i = (int)position;
        if (i >= s->lanczos_steps) i = s->lanczos_steps - 1;
        const float f = position - (float)i, *low = s->lanczos + 6 * i;
        for (int k = 0; k < 6; k++) w[k] = low[k] + f * (low[6 + k] - low[k]);
    }
}

static size_t row_portable(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                           const fr_affine_source *s) {
    const int n = s->taps, lo = 1 - n / 2, ch = s->channels;
    const float *table = s->table;
    size_t straddling = 0;
    for (size_t x = 0; x < count; x++) {
        const double u = u0 + (double)x * du, v = v0 + (double)x * dv;
        long ix = 0, iy = 0;
        const int where = classify(u, v, s, &ix, &iy);
        float *o = out + 4 * x;
        if (where == OUTSIDE) {
            memcpy(o, s->background, 4 * sizeof(float));
            continue;
        }
        if (where == STRADDLES) {
            edges[straddling++] = (uint32_t)x;
            continue;
        }
        float wx[6], wy[6];
        weights((float)(u - (double)ix), s, wx);
        weights((float)(v - (double)iy), s, wy);
        float sum[4] = {0, 0, 0, 0};
        for (int j = 0; j < n; j++) {
            const uint8_t *p = s->base + (iy + lo + j - s->first_row) * s->stride + (ix + lo) * ch;
            float across[4] = {0, 0, 0, 0};
            for (int i = 0; i < n; i++, p += ch) {
                float c0, c1, c2, a = 1;
                switch (ch) {
                case 1: c0 = c1 = c2 = table[p[0]]; break;
                case 2: a = table[256 + p[1]]; c0 = c1 = c2 = table[p[0]] * a; break;
                case 3: c0 = table[p[0]]; c1 = table[p[1]]; c2 = table[p[2]]; break;
                default:
                    a = table[256 + p[3]];
                    c0 = table[p[0]] * a;
                    c1 = table[p[1]] * a;
                    c2 = table[p[2]] * a;
                }
                across[0] += c0 * wx[i];
                across[1] += c1 * wx[i];
                across[2] += c2 * wx[i];
                across[3] += a * wx[i];
            }
            for (int c = 0; c < 4; c++) sum[c] += across[c] * wy[j];
        }
        memcpy(o, sum, sizeof sum);
    }
    return straddling;
}

#if defined(__x86_64__) || defined(__i386__)
// The n taps' samples of one row, spread to four bytes a tap (R, G, B, A; grey repeated; absent alpha zero).
__attribute__((target("avx2,fma")))
static inline __m128i load_taps(const uint8_t *p, int channels, int n, __m128i spread) {
    __m128i bytes;
    int32_t word;
    uint16_t half;
    switch (channels * n) {
    case 16: bytes = _mm_loadu_si128((const __m128i *)p); break;
    case 12:
        memcpy(&word, p + 8, 4);
        bytes = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)p), word, 2);
        break;
    case 8: bytes = _mm_loadl_epi64((const __m128i *)p); break;
    case 6:
        memcpy(&word, p, 4);
        memcpy(&half, p + 4, 2);
        bytes = _mm_insert_epi16(_mm_cvtsi32_si128(word), half, 2);
        break;
    case 4: memcpy(&word, p, 4); bytes = _mm_cvtsi32_si128(word); break;
    default: memcpy(&half, p, 2); bytes = _mm_cvtsi32_si128(half); break;
    }
    return _mm_shuffle_epi8(bytes, spread);
}

// Keys' weights (bicubic) or bilinear's (first two lanes) for tx in lanes 0–3 and ty in lanes 4–7.
__attribute__((target("avx2,fma")))
static inline __m256 weights8(float tx, float ty, int cubic) {
    const __m256 t = _mm256_set_m128(_mm_set1_ps(ty), _mm_set1_ps(tx));
    if (!cubic) {
        // (1 − t, t, 0, 0)
        return _mm256_fmadd_ps(t, _mm256_setr_ps(-1, 1, 0, 0, -1, 1, 0, 0), _mm256_setr_ps(1, 0, 0, 0, 1, 0, 0, 0));
    }
    // Distances 1 + t, t, 1 − t, 2 − t.
    const __m256 d = _mm256_fmadd_ps(t, _mm256_setr_ps(1, 1, -1, -1, 1, 1, -1, -1), _mm256_setr_ps(1, 0, 1, 2, 1, 0, 1, 2));
    const __m256 near = _mm256_fmadd_ps(_mm256_fmsub_ps(_mm256_set1_ps(1.5f), d, _mm256_set1_ps(2.5f)), _mm256_mul_ps(d, d),
                                        _mm256_set1_ps(1));
    const __m256 far = _mm256_fmadd_ps(
        _mm256_fmsub_ps(_mm256_fmadd_ps(_mm256_set1_ps(-0.5f), d, _mm256_set1_ps(2.5f)), d, _mm256_set1_ps(4)), d,
        _mm256_set1_ps(2));
    return _mm256_blendv_ps(near, far, _mm256_cmp_ps(d, _mm256_set1_ps(1), _CMP_GT_OQ));
}

// Two taps' working values (eight floats, RGBA each) from their spread bytes (the low eight), premultiplied where
// there is alpha; converted codes stay in code units unless alpha needs them as fractions.
__attribute__((target("avx2,fma"), always_inline))
static inline __m256 tap_pair(__m128i bytes, const fr_affine_source *s, const int alpha, const int unit,
                              __m256i opaque) {
    const __m256i codes = _mm256_or_si256(_mm256_cvtepu8_epi32(bytes), opaque);
    __m256 value;
    if (unit) {
        value = _mm256_cvtepi32_ps(codes);
        if (alpha) value = _mm256_mul_ps(value, _mm256_set1_ps(1.0f / 255));
    } else {
        value = _mm256_i32gather_ps(s->table, _mm256_add_epi32(codes, _mm256_setr_epi32(0, 0, 0, 256, 0, 0, 0, 256)), 4);
    }
    if (alpha) value = _mm256_mul_ps(value, _mm256_blend_ps(_mm256_permute_ps(value, 0xFF), _mm256_set1_ps(1), 0x88));
    return value;
}

// One row, specialised by the constant arguments it is inlined with: samples per pixel, taps per axis, and
// whether colour codes convert (code / 255) rather than look up.
__attribute__((target("avx2,fma"), always_inline))
static inline size_t row_avx2_body(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                                   const fr_affine_source *s, const int ch, const int n, const int unit) {
    const int lo = 1 - n / 2, alpha = ch == 2 || ch == 4;
    const char Z = (char)0x80;
    __m128i spread;
    switch (ch) {
    case 1: spread = _mm_setr_epi8(0, 0, 0, Z, 1, 1, 1, Z, 2, 2, 2, Z, 3, 3, 3, Z); break;
    case 2: spread = _mm_setr_epi8(0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7); break;
    case 3: spread = _mm_setr_epi8(0, 1, 2, Z, 3, 4, 5, Z, 6, 7, 8, Z, 9, 10, 11, Z); break;
    default: spread = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); break;
    }
    // Samples without alpha read alpha code 255 (the table's second half holds alpha codes).
    const __m256i opaque = alpha ? _mm256_setzero_si256() : _mm256_setr_epi32(0, 0, 0, 255, 0, 0, 0, 255);
    // Converted codes without alpha fold the 1/255 into the x weights.
    const float fold = unit && !alpha ? 1.0f / 255 : 1.0f;
    const __m128 background = _mm_loadu_ps(s->background);
    const __m256i lanes01 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1), lanes23 = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    size_t straddling = 0;
    for (size_t x = 0; x < count; x++) {
        const double u = u0 + (double)x * du, v = v0 + (double)x * dv;
        long ix = 0, iy = 0;
        const int where = classify(u, v, s, &ix, &iy);
        if (where == OUTSIDE) {
            _mm_storeu_ps(out + 4 * x, background);
            continue;
        }
        if (where == STRADDLES) {
            edges[straddling++] = (uint32_t)x;
            continue;
        }
        const float tx = (float)(u - (double)ix), ty = (float)(v - (double)iy);
        __m256 wx[3];
        float wy[6];
        if (n == 6) {
            float w[6];
            weights(tx, s, w);
            weights(ty, s, wy);
            for (int k = 0; k < 3; k++)
                wx[k] = _mm256_set_m128(_mm_set1_ps(w[2 * k + 1] * fold), _mm_set1_ps(w[2 * k] * fold));
        } else {
            __m256 w = weights8(tx, ty, n == 4);
            w = _mm256_mul_ps(w, _mm256_setr_ps(fold, fold, fold, fold, 1, 1, 1, 1));
            wx[0] = _mm256_permutevar8x32_ps(w, lanes01);
            wx[1] = _mm256_permutevar8x32_ps(w, lanes23);
            _mm_storeu_ps(wy, _mm256_extractf128_ps(w, 1));
        }
        const uint8_t *p = s->base + (iy + lo - s->first_row) * s->stride + (ix + lo) * ch;
        __m256 sum = _mm256_setzero_ps();
        for (int j = 0; j < n; j++, p += s->stride) {
            const __m128i first = load_taps(p, ch, n == 2 ? 2 : 4, spread);
            __m256 across = _mm256_mul_ps(tap_pair(first, s, alpha, unit, opaque), wx[0]);
            if (n >= 4) across = _mm256_fmadd_ps(tap_pair(_mm_srli_si128(first, 8), s, alpha, unit, opaque), wx[1], across);
            if (n == 6) {
                const __m128i last = load_taps(p + 4 * ch, ch, 2, spread);
                across = _mm256_fmadd_ps(tap_pair(last, s, alpha, unit, opaque), wx[2], across);
            }
            sum = _mm256_fmadd_ps(across, _mm256_set1_ps(wy[j]), sum);
        }
        __m128 result = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
        // Opaque samples read alpha 255 in code units: alpha is 1.
        if (!alpha) result = _mm_blend_ps(result, _mm_set1_ps(1), 0x8);
        _mm_storeu_ps(out + 4 * x, result);
    }
    return straddling;
}

#define ROW_VARIANT(CH, TAPS, UNIT)                                                                                \
    __attribute__((target("avx2,fma"))) static size_t row_avx2_##CH##_##TAPS##_##UNIT(                            \
        float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,                     \
        const fr_affine_source *s) {                                                                               \
        return row_avx2_body(out, edges, count, u0, v0, du, dv, s, CH, TAPS, UNIT);                                \
    }
#define ROW_VARIANTS(CH)                                                                                           \
    ROW_VARIANT(CH, 2, 0) ROW_VARIANT(CH, 2, 1) ROW_VARIANT(CH, 4, 0) ROW_VARIANT(CH, 4, 1) ROW_VARIANT(CH, 6, 0) \
    ROW_VARIANT(CH, 6, 1)
ROW_VARIANTS(1)
ROW_VARIANTS(2)
ROW_VARIANTS(3)
ROW_VARIANTS(4)

typedef size_t (*row_function)(float *, uint32_t *, size_t, double, double, double, double, const fr_affine_source *);
#define ROW_TABLE(CH) {{row_avx2_##CH##_2_0, row_avx2_##CH##_2_1}, {row_avx2_##CH##_4_0, row_avx2_##CH##_4_1}, \
                       {row_avx2_##CH##_6_0, row_avx2_##CH##_6_1}}
static const row_function avx2_rows[4][3][2] = {ROW_TABLE(1), ROW_TABLE(2), ROW_TABLE(3), ROW_TABLE(4)};
#endif

size_t fr_affine8_row(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                      const fr_affine_source *source) {
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) {
        const fr_affine_source *s = source;
        return avx2_rows[s->channels - 1][s->taps / 2 - 1][s->unit != 0](out, edges, count, u0, v0, du, dv, s);
    }
#endif
    return row_portable(out, edges, count, u0, v0, du, dv, source);
}
