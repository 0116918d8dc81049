#include "samples.h"
#include "kernels.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

#if defined(__x86_64__)
// AVX-512 VBMI: a 256-entry byte table is four registers; vpermi2b looks 64 bytes up in two of them (the index's low
// seven bits) and the index's top bit picks between the two halves. Interleaved RGB takes each byte's channel from
// its position: 64 mod 3 is 1, so the channel pattern of a 64-byte block is one of three, by block number mod 3.
// Returns the bytes done (whole blocks of 64 within `bytes`); the caller's loop does the rest.
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static size_t lookup8_vbmi(uint8_t *dst, const uint8_t *src, size_t bytes, int channels, const uint8_t *tables) {
    __m512i t[3][4];
    const int distinct = channels == 3 && (memcmp(tables, tables + 256, 256) != 0 || memcmp(tables, tables + 512, 256) != 0) ? 3 : 1;
    for (int c = 0; c < distinct; c++)
        for (int q = 0; q < 4; q++) t[c][q] = _mm512_loadu_si512((const void *)(tables + c * 256 + q * 64));
    // Bytes of channel 1 and 2 in a block whose first byte is channel `phase`.
    __mmask64 green[3] = {0, 0, 0}, blue[3] = {0, 0, 0};
    for (int phase = 0; phase < 3; phase++)
        for (int j = 0; j < 64; j++) {
            const int c = (phase + j) % 3;
            if (c == 1) green[phase] |= (__mmask64)1 << j;
            if (c == 2) blue[phase] |= (__mmask64)1 << j;
        }
    size_t i = 0;
    for (size_t block = 0; i + 64 <= bytes; i += 64, block++) {
        const __m512i index = _mm512_loadu_si512((const void *)(src + i));
        const __mmask64 high = _mm512_movepi8_mask(index);
        __m512i out = _mm512_mask_blend_epi8(high, _mm512_permutex2var_epi8(t[0][0], index, t[0][1]),
                                             _mm512_permutex2var_epi8(t[0][2], index, t[0][3]));
        if (distinct == 3) {
            const int phase = (int)(block % 3);
            const __m512i g = _mm512_mask_blend_epi8(high, _mm512_permutex2var_epi8(t[1][0], index, t[1][1]),
                                                     _mm512_permutex2var_epi8(t[1][2], index, t[1][3]));
            const __m512i b = _mm512_mask_blend_epi8(high, _mm512_permutex2var_epi8(t[2][0], index, t[2][1]),
                                                     _mm512_permutex2var_epi8(t[2][2], index, t[2][3]));
            out = _mm512_mask_blend_epi8(blue[phase], _mm512_mask_blend_epi8(green[phase], out, g), b);
        }
        _mm512_storeu_si512((void *)(dst + i), out);
    }
    return i;
}

#endif

void fr_lookup8(uint8_t *dst, const uint8_t *src, size_t pixels, int channels, int alpha, const uint8_t *tables) {
    int colours = alpha ? channels - 1 : channels;
#if defined(__x86_64__)
    if (!alpha && (channels == 1 || channels == 3) && fr_kernels_avx512vbmi()) {
        // Groups of 64 pixels (one block, or three for RGB) end on a pixel: src may be dst, and no byte may be
        // looked up twice.
        const size_t done = lookup8_vbmi(dst, src, pixels / 64 * 64 * (size_t)channels, channels, tables) / (size_t)channels;
        src += done * channels;
        dst += done * channels;
        pixels -= done;
    }
#endif
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

// The 3×3 and 5×5 medians with their networks known when compiling: fully unrolled, the wires live in registers
// instead of an array indexed through the pairs table. Paeth's 19 exchanges for 9; for 25, Batcher's odd–even merge
// sort pruned to the exchanges that reach the middle wire, less those that only meet the padding (+∞ wires never
// move: in an exchange (a, b) with b past the window both keep their values) — 113 exchanges. Any network that
// selects the median gives the same sample, so these agree with the table's network to the bit.
static const uint8_t median9_pairs[19][2] = {{1, 2}, {4, 5}, {7, 8}, {0, 1}, {3, 4}, {6, 7}, {1, 2}, {4, 5}, {7, 8},
                                             {0, 3}, {5, 8}, {4, 7}, {3, 6}, {1, 4}, {2, 5}, {4, 7}, {4, 2}, {6, 4},
                                             {4, 2}};
static const uint8_t median25_pairs[113][2] = {
    {0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}, {16, 17}, {18, 19}, {20, 21}, {22, 23},
    {0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}, {16, 18}, {17, 19}, {20, 22}, {21, 23},
    {1, 2}, {5, 6}, {9, 10}, {13, 14}, {17, 18}, {21, 22}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13},
    {10, 14}, {11, 15}, {16, 20}, {17, 21}, {18, 22}, {19, 23}, {2, 4}, {3, 5}, {10, 12}, {11, 13}, {18, 20},
    {19, 21}, {1, 2}, {3, 4}, {5, 6}, {9, 10}, {11, 12}, {13, 14}, {17, 18}, {19, 20}, {21, 22}, {0, 8}, {1, 9},
    {2, 10}, {3, 11}, {4, 12}, {5, 13}, {6, 14}, {7, 15}, {16, 24}, {4, 8}, {5, 9}, {6, 10}, {7, 11}, {20, 24},
    {2, 4}, {3, 5}, {6, 8}, {7, 9}, {10, 12}, {11, 13}, {18, 20}, {19, 21}, {22, 24}, {1, 2}, {3, 4}, {5, 6},
    {7, 8}, {9, 10}, {11, 12}, {13, 14}, {17, 18}, {19, 20}, {21, 22}, {23, 24}, {0, 16}, {1, 17}, {2, 18},
    {3, 19}, {4, 20}, {5, 21}, {6, 22}, {7, 23}, {8, 24}, {8, 16}, {9, 17}, {10, 18}, {11, 19}, {12, 20}, {13, 21},
    {6, 10}, {7, 11}, {12, 16}, {13, 17}, {10, 12}, {11, 13}, {11, 12}};

// 32 samples of 8 bits through a fixed network of N wires (side × side window), unrolled.
#define FIXED_MEDIAN8(NAME, SIDE, PAIRS)                                                                           \
    __attribute__((target("avx2"))) static size_t NAME(uint8_t *out, const void *const *rows, size_t count,       \
                                                        int channels) {                                            \
        const int radius = SIDE / 2, taps = SIDE * SIDE, npairs = (int)(sizeof PAIRS / sizeof PAIRS[0]);           \
        size_t i = 0;                                                                                              \
        for (; i + 32 <= count; i += 32) {                                                                         \
            __m256i w[SIDE * SIDE];                                                                                \
            int n = 0;                                                                                             \
            for (int dy = 0; dy < SIDE; dy++)                                                                      \
                for (int dx = -radius; dx <= radius; dx++)                                                         \
                    w[n++] = LOAD256((const uint8_t *)rows[dy] + i + dx * channels);                               \
            _Pragma("clang loop unroll(full)") for (int p = 0; p < npairs; p++) {                                  \
                const __m256i a = w[PAIRS[p][0]], b = w[PAIRS[p][1]];                                              \
                w[PAIRS[p][0]] = _mm256_min_epu8(a, b);                                                            \
                w[PAIRS[p][1]] = _mm256_max_epu8(a, b);                                                            \
            }                                                                                                      \
            STORE256(out + i, w[taps / 2]);                                                                        \
        }                                                                                                          \
        return i;                                                                                                  \
    }
FIXED_MEDIAN8(median9_avx2, 3, median9_pairs)
FIXED_MEDIAN8(median25_avx2, 5, median25_pairs)

// 32 samples of 8 bits (16 of 16) a step; returns where it stopped.
__attribute__((target("avx2")))
static size_t median_avx2(void *out, const void *const *rows, size_t count, int channels, int radius,
                          int bytes_per_sample, const uint8_t *pairs, int npairs, int side, int taps, int wires) {
    size_t i = 0;
    if (bytes_per_sample == 1 && radius == 1) return median9_avx2(out, rows, count, channels);
    if (bytes_per_sample == 1 && radius == 2) return median25_avx2(out, rows, count, channels);
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
