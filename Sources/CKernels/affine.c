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
    const long lo = s->cubic ? -1 : 0, n = s->cubic ? 4 : 2;
    *ix = (long)floor(u);
    *iy = (long)floor(v);
    const long x0 = *ix + lo, y0 = *iy + lo;
    if (x0 + n <= 0 || x0 >= s->width || y0 + n <= 0 || y0 >= s->height) return OUTSIDE;
    if (x0 >= 0 && x0 + n <= s->width && y0 >= s->first_row && y0 + n <= s->first_row + s->rows && y0 >= 0
        && y0 + n <= s->height)
        return INSIDE;
    return STRADDLES;
}

// Keys' cubic (a = −½) weights of the taps at −1, 0, 1, 2 for a position t ∈ [0, 1) past tap 0; bilinear's in the
// first two entries otherwise.
static inline void weights(float t, int cubic, float w[4]) {
    if (!cubic) {
        w[0] = 1 - t;
        w[1] = t;
        return;
    }
    const float d[4] = {1 + t, t, 1 - t, 2 - t};
    for (int k = 0; k < 4; k++) {
        const float x = d[k], x2 = x * x;
        w[k] = x > 1 ? ((-0.5f * x + 2.5f) * x - 4) * x + 2 : (1.5f * x - 2.5f) * x2 + 1;
    }
}

static size_t row_portable(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                         const fr_affine_source *s) {
    const int n = s->cubic ? 4 : 2, lo = s->cubic ? -1 : 0, ch = s->channels;
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
        float wx[4], wy[4];
        weights((float)(u - (double)ix), s->cubic, wx);
        weights((float)(v - (double)iy), s->cubic, wy);
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
        const __m256 w = _mm256_fmadd_ps(t, _mm256_setr_ps(-1, 1, 0, 0, -1, 1, 0, 0), _mm256_setr_ps(1, 0, 0, 0, 1, 0, 0, 0));
        return w;
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

// One row, specialised by the constant arguments it is inlined with: samples per pixel, bicubic or bilinear, and
// whether colour codes convert (code / 255) rather than look up.
__attribute__((target("avx2,fma"), always_inline))
static inline size_t row_avx2_body(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                                 const fr_affine_source *s, const int ch, const int cubic, const int unit) {
    const int n = cubic ? 4 : 2, lo = cubic ? -1 : 0, alpha = ch == 2 || ch == 4;
    const char Z = (char)0x80;
    __m128i spread;
    switch (ch) {
    case 1: spread = _mm_setr_epi8(0, 0, 0, Z, 1, 1, 1, Z, 2, 2, 2, Z, 3, 3, 3, Z); break;
    case 2: spread = _mm_setr_epi8(0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7); break;
    case 3: spread = _mm_setr_epi8(0, 1, 2, Z, 3, 4, 5, Z, 6, 7, 8, Z, 9, 10, 11, Z); break;
    default: spread = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); break;
    }
    // Samples without alpha read alpha code 255; alpha codes look up the table's second half.
    const __m256i opaque = alpha ? _mm256_setzero_si256() : _mm256_setr_epi32(0, 0, 0, 255, 0, 0, 0, 255);
    const __m256i alpha_entries = _mm256_setr_epi32(0, 0, 0, 256, 0, 0, 0, 256);
    // Converted codes without alpha fold the 1/255 into the weights; with alpha, each tap is scaled (its alpha
    // premultiplies its colour).
    const __m256 scale = _mm256_set1_ps(1.0f / 255);
    const __m256 ones = _mm256_set1_ps(1);
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
        __m256 w = weights8((float)(u - (double)ix), (float)(v - (double)iy), cubic);
        if (unit && !alpha) w = _mm256_mul_ps(w, _mm256_blend_ps(ones, scale, 0x0F));  // x weights only
        const __m256 wx01 = _mm256_permutevar8x32_ps(w, lanes01), wx23 = _mm256_permutevar8x32_ps(w, lanes23);
        const __m256 wy = _mm256_permute2f128_ps(w, w, 0x11);  // ty's weights in both halves
        float wys[8];
        _mm256_storeu_ps(wys, wy);
        const uint8_t *p = s->base + (iy + lo - s->first_row) * s->stride + (ix + lo) * ch;
        __m256 sum = _mm256_setzero_ps();
        for (int j = 0; j < n; j++, p += s->stride) {
            const __m128i bytes = load_taps(p, ch, n, spread);
            __m256 taps[2];
            for (int k = 0; k < (cubic ? 2 : 1); k++) {
                const __m256i codes = _mm256_or_si256(_mm256_cvtepu8_epi32(k ? _mm_srli_si128(bytes, 8) : bytes), opaque);
                __m256 value;
                if (unit) {
                    value = _mm256_cvtepi32_ps(codes);
                    if (alpha) value = _mm256_mul_ps(value, scale);
                } else {
                    value = _mm256_i32gather_ps(s->table, _mm256_add_epi32(codes, alpha_entries), 4);
                }
                if (alpha) value = _mm256_mul_ps(value, _mm256_blend_ps(_mm256_permute_ps(value, 0xFF), ones, 0x88));
                taps[k] = value;
            }
            __m256 across = _mm256_mul_ps(taps[0], wx01);
            if (cubic) across = _mm256_fmadd_ps(taps[1], wx23, across);
            sum = _mm256_fmadd_ps(across, _mm256_set1_ps(wys[j]), sum);
        }
        __m128 result = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
        // Opaque samples read alpha 255 in code units: alpha is 1.
        if (!alpha) result = _mm_blend_ps(result, _mm_set1_ps(1), 0x8);
        _mm_storeu_ps(out + 4 * x, result);
    }
    return straddling;
}

#define ROW_VARIANT(CH, CUBIC, UNIT)                                                                               \
    __attribute__((target("avx2,fma"))) static size_t row_avx2_##CH##_##CUBIC##_##UNIT(                           \
        float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,                     \
        const fr_affine_source *s) {                                                                               \
        return row_avx2_body(out, edges, count, u0, v0, du, dv, s, CH, CUBIC, UNIT);                               \
    }
#define ROW_VARIANTS(CH) ROW_VARIANT(CH, 0, 0) ROW_VARIANT(CH, 0, 1) ROW_VARIANT(CH, 1, 0) ROW_VARIANT(CH, 1, 1)
ROW_VARIANTS(1)
ROW_VARIANTS(2)
ROW_VARIANTS(3)
ROW_VARIANTS(4)

typedef size_t (*row_function)(float *, uint32_t *, size_t, double, double, double, double, const fr_affine_source *);
static const row_function avx2_rows[4][2][2] = {
    {{row_avx2_1_0_0, row_avx2_1_0_1}, {row_avx2_1_1_0, row_avx2_1_1_1}},
    {{row_avx2_2_0_0, row_avx2_2_0_1}, {row_avx2_2_1_0, row_avx2_2_1_1}},
    {{row_avx2_3_0_0, row_avx2_3_0_1}, {row_avx2_3_1_0, row_avx2_3_1_1}},
    {{row_avx2_4_0_0, row_avx2_4_0_1}, {row_avx2_4_1_0, row_avx2_4_1_1}},
};
#endif

size_t fr_affine8_row(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                      const fr_affine_source *source) {
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) {
        const fr_affine_source *s = source;
        return avx2_rows[s->channels - 1][s->cubic != 0][s->unit != 0](out, edges, count, u0, v0, du, dv, s);
    }
#endif
    return row_portable(out, edges, count, u0, v0, du, dv, source);
}
