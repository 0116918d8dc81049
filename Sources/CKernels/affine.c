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

// The shuffle that spreads taps of `ch` samples each to four bytes a tap (R, G, B, A; grey repeated; absent alpha
// zero), as `load_taps` and `tap_pair` read them.
__attribute__((target("avx2,fma"), always_inline))
static inline __m128i spread_taps(const int ch) {
    const char Z = (char)0x80;
    switch (ch) {
    case 1: return _mm_setr_epi8(0, 0, 0, Z, 1, 1, 1, Z, 2, 2, 2, Z, 3, 3, 3, Z);
    case 2: return _mm_setr_epi8(0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7);
    case 3: return _mm_setr_epi8(0, 1, 2, Z, 3, 4, 5, Z, 6, 7, 8, Z, 9, 10, 11, Z);
    default: return _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    }
}

// Two taps' working values (eight floats, RGBA each) from their spread bytes (the low eight), premultiplied where
// there is alpha; converted codes stay in code units unless alpha needs them as fractions. Without alpha the alpha
// lanes mean nothing: the pixel sets its alpha to 1.
__attribute__((target("avx2,fma"), always_inline))
static inline __m256 tap_pair(__m128i bytes, const fr_affine_source *s, const int alpha, const int unit) {
    const __m256i codes = _mm256_cvtepu8_epi32(bytes);
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
    const __m128i spread = spread_taps(ch);
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
            __m256 across = _mm256_mul_ps(tap_pair(first, s, alpha, unit), wx[0]);
            if (n >= 4) across = _mm256_fmadd_ps(tap_pair(_mm_srli_si128(first, 8), s, alpha, unit), wx[1], across);
            if (n == 6) {
                const __m128i last = load_taps(p + 4 * ch, ch, 2, spread);
                across = _mm256_fmadd_ps(tap_pair(last, s, alpha, unit), wx[2], across);
            }
            sum = _mm256_fmadd_ps(across, _mm256_set1_ps(wy[j]), sum);
        }
        __m128 result = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
        // Opaque samples: alpha is 1.
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

// MARK: - Projective maps

// The kernel's value at distance t (input pixels at scale 1), as ResampleKernel.weight defines it.
static inline float kernel_weight(int taps, float t) {
    t = fabsf(t);
    if (taps == 2) return t < 1 ? 1 - t : 0;
    if (taps == 4) {
        if (t < 1) return (1.5f * t - 2.5f) * t * t + 1;
        return t < 2 ? ((-0.5f * t + 2.5f) * t - 4) * t + 2 : 0;
    }
    if (t < 1e-9f) return 1;
    if (t >= 3) return 0;
    const float pt = 3.14159265358979f * t;
    return 3 * sinf(pt) * sinf(pt / 3) / (pt * pt);
}

enum { MAX_TAPS = 112 };  // 2 · 3 (Lanczos-3's radius) · 16 (the widest) + 2, rounded up

// The taps of one axis around u (pixel-centre units) with the kernel widened by `scale`: the first index and the
// count (as WarpTaps.at finds them).
__attribute__((always_inline)) static inline int axis_span(double u, double scale, int taps, long *first) {
    const double support = (double)(taps / 2) * scale;
    const long lo = (long)ceil(u - support), hi = (long)floor(u + support);
    *first = lo;
    const long n = hi - lo + 1;
    return n <= 0 ? 0 : n > MAX_TAPS ? MAX_TAPS : (int)n;
}

// Their weights, normalised, times `fold`.
static inline void axis_weights(double u, long first, int n, float scale, int taps, float fold, float *w) {
    float sum = 0;
    const float inverse = 1.0f / scale;
    for (int k = 0; k < n; k++) {
        w[k] = kernel_weight(taps, (float)((double)(first + k) - u) * inverse);
        sum += w[k];
    }
    const float norm = sum != 0 ? fold / sum : fold;
    for (int k = 0; k < n; k++) w[k] *= norm;
}

typedef float v4f __attribute__((vector_size(16)));

// Where one output pixel of a projective map reads: its position (pixel-centre units), its kernel widening and
// the span of its taps on each axis.
typedef struct {
    double u, v;
    float sx, sy;
    long fx, fy;
    int nx, ny;
    /// 1 / sx and 1 / sy (set by locate4, for the AVX2 pixel).
    float rx, ry;
} projective_pixel;

// OUTSIDE (every tap off the input), INSIDE (every tap in the held rows) or STRADDLES, for a pixel reading
// around (px, py) (corner origin) with its kernel widened by sx, sy before their clamp.
__attribute__((always_inline)) static inline int place(double px, double py, double sx, double sy,
                                                       const fr_projective_map *map, const fr_affine_source *s,
                                                       projective_pixel *q) {
    sx = sx < 1 ? 1 : sx > map->max_widening ? map->max_widening : sx;
    sy = sy < 1 ? 1 : sy > map->max_widening ? map->max_widening : sy;
    q->u = px - 0.5;
    q->v = py - 0.5;
    q->sx = (float)sx;
    q->sy = (float)sy;
    q->nx = axis_span(q->u, sx, s->taps, &q->fx);
    q->ny = axis_span(q->v, sy, s->taps, &q->fy);
    if (q->nx == 0 || q->ny == 0 || q->fx + q->nx <= 0 || q->fx >= s->width || q->fy + q->ny <= 0 || q->fy >= s->height)
        return OUTSIDE;
    if (q->fx < 0 || q->fx + q->nx > s->width || q->fy < 0 || q->fy + q->ny > s->height || q->fy < s->first_row
        || q->fy + q->ny > (long)s->first_row + s->rows)
        return STRADDLES;
    return INSIDE;
}

// As `place`, for the pixel centred at (cx, y): OUTSIDE also behind the view or beyond any input.
__attribute__((always_inline)) static inline int locate(double cx, double y, const fr_projective_map *map,
                                                        const fr_affine_source *s, projective_pixel *q) {
    const double *m = map->m;
    const double w = m[6] * cx + m[7] * y + m[8];
    if (!(w > 1e-12)) return OUTSIDE;
    const double inverse = 1 / w;
    const double px = (m[0] * cx + m[1] * y + m[2]) * inverse, py = (m[3] * cx + m[4] * y + m[5]) * inverse;
    if (!(fabs(px) < 1e12 && fabs(py) < 1e12)) return OUTSIDE;
    const double xx = (m[0] - m[6] * px) * inverse, xy = (m[1] - m[7] * px) * inverse;
    const double yx = (m[3] - m[6] * py) * inverse, yy = (m[4] - m[7] * py) * inverse;
    return place(px, py, sqrt(xx * xx + xy * xy), sqrt(yx * yx + yy * yy), map, s, q);
}

// One pixel whose taps all lie in the held rows, weights in float from the kernel's definition.
static void portable_pixel(float *o, const projective_pixel *q, const fr_affine_source *s) {
    const int ch = s->channels, alpha = ch == 2 || ch == 4, convert = s->unit && !alpha;
    const float *table = s->table;
    float wx[MAX_TAPS], wy[MAX_TAPS];
    axis_weights(q->u, q->fx, q->nx, q->sx, s->taps, convert ? 1.0f / 255 : 1.0f, wx);
    axis_weights(q->v, q->fy, q->ny, q->sy, s->taps, 1.0f, wy);
    v4f sum = {0, 0, 0, 0};
    for (int j = 0; j < q->ny; j++) {
        const uint8_t *p = s->base + (q->fy + j - s->first_row) * s->stride + q->fx * ch;
        v4f across = {0, 0, 0, 0};
        for (int i = 0; i < q->nx; i++, p += ch) {
            v4f v;
            switch (ch) {
            case 1: {
                const float g = convert ? (float)p[0] : table[p[0]];
                v = (v4f){g, g, g, 1};
                break;
            }
            case 2: {
                const float a = table[256 + p[1]], g = table[p[0]] * a;
                v = (v4f){g, g, g, a};
                break;
            }
            case 3:
                v = convert ? (v4f){(float)p[0], (float)p[1], (float)p[2], 255}
                            : (v4f){table[p[0]], table[p[1]], table[p[2]], 1};
                break;
            default: {
                const float a = table[256 + p[3]];
                v = (v4f){table[p[0]] * a, table[p[1]] * a, table[p[2]] * a, a};
            }
            }
            across += v * wx[i];
        }
        sum += across * wy[j];
    }
    // Opaque samples: alpha is 1 (converted codes summed 255 · 1/255 = 1 up to rounding).
    if (!alpha) sum[3] = 1;
    memcpy(o, &sum, sizeof sum);
}

static size_t projective_portable(float *out, uint32_t *edges, size_t count, double y, const fr_projective_map *map,
                                  const fr_affine_source *s) {
    size_t straddling = 0;
    projective_pixel q;
    for (size_t x = 0; x < count; x++) {
        switch (locate((double)x + 0.5, y, map, s, &q)) {
        case OUTSIDE: memcpy(out + 4 * x, s->background, 4 * sizeof(float)); break;
        case STRADDLES: edges[straddling++] = (uint32_t)x; break;
        default: portable_pixel(out + 4 * x, &q, s);
        }
    }
    return straddling;
}

#if defined(__x86_64__) || defined(__i386__)
// Bilinear's or Keys' weights of up to 8 taps at first + k − u (k = 0…7), widened by 1 / `inverse`, not
// normalised (the pixel divides by both axes' sums once, at the end); lanes from `count` on are zero.
__attribute__((target("avx2,fma"), always_inline))
static inline __m256 widened_weights8(double u, long first, int count, float inverse, int cubic) {
    const __m256 k = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 start = _mm256_set1_ps((float)((double)first - u));
    const __m256 t = _mm256_andnot_ps(_mm256_set1_ps(-0.0f),
                                      _mm256_mul_ps(_mm256_add_ps(start, k), _mm256_set1_ps(inverse)));
    __m256 w;
    if (cubic) {
        const __m256 near = _mm256_fmadd_ps(_mm256_fmsub_ps(_mm256_set1_ps(1.5f), t, _mm256_set1_ps(2.5f)),
                                            _mm256_mul_ps(t, t), _mm256_set1_ps(1));
        const __m256 far = _mm256_fmadd_ps(
            _mm256_fmsub_ps(_mm256_fmadd_ps(_mm256_set1_ps(-0.5f), t, _mm256_set1_ps(2.5f)), t, _mm256_set1_ps(4)), t,
            _mm256_set1_ps(2));
        w = _mm256_blendv_ps(near, far, _mm256_cmp_ps(t, _mm256_set1_ps(1), _CMP_GE_OQ));
        w = _mm256_and_ps(w, _mm256_cmp_ps(t, _mm256_set1_ps(2), _CMP_LT_OQ));
    } else {
        w = _mm256_max_ps(_mm256_sub_ps(_mm256_set1_ps(1), t), _mm256_setzero_ps());
    }
    return _mm256_and_ps(w, _mm256_cmp_ps(k, _mm256_set1_ps((float)count), _CMP_LT_OQ));
}

// The sum of the eight lanes.
__attribute__((target("avx2,fma"), always_inline))
static inline float lane_sum(__m256 w) {
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(w), _mm256_extractf128_ps(w, 1));
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    h = _mm_add_ss(h, _mm_movehdup_ps(h));
    return _mm_cvtss_f32(h);
}

// Four pixels located at once, as `locate` locates one (their divisions and square roots overlap, where one pixel
// at a time waits on each; the spans are whole numbers in doubles, so they come out exactly as `locate`'s):
// pixels x0 … x0 + 3 of the row at height y, into q[0…3]. Returns a bit per pixel whose taps all lie in the held
// rows (INSIDE); `straddles` gets a bit per STRADDLES pixel; the rest are OUTSIDE.
__attribute__((target("avx2,fma"), always_inline))
static inline int locate4(double x0, double y, const fr_projective_map *map, const fr_affine_source *s,
                          projective_pixel q[4], int *straddles) {
    const double *m = map->m;
    const __m256d one = _mm256_set1_pd(1), cx = _mm256_add_pd(_mm256_set1_pd(x0 + 0.5), _mm256_setr_pd(0, 1, 2, 3));
    const __m256d w = _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(m[6]), cx), _mm256_set1_pd(m[7] * y + m[8]));
    const __m256d inverse = _mm256_div_pd(one, w);
    const __m256d px = _mm256_mul_pd(
        _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(m[0]), cx), _mm256_set1_pd(m[1] * y + m[2])), inverse);
    const __m256d py = _mm256_mul_pd(
        _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(m[3]), cx), _mm256_set1_pd(m[4] * y + m[5])), inverse);
    const __m256d xx = _mm256_mul_pd(_mm256_fnmadd_pd(_mm256_set1_pd(m[6]), px, _mm256_set1_pd(m[0])), inverse);
    const __m256d xy = _mm256_mul_pd(_mm256_fnmadd_pd(_mm256_set1_pd(m[7]), px, _mm256_set1_pd(m[1])), inverse);
    const __m256d yx = _mm256_mul_pd(_mm256_fnmadd_pd(_mm256_set1_pd(m[6]), py, _mm256_set1_pd(m[3])), inverse);
    const __m256d yy = _mm256_mul_pd(_mm256_fnmadd_pd(_mm256_set1_pd(m[7]), py, _mm256_set1_pd(m[4])), inverse);
    const __m256d widest = _mm256_set1_pd(map->max_widening);
    const __m256d lx = _mm256_sqrt_pd(_mm256_fmadd_pd(xx, xx, _mm256_mul_pd(xy, xy)));
    const __m256d ly = _mm256_sqrt_pd(_mm256_fmadd_pd(yx, yx, _mm256_mul_pd(yy, yy)));
    const __m256d sx = _mm256_min_pd(_mm256_max_pd(lx, one), widest);
    const __m256d sy = _mm256_min_pd(_mm256_max_pd(ly, one), widest);
    // In front of the view and within reach of any input; positions past it would not fit the spans' arithmetic.
    const __m256d sign = _mm256_set1_pd(-0.0), reach = _mm256_set1_pd(1e12);
    const __m256d valid = _mm256_and_pd(
        _mm256_cmp_pd(w, _mm256_set1_pd(1e-12), _CMP_GT_OQ),
        _mm256_and_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, px), reach, _CMP_LT_OQ),
                      _mm256_cmp_pd(_mm256_andnot_pd(sign, py), reach, _CMP_LT_OQ)));
    const __m256d u = _mm256_sub_pd(px, _mm256_set1_pd(0.5)), v = _mm256_sub_pd(py, _mm256_set1_pd(0.5));
    // Each axis's span as axis_span finds it: the first tap and the count, clamped to 0…MAX_TAPS.
    const __m256d half = _mm256_set1_pd((double)(s->taps / 2)), zero = _mm256_setzero_pd();
    const __m256d most = _mm256_set1_pd(MAX_TAPS);
    const __m256d sx_support = _mm256_mul_pd(half, sx), sy_support = _mm256_mul_pd(half, sy);
    const __m256d fx = _mm256_ceil_pd(_mm256_sub_pd(u, sx_support)), fy = _mm256_ceil_pd(_mm256_sub_pd(v, sy_support));
    const __m256d lastx = _mm256_floor_pd(_mm256_add_pd(u, sx_support));
    const __m256d lasty = _mm256_floor_pd(_mm256_add_pd(v, sy_support));
    const __m256d nx = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(_mm256_sub_pd(lastx, fx), one), zero), most);
    const __m256d ny = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(_mm256_sub_pd(lasty, fy), one), zero), most);
    const __m256d width = _mm256_set1_pd(s->width), height = _mm256_set1_pd(s->height);
    const __m256d ex = _mm256_add_pd(fx, nx), ey = _mm256_add_pd(fy, ny);
    // Some tap on the input: both counts nonzero, each span meeting its axis.
    const __m256d meets = _mm256_and_pd(
        _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(nx, zero, _CMP_GT_OQ), _mm256_cmp_pd(ny, zero, _CMP_GT_OQ)),
                      _mm256_and_pd(_mm256_cmp_pd(ex, zero, _CMP_GT_OQ), _mm256_cmp_pd(fx, width, _CMP_LT_OQ))),
        _mm256_and_pd(_mm256_cmp_pd(ey, zero, _CMP_GT_OQ), _mm256_cmp_pd(fy, height, _CMP_LT_OQ)));
    // Every tap in the input and in the held rows.
    const __m256d first = _mm256_set1_pd(s->first_row), last = _mm256_set1_pd((double)s->first_row + s->rows);
    const __m256d within = _mm256_and_pd(
        _mm256_and_pd(_mm256_cmp_pd(fx, zero, _CMP_GE_OQ), _mm256_cmp_pd(ex, width, _CMP_LE_OQ)),
        _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(fy, _mm256_max_pd(zero, first), _CMP_GE_OQ),
                                    _mm256_cmp_pd(ey, _mm256_min_pd(height, last), _CMP_LE_OQ)),
                      _mm256_cmp_pd(ey, height, _CMP_LE_OQ)));
    const int some = _mm256_movemask_pd(_mm256_and_pd(valid, meets)), all = _mm256_movemask_pd(within);
    *straddles = some & ~all;
    const int inside = some & all;
    if (inside) {
        double ud[4], vd[4], fxd[4], fyd[4], nxd[4], nyd[4];
        float sxf[4], syf[4], rxf[4], ryf[4];
        const __m128 sx4 = _mm256_cvtpd_ps(sx), sy4 = _mm256_cvtpd_ps(sy);
        _mm_storeu_ps(rxf, _mm_div_ps(_mm_set1_ps(1), sx4));
        _mm_storeu_ps(ryf, _mm_div_ps(_mm_set1_ps(1), sy4));
        _mm256_storeu_pd(ud, u);
        _mm256_storeu_pd(vd, v);
        _mm256_storeu_pd(fxd, fx);
        _mm256_storeu_pd(fyd, fy);
        _mm256_storeu_pd(nxd, nx);
        _mm256_storeu_pd(nyd, ny);
        _mm_storeu_ps(sxf, sx4);
        _mm_storeu_ps(syf, sy4);
        for (int k = 0; k < 4; k++) {
            if (inside >> k & 1)
                q[k] = (projective_pixel){.u = ud[k], .v = vd[k], .sx = sxf[k], .sy = syf[k], .fx = (long)fxd[k],
                                          .fy = (long)fyd[k], .nx = (int)nxd[k], .ny = (int)nyd[k], .rx = rxf[k],
                                          .ry = ryf[k]};
        }
    }
    return inside;
}

// One pixel's weighted sum (not normalised) over `pairs` pairs of taps a row, each pair read as eight bytes: the
// caller knows the last read ends inside the held rows; bytes past the pixel's taps meet weight 0.
__attribute__((target("avx2,fma"), always_inline))
static inline __m256 pairs_sum(const uint8_t *row, ptrdiff_t stride, int ny, const __m256 pairs[4], const float *wy,
                               const int ch, const int count, const fr_affine_source *s, const int alpha,
                               const int unit, __m128i spread) {
    __m256 sum = _mm256_setzero_ps();
    for (int j = 0; j < ny; j++, row += stride) {
        __m256 across = _mm256_mul_ps(
            tap_pair(_mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)row), spread), s, alpha, unit), pairs[0]);
        for (int k = 1; k < count; k++) {
            const __m128i bytes = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)(row + 2 * k * ch)), spread);
            across = _mm256_fmadd_ps(tap_pair(bytes, s, alpha, unit), pairs[k], across);
        }
        sum = _mm256_fmadd_ps(across, _mm256_set1_ps(wy[j]), sum);
    }
    return sum;
}

// The row loop, specialised by the constant arguments it is inlined with (samples per pixel, converted codes):
// bilinear and bicubic pixels of at most 8 taps a side read pairs of taps as the affine loop reads its windows;
// the rest take the portable pixel.
__attribute__((target("avx2,fma"), always_inline))
static inline size_t projective_avx2_body(float *out, uint32_t *edges, size_t count, double y,
                                          const fr_projective_map *map, const fr_affine_source *s, const int ch,
                                          const int unit) {
    const int alpha = ch == 2 || ch == 4, cubic = s->taps == 4, vector = s->taps <= 4;
    const float fold = unit && !alpha ? 1.0f / 255 : 1.0f;
    const __m128i spread = spread_taps(ch);
    // The end of the held samples: eight-byte reads that end before it stay inside them.
    const uint8_t *end = s->base + (ptrdiff_t)(s->rows - 1) * s->stride + (ptrdiff_t)s->width * ch;
    size_t straddling = 0;
    float wy[8];
    projective_pixel located[4];
    for (size_t x0 = 0; x0 < count; x0 += 4) {
        int straddles;
        const int inside = locate4((double)x0, y, map, s, located, &straddles);
        const int lanes = count - x0 < 4 ? (int)(count - x0) : 4;
        for (int lane = 0; lane < lanes; lane++) {
            const size_t x = x0 + (size_t)lane;
            float *o = out + 4 * x;
            if (straddles >> lane & 1) {
                edges[straddling++] = (uint32_t)x;
                continue;
            }
            if (!(inside >> lane & 1)) {
                memcpy(o, s->background, 4 * sizeof(float));
                continue;
            }
            const projective_pixel q = located[lane];
            if (!vector || q.nx > 8 || q.ny > 8) {
                portable_pixel(o, &q, s);
                continue;
            }
            // The x weights of each pair of taps, (w[2k] × 4, w[2k + 1] × 4), made once for every row; lanes past
            // the last tap weigh 0.
            const __m256 xs = widened_weights8(q.u, q.fx, q.nx, q.rx, cubic);
            const __m256 pairs[4] = {
                _mm256_permutevar8x32_ps(xs, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1)),
                _mm256_permutevar8x32_ps(xs, _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3)),
                _mm256_permutevar8x32_ps(xs, _mm256_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5)),
                _mm256_permutevar8x32_ps(xs, _mm256_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7))};
            const __m256 ys = widened_weights8(q.v, q.fy, q.ny, q.ry, cubic);
            _mm256_storeu_ps(wy, ys);
            const int whole = q.nx / 2, odd = q.nx & 1, count2 = whole + odd;
            const uint8_t *row = s->base + (q.fy - s->first_row) * s->stride + q.fx * ch;
            __m256 sum;
            if (s->stride > 0 && row + (q.ny - 1) * s->stride + 2 * (count2 - 1) * ch + 8 <= end) {
                // Most pixels: whole eight-byte reads, the pair count fixed so the loop unrolls.
                switch (count2) {
                case 1: sum = pairs_sum(row, s->stride, q.ny, pairs, wy, ch, 1, s, alpha, unit, spread); break;
                case 2: sum = pairs_sum(row, s->stride, q.ny, pairs, wy, ch, 2, s, alpha, unit, spread); break;
                case 3: sum = pairs_sum(row, s->stride, q.ny, pairs, wy, ch, 3, s, alpha, unit, spread); break;
                default: sum = pairs_sum(row, s->stride, q.ny, pairs, wy, ch, 4, s, alpha, unit, spread);
                }
            } else {
                // Near the end of the held samples: read exactly the taps' bytes.
                sum = _mm256_setzero_ps();
                for (int j = 0; j < q.ny; j++, row += s->stride) {
                    const uint8_t *p = row;
                    __m256 across = _mm256_setzero_ps();
                    for (int k = 0; k < whole; k++, p += 2 * ch) {
                        uint64_t word = 0;
                        memcpy(&word, p, (size_t)(2 * ch));
                        const __m128i bytes = _mm_shuffle_epi8(_mm_cvtsi64_si128((long long)word), spread);
                        across = _mm256_fmadd_ps(tap_pair(bytes, s, alpha, unit), pairs[k], across);
                    }
                    if (odd) {
                        uint32_t word = 0;
                        memcpy(&word, p, (size_t)ch);
                        const __m128i bytes = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)word), spread);
                        across = _mm256_fmadd_ps(tap_pair(bytes, s, alpha, unit), pairs[whole], across);
                    }
                    sum = _mm256_fmadd_ps(across, _mm256_set1_ps(wy[j]), sum);
                }
            }
            // Normalised once: both axes' sums (never 0: the centre tap weighs most), and converted codes' 1/255.
            const float total = lane_sum(xs) * lane_sum(ys);
            __m128 result = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
            result = _mm_mul_ps(result, _mm_set1_ps(total != 0 ? fold / total : fold));
            if (!alpha) result = _mm_blend_ps(result, _mm_set1_ps(1), 0x8);
            _mm_storeu_ps(o, result);
        }
    }
    return straddling;
}

#define PROJECTIVE_VARIANT(CH, UNIT)                                                                               \
    __attribute__((target("avx2,fma"))) static size_t projective_avx2_##CH##_##UNIT(                              \
        float *out, uint32_t *edges, size_t count, double y, const fr_projective_map *map,                         \
        const fr_affine_source *s) {                                                                               \
        return projective_avx2_body(out, edges, count, y, map, s, CH, UNIT);                                       \
    }
PROJECTIVE_VARIANT(1, 0) PROJECTIVE_VARIANT(1, 1) PROJECTIVE_VARIANT(2, 0) PROJECTIVE_VARIANT(2, 1)
PROJECTIVE_VARIANT(3, 0) PROJECTIVE_VARIANT(3, 1) PROJECTIVE_VARIANT(4, 0) PROJECTIVE_VARIANT(4, 1)
typedef size_t (*projective_function)(float *, uint32_t *, size_t, double, const fr_projective_map *,
                                      const fr_affine_source *);
static const projective_function projective_rows[4][2] = {
    {projective_avx2_1_0, projective_avx2_1_1}, {projective_avx2_2_0, projective_avx2_2_1},
    {projective_avx2_3_0, projective_avx2_3_1}, {projective_avx2_4_0, projective_avx2_4_1}};
#endif

size_t fr_projective8_row(float *out, uint32_t *edges, size_t count, double y, const fr_projective_map *map,
                          const fr_affine_source *s) {
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) return projective_rows[s->channels - 1][s->unit != 0](out, edges, count, y, map, s);
#endif
    return projective_portable(out, edges, count, y, map, s);
}
