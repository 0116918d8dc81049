#include "box_rows.h"
#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

// Rounded means by a reciprocal, cheaper than a division per sample: with m = ⌈2³² / n⌉, ⌊x · m / 2³²⌋ is ⌊x / n⌋
// exactly while x · n < 2³², and here x < 2¹⁶, n ≤ 64.
static inline uint64_t reciprocal(uint32_t n) { return ((1ull << 32) + n - 1) / n; }
static inline uint8_t rounded_mean(uint32_t sum, uint32_t n, uint64_t m) { return (uint8_t)(((sum + n / 2) * m) >> 32); }

// libwebp's lossy decode (VP8 is 4:2:0 Y'CbCr) makes RGB by its "fancy upsampling": each pixel's chroma is
// (9·a + 3·b + 3·c + d + 8) >> 4 of the four nearest stored chroma samples (a the nearest, b beside it, c above or
// below, d diagonal; samples past an edge repeat the edge), exactly in its C and SIMD forms, then BT.601 in 14-bit
// fixed point (products >> 8, 6 fractional bits, clipped). Computing the same integers here and summing them means
// the box means of a Y'CbCr decode are the box means of libwebp's RGB decode to the bit, without writing its RGB.
static inline int fr_clip_fraction6(int v) { return (v & ~16383) == 0 ? v >> 6 : (v < 0 ? 0 : 255); }
// R, G and B of one pixel, y1 being (Y × 19077) >> 8.
static inline uint16_t fancy_r(int y1, int v) { return (uint16_t)fr_clip_fraction6(y1 + ((v * 26149) >> 8) - 14234); }
static inline uint16_t fancy_g(int y1, int u, int v) {
    return (uint16_t)fr_clip_fraction6(y1 - ((u * 6419) >> 8) - ((v * 13320) >> 8) + 8708);
}
static inline uint16_t fancy_b(int y1, int u) { return (uint16_t)fr_clip_fraction6(y1 + ((u * 33050) >> 8) - 17685); }

// One stored row's chroma blended down: the nearer chroma row ×3 plus the farther one, for each chroma column, with
// the edge columns repeated once on each side (cu[0] and cu[uvw + 1]).
static inline __attribute__((always_inline)) void blend_chroma(uint16_t *restrict cu, uint16_t *restrict cv,
    const uint8_t *restrict nu, const uint8_t *restrict nv, const uint8_t *restrict fu, const uint8_t *restrict fv,
    size_t width) {
    const size_t uvw = (width + 1) / 2;
    for (size_t j = 0; j < uvw; j++) {
        cu[j + 1] = (uint16_t)(3 * nu[j] + fu[j]);
        cv[j + 1] = (uint16_t)(3 * nv[j] + fv[j]);
    }
    cu[0] = cu[1]; cv[0] = cv[1];
    cu[uvw + 1] = cu[uvw]; cv[uvw + 1] = cv[uvw];
}

// Adds stored row `yrow`'s RGB, pairs j0 on, into sums laid out as three planes (R, G, B) of `n` pixels; its chroma
// blended down in cu, cv. Each horizontal chroma is (3·this column + the neighbour on the pixel's side + 8) >> 4 of
// the blended values: 9, 3, 3 and 1 parts of the four stored samples.
static inline __attribute__((always_inline)) void fancy_pairs(uint16_t *restrict sums, size_t n,
    const uint16_t *restrict cu, const uint16_t *restrict cv, const uint8_t *restrict yrow, size_t width, size_t j0) {
    const size_t pairs = width / 2;
    uint16_t *restrict r = sums, *restrict g = sums + n, *restrict b = sums + 2 * n;
    // Blocks of 64 pairs: each pixel's codes into even and odd runs, then added in order (loops that vectorise).
    for (size_t start = j0; start < pairs; start += 64) {
        const size_t count = pairs - start < 64 ? pairs - start : 64;
        uint16_t codes[6][64];
        for (size_t k = 0; k < count; k++) {
            const size_t j = start + k;
            const int u3 = 3 * cu[j + 1], v3 = 3 * cv[j + 1];
            const int ue = (u3 + cu[j] + 8) >> 4, uo = (u3 + cu[j + 2] + 8) >> 4;
            const int ve = (v3 + cv[j] + 8) >> 4, vo = (v3 + cv[j + 2] + 8) >> 4;
            const int ye = (yrow[2 * j] * 19077) >> 8, yo = (yrow[2 * j + 1] * 19077) >> 8;
            codes[0][k] = fancy_r(ye, ve);
            codes[1][k] = fancy_g(ye, ue, ve);
            codes[2][k] = fancy_b(ye, ue);
            codes[3][k] = fancy_r(yo, vo);
            codes[4][k] = fancy_g(yo, uo, vo);
            codes[5][k] = fancy_b(yo, uo);
        }
        for (int c = 0; c < 3; c++) {
            uint16_t *restrict sum = sums + (size_t)c * n + 2 * start;
            for (size_t k = 0; k < count; k++) {
                sum[2 * k] += codes[c][k];
                sum[2 * k + 1] += codes[3 + c][k];
            }
        }
    }
    if (width & 1) {  // the last pixel is an even one without a partner
        const size_t j = pairs;
        const int u = (3 * cu[j + 1] + cu[j] + 8) >> 4, v = (3 * cv[j + 1] + cv[j] + 8) >> 4;
        const int y = (yrow[2 * j] * 19077) >> 8;
        r[2 * j] += fancy_r(y, v);
        g[2 * j] += fancy_g(y, u, v);
        b[2 * j] += fancy_b(y, u);
    }
}

static void fancy_row_portable(uint16_t *sums, size_t n, uint16_t *cu, uint16_t *cv, const uint8_t *yrow,
    const uint8_t *nu, const uint8_t *nv, const uint8_t *fu, const uint8_t *fv, size_t width) {
    blend_chroma(cu, cv, nu, nv, fu, fv, width);
    fancy_pairs(sums, n, cu, cv, yrow, width, 0);
}

#if defined(__x86_64__) || defined(__i386__)
// Sixteen pairs at a time in 16-bit lanes, as libwebp's SIMD conversion computes them: a product's high half of
// (value << 8) × coefficient is (value × coefficient) >> 8; R and G stay within signed 16 bits, B is made with
// unsigned saturating arithmetic (its sum reaches 51924); each clipped by shifting out 6 bits and clamping to 255.
__attribute__((target("avx2")))
static void fancy_row_avx2(uint16_t *sums, size_t n, uint16_t *cu, uint16_t *cv, const uint8_t *yrow,
    const uint8_t *nu, const uint8_t *nv, const uint8_t *fu, const uint8_t *fv, size_t width) {
    blend_chroma(cu, cv, nu, nv, fu, fv, width);
    const size_t pairs = width / 2, whole = pairs / 16 * 16;
    const __m256i eight = _mm256_set1_epi16(8), top = _mm256_set1_epi16(255), zero = _mm256_setzero_si256();
    const __m256i high = _mm256_set1_epi16((short)0xFF00);
    const __m256i kY = _mm256_set1_epi16(19077), kRV = _mm256_set1_epi16(26149), kR = _mm256_set1_epi16(14234);
    const __m256i kGU = _mm256_set1_epi16(6419), kGV = _mm256_set1_epi16(13320), kG = _mm256_set1_epi16(8708);
    const __m256i kBU = _mm256_set1_epi16((short)33050), kB = _mm256_set1_epi16(17685);
    for (size_t j = 0; j < whole; j += 16) {
        const __m256i ul = _mm256_loadu_si256((const __m256i *)(cu + j)), um = _mm256_loadu_si256((const __m256i *)(cu + j + 1));
        const __m256i ur = _mm256_loadu_si256((const __m256i *)(cu + j + 2));
        const __m256i vl = _mm256_loadu_si256((const __m256i *)(cv + j)), vm = _mm256_loadu_si256((const __m256i *)(cv + j + 1));
        const __m256i vr = _mm256_loadu_si256((const __m256i *)(cv + j + 2));
        const __m256i u3 = _mm256_add_epi16(_mm256_add_epi16(um, _mm256_add_epi16(um, um)), eight);
        const __m256i v3 = _mm256_add_epi16(_mm256_add_epi16(vm, _mm256_add_epi16(vm, vm)), eight);
        // Chroma codes already shifted into the high byte: ((3m + side + 8) >> 4) << 8.
        const __m256i ue = _mm256_slli_epi16(_mm256_srli_epi16(_mm256_add_epi16(u3, ul), 4), 8);
        const __m256i uo = _mm256_slli_epi16(_mm256_srli_epi16(_mm256_add_epi16(u3, ur), 4), 8);
        const __m256i ve = _mm256_slli_epi16(_mm256_srli_epi16(_mm256_add_epi16(v3, vl), 4), 8);
        const __m256i vo = _mm256_slli_epi16(_mm256_srli_epi16(_mm256_add_epi16(v3, vr), 4), 8);
        const __m256i y = _mm256_loadu_si256((const __m256i *)(yrow + 2 * j));  // even pixels low bytes, odd high
        const __m256i ys[2] = {_mm256_mulhi_epu16(_mm256_slli_epi16(y, 8), kY), _mm256_mulhi_epu16(_mm256_and_si256(y, high), kY)};
        const __m256i us[2] = {ue, uo}, vs[2] = {ve, vo};
        __m256i codes[2][3];
        for (int side = 0; side < 2; side++) {
            const __m256i y1 = ys[side];
            const __m256i r = _mm256_add_epi16(_mm256_sub_epi16(y1, kR), _mm256_mulhi_epu16(vs[side], kRV));
            const __m256i g = _mm256_sub_epi16(_mm256_add_epi16(y1, kG),
                                               _mm256_add_epi16(_mm256_mulhi_epu16(us[side], kGU), _mm256_mulhi_epu16(vs[side], kGV)));
            const __m256i b = _mm256_subs_epu16(_mm256_adds_epu16(_mm256_mulhi_epu16(us[side], kBU), y1), kB);
            codes[side][0] = _mm256_min_epi16(_mm256_max_epi16(_mm256_srai_epi16(r, 6), zero), top);
            codes[side][1] = _mm256_min_epi16(_mm256_max_epi16(_mm256_srai_epi16(g, 6), zero), top);
            codes[side][2] = _mm256_min_epu16(_mm256_srli_epi16(b, 6), top);
        }
        // Even and odd pixels back in order (unpacking works within 128-bit halves), added to the sums.
        for (int c = 0; c < 3; c++) {
            const __m256i lo = _mm256_unpacklo_epi16(codes[0][c], codes[1][c]), hi = _mm256_unpackhi_epi16(codes[0][c], codes[1][c]);
            __m256i *sum = (__m256i *)(sums + (size_t)c * n + 2 * j);
            _mm256_storeu_si256(sum, _mm256_add_epi16(_mm256_loadu_si256(sum), _mm256_permute2x128_si256(lo, hi, 0x20)));
            _mm256_storeu_si256(sum + 1, _mm256_add_epi16(_mm256_loadu_si256(sum + 1), _mm256_permute2x128_si256(lo, hi, 0x31)));
        }
    }
    fancy_pairs(sums, n, cu, cv, yrow, width, whole);
}
#endif

typedef void (*fancy_row_fn)(uint16_t *, size_t, uint16_t *, uint16_t *, const uint8_t *, const uint8_t *,
                             const uint8_t *, const uint8_t *, const uint8_t *, size_t);

// The means of each f columns of the row sums (three planes of `n`), RGB interleaved into `out`; the boxes of a
// constant f are summed by loops the compiler unrolls, the last box partial where f does not divide the width.
#define FR_WHOLE_BOXES(F) \
    for (; c < whole_boxes; c++) { \
        uint32_t r = 0, g = 0, b = 0; \
        for (size_t k = 0; k < (F); k++) { r += red[c * (F) + k]; g += green[c * (F) + k]; b += blue[c * (F) + k]; } \
        out[c * 3] = rounded_mean(r, whole, m); \
        out[c * 3 + 1] = rounded_mean(g, whole, m); \
        out[c * 3 + 2] = rounded_mean(b, whole, m); \
    }

static inline void box_columns(uint8_t *out, const uint16_t *sums, size_t n, size_t width, size_t f, size_t rows) {
    const uint16_t *red = sums, *green = sums + n, *blue = sums + 2 * n;
    const size_t whole_boxes = width / f, columns = (width + f - 1) / f;
    const uint32_t whole = (uint32_t)(rows * f);
    const uint64_t m = reciprocal(whole);
    size_t c = 0;
    switch (f) {
    case 2: FR_WHOLE_BOXES(2) break;
    case 3: FR_WHOLE_BOXES(3) break;
    case 4: FR_WHOLE_BOXES(4) break;
    default: FR_WHOLE_BOXES(f) break;
    }
    for (; c < columns; c++) {  // the partial box
        const size_t x0 = c * f, x1 = width;
        uint32_t r = 0, g = 0, b = 0;
        for (size_t x = x0; x < x1; x++) { r += red[x]; g += green[x]; b += blue[x]; }
        const uint32_t count = (uint32_t)(rows * (x1 - x0));
        const uint64_t mc = reciprocal(count);
        out[c * 3] = rounded_mean(r, count, mc);
        out[c * 3 + 1] = rounded_mean(g, count, mc);
        out[c * 3 + 2] = rounded_mean(b, count, mc);
    }
}
#undef FR_WHOLE_BOXES

static void fancy_box_row(uint8_t *out, const uint8_t *y, size_t y_stride, const uint8_t *u, const uint8_t *v,
    size_t uv_stride, size_t width, size_t height, size_t f, size_t row, uint16_t *sums, uint16_t *cu, uint16_t *cv,
    fancy_row_fn add_row) {
    const size_t n = width + 1, chroma_rows = (height + 1) / 2, columns = (width + f - 1) / f;
    const size_t y0 = row * f, y1 = y0 + f < height ? y0 + f : height;
    memset(sums, 0, 3 * n * sizeof(uint16_t));
    for (size_t line = y0; line < y1; line++) {
        // Row 2k−1 lies nearer chroma row k−1, row 2k nearer k; the first and last rows have one chroma row.
        const size_t near = line / 2;
        size_t far = line & 1 ? line / 2 + 1 : (line ? line / 2 - 1 : 0);
        if (far >= chroma_rows) far = chroma_rows - 1;
        add_row(sums, n, cu, cv, y + line * y_stride, u + near * uv_stride, v + near * uv_stride,
                u + far * uv_stride, v + far * uv_stride, width);
    }
    box_columns(out, sums, n, width, f, y1 - y0);
}

void fr_yuv420_fancy_box_row(uint8_t *out, const uint8_t *y, size_t y_stride, const uint8_t *u, const uint8_t *v,
                             size_t uv_stride, size_t width, size_t height, size_t f, size_t row) {
    const size_t n = width + 1, uvw = (width + 1) / 2 + 2;
    uint16_t stack[3 * 4097 + 2 * 2051];
    const int fits = 3 * n + 2 * uvw <= sizeof stack / sizeof stack[0];
    uint16_t *sums = fits ? stack : malloc((3 * n + 2 * uvw) * sizeof(uint16_t));
    if (!sums) return;
    uint16_t *cu = sums + 3 * n, *cv = cu + uvw;
    fancy_row_fn add_row = fancy_row_portable;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) add_row = fancy_row_avx2;
#endif
    fancy_box_row(out, y, y_stride, u, v, uv_stride, width, height, f, row, sums, cu, cv, add_row);
    if (!fits) free(sums);
}
