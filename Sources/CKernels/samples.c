#include "samples.h"
#include <string.h>

// One loop per pixel size: memcpy of a constant size becomes one or two moves.
#define REMAP_LOOP(N)                                                                                              \
    static void remap_##N(uint8_t *dst, ptrdiff_t dst_stride, size_t width, size_t rows, const uint8_t *origin,    \
                          ptrdiff_t dx, ptrdiff_t dy) {                                                            \
        ptrdiff_t adx = dx < 0 ? -dx : dx;                                                                         \
        size_t tile = adx > 64 ? 32 : width;                                                                       \
        for (size_t x0 = 0; x0 < width; x0 += tile) {                                                              \
            size_t x1 = x0 + tile < width ? x0 + tile : width;                                                     \
            for (size_t r = 0; r < rows; r++) {                                                                    \
                uint8_t *out = dst + r * dst_stride + x0 * N;                                                      \
                const uint8_t *in = origin + (ptrdiff_t)r * dy + (ptrdiff_t)x0 * dx;                               \
                for (size_t x = x0; x < x1; x++, out += N, in += dx) memcpy(out, in, N);                           \
            }                                                                                                      \
        }                                                                                                          \
    }
REMAP_LOOP(1)
REMAP_LOOP(2)
REMAP_LOOP(3)
REMAP_LOOP(4)
REMAP_LOOP(6)
REMAP_LOOP(8)
REMAP_LOOP(16)

void fr_remap(uint8_t *dst, ptrdiff_t dst_stride, size_t width, size_t rows, const uint8_t *origin, ptrdiff_t dx,
              ptrdiff_t dy, int bpp) {
    if (dx == bpp) {  // rows kept in order: whole-row copies
        for (size_t r = 0; r < rows; r++) memcpy(dst + r * dst_stride, origin + (ptrdiff_t)r * dy, width * bpp);
        return;
    }
    switch (bpp) {
    case 1: remap_1(dst, dst_stride, width, rows, origin, dx, dy); break;
    case 2: remap_2(dst, dst_stride, width, rows, origin, dx, dy); break;
    case 3: remap_3(dst, dst_stride, width, rows, origin, dx, dy); break;
    case 4: remap_4(dst, dst_stride, width, rows, origin, dx, dy); break;
    case 6: remap_6(dst, dst_stride, width, rows, origin, dx, dy); break;
    case 8: remap_8(dst, dst_stride, width, rows, origin, dx, dy); break;
    default: remap_16(dst, dst_stride, width, rows, origin, dx, dy); break;
    }
}

void fr_fill_pixels(uint8_t *dst, size_t count, const uint8_t *pixel, int bpp) {
    if (count == 0) return;
    memcpy(dst, pixel, bpp);
    size_t done = 1;
    while (done < count) {  // doubling copies: log₂(count) memcpy calls
        size_t n = done < count - done ? done : count - done;
        memcpy(dst + done * bpp, dst, n * bpp);
        done += n;
    }
}

void fr_lookup8(uint8_t *dst, const uint8_t *src, size_t pixels, int channels, int alpha, const uint8_t *tables) {
    int colours = alpha ? channels - 1 : channels;
    if (channels == 3 && !alpha) {
        const uint8_t *r = tables, *g = tables + 256, *b = tables + 512;
        for (size_t i = 0; i < pixels; i++, src += 3, dst += 3) {
            uint8_t x = src[0], y = src[1], z = src[2];
            dst[0] = r[x]; dst[1] = g[y]; dst[2] = b[z];
        }
        return;
    }
    for (size_t i = 0; i < pixels; i++, src += channels, dst += channels) {
        for (int c = 0; c < colours; c++) dst[c] = tables[c * 256 + src[c]];
        if (alpha) {
            dst[colours] = src[colours];
            if (src[colours] == 0) for (int c = 0; c < colours; c++) dst[c] = 0;
        }
    }
}

void fr_lookup16(uint16_t *dst, const uint16_t *src, size_t pixels, int channels, int alpha, const uint16_t *tables) {
    int colours = alpha ? channels - 1 : channels;
    for (size_t i = 0; i < pixels; i++, src += channels, dst += channels) {
        for (int c = 0; c < colours; c++) dst[c] = tables[(size_t)c * 65536 + src[c]];
        if (alpha) {
            dst[colours] = src[colours];
            if (src[colours] == 0) for (int c = 0; c < colours; c++) dst[c] = 0;
        }
    }
}

void fr_clear_transparent(void *pixels, size_t count, int channels, int bytes_per_sample) {
    int colours = channels - 1;
    if (bytes_per_sample == 1) {
        uint8_t *p = pixels;
        for (size_t i = 0; i < count; i++, p += channels)
            if (p[colours] == 0) for (int c = 0; c < colours; c++) p[c] = 0;
    } else {
        uint16_t *p = pixels;
        for (size_t i = 0; i < count; i++, p += channels)
            if (p[colours] == 0) for (int c = 0; c < colours; c++) p[c] = 0;
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Runs the network on `wires` vectors (or scalars) and returns the middle wire.
#define NETWORK(T, MIN, MAX)                                                                                       \
    for (int p = 0; p < npairs; p++) {                                                                             \
        T a = w[pairs[2 * p]], b = w[pairs[2 * p + 1]];                                                             \
        w[pairs[2 * p]] = MIN(a, b);                                                                               \
        w[pairs[2 * p + 1]] = MAX(a, b);                                                                           \
    }

static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }

// One pass of the network over STEP samples of type E at a time for as long as a whole step fits: LOAD(p) reads
// STEP samples at p, FILL is the largest value (wires past the window), STORE(p, v) writes them.
#define MEDIAN_STEPS(V, E, STEP, LOAD, FILL, MIN, MAX, STORE)                                                      \
    for (; i + STEP <= count; i += STEP) {                                                                         \
        V w[64];                                                                                                   \
        int n = 0;                                                                                                 \
        for (int dy = 0; dy < side; dy++)                                                                          \
            for (int dx = -radius; dx <= radius; dx++) w[n++] = LOAD((const E *)rows[dy] + i + dx * channels);    \
        for (; n < wires; n++) w[n] = FILL;                                                                        \
        NETWORK(V, MIN, MAX)                                                                                       \
        STORE((E *)out + i, w[taps / 2]);                                                                          \
    }

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include "kernels.h"

#define LOAD256(p) _mm256_loadu_si256((const __m256i *)(p))
#define STORE256(p, v) _mm256_storeu_si256((__m256i *)(p), v)

// 32 samples of 8 bits (16 of 16) a step; returns where it stopped.
__attribute__((target("avx2")))
static size_t median_avx2(void *out, const void *const *rows, size_t count, int channels, int radius,
                          int bytes_per_sample, const uint8_t *pairs, int npairs, int side, int taps, int wires) {
    size_t i = 0;
    if (bytes_per_sample == 1) {
        MEDIAN_STEPS(__m256i, uint8_t, 32, LOAD256, _mm256_set1_epi8((char)0xFF), _mm256_min_epu8, _mm256_max_epu8, STORE256)
    } else {
        MEDIAN_STEPS(__m256i, uint16_t, 16, LOAD256, _mm256_set1_epi16((short)0xFFFF), _mm256_min_epu16, _mm256_max_epu16, STORE256)
    }
    return i;
}
#endif

#if defined(__SSE2__)
#define LOAD128(p) _mm_loadu_si128((const __m128i *)(p))
#define STORE128(p, v) _mm_storeu_si128((__m128i *)(p), v)
// SSE2 has only signed 16-bit min and max: samples are compared with their top bit flipped.
#define LOAD128_FLIPPED(p) _mm_xor_si128(_mm_set1_epi16((short)0x8000), LOAD128(p))
#define STORE128_FLIPPED(p, v) STORE128(p, _mm_xor_si128(_mm_set1_epi16((short)0x8000), v))
#endif

void fr_median_row(void *out, const void *const *rows, size_t count, int channels, int radius, int bytes_per_sample,
                   const uint8_t *pairs, int npairs) {
    int side = 2 * radius + 1, taps = side * side;
    int wires = 1;
    while (wires < taps) wires *= 2;
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = median_avx2(out, rows, count, channels, radius, bytes_per_sample, pairs, npairs, side, taps, wires);
#endif
#if defined(__SSE2__)
    if (bytes_per_sample == 1) {
        MEDIAN_STEPS(__m128i, uint8_t, 16, LOAD128, _mm_set1_epi8((char)0xFF), _mm_min_epu8, _mm_max_epu8, STORE128)
    } else {
        MEDIAN_STEPS(__m128i, uint16_t, 8, LOAD128_FLIPPED, _mm_set1_epi16(0x7FFF), _mm_min_epi16, _mm_max_epi16,
                     STORE128_FLIPPED)
    }
#endif
    unsigned s[64];
    for (; i < count; i++) {
        int n = 0;
        for (int dy = 0; dy < side; dy++)
            for (int dx = -radius; dx <= radius; dx++)
                s[n++] = bytes_per_sample == 1 ? ((const uint8_t *)rows[dy])[i + dx * channels]
                                               : ((const uint16_t *)rows[dy])[i + dx * channels];
        for (; n < wires; n++) s[n] = 0xFFFFu;
        {
            unsigned *w = s;
            NETWORK(unsigned, umin, umax)
        }
        if (bytes_per_sample == 1) ((uint8_t *)out)[i] = (uint8_t)s[taps / 2];
        else ((uint16_t *)out)[i] = (uint16_t)s[taps / 2];
    }
}
