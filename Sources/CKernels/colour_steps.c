#include "colour_steps.h"
#include "kernels.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

static void steps_pixel(float *out, const uint8_t *p, int channels, const float *table, const fr_colour_step *steps,
                        int count) {
    float v[4] = {table[p[0]], table[channels == 3 ? p[1] : p[0]], table[channels == 3 ? p[2] : p[0]], 1};
    for (int s = 0; s < count; s++) {
        const fr_colour_step *step = &steps[s];
        if (step->threshold) {
            const float r = v[0] * 0.2126f, g = v[1] * 0.7152f, b = v[2] * 0.0722f;
            const float rg = r + g, y = rg + b;
            v[0] = v[1] = v[2] = y >= step->level ? 1.0f : 0.0f;
            continue;
        }
        float next[4];
        for (int c = 0; c < 4; c++) {
            float sum = step->offset[c];
            for (int k = 0; k < 4; k++) {
                const float product = v[k] * step->m[c][k];
                sum = sum + product;
            }
            next[c] = sum;
        }
        for (int c = 0; c < 4; c++) v[c] = next[c];
    }
    out[0] = v[0] * v[3];
    out[1] = v[1] * v[3];
    out[2] = v[2] * v[3];
    out[3] = v[3];
}

#if defined(__x86_64__) || defined(__i386__)
// Whether table[c] is c ÷ 255 for every code (the sRGB working space): then the AVX2 loop divides instead of
// gathering, which gives the same bits (IEEE division rounds exactly as the table's entries were made).
static int is_unit(const float *table) {
    for (int c = 0; c < 256; c++) {
        if (table[c] != (float)c / 255.0f) return 0;
    }
    return 1;
}

// Eight pixels at a time while more bytes lie past them: RGB pixels are spread from two 16-byte loads by byte
// shuffles (gathers are slow on some cores), grey ones widened from one 8-byte load; each code becomes its working
// value through the table (a gather) or, where the table is c ÷ 255, by a division.
__attribute__((target("avx2")))
static size_t steps_avx2(float *out, const uint8_t *in, int channels, size_t n, const float *table,
                         const fr_colour_step *steps, int count) {
    const int unit = is_unit(table);
    const __m256 scale = _mm256_set1_ps(255.0f);
    // Within each 128-bit lane (four pixels, 12 bytes): R, G or B of each into the low byte of a 32-bit word.
#define FR_PICK(k) _mm256_setr_epi8(k, -1, -1, -1, 3 + k, -1, -1, -1, 6 + k, -1, -1, -1, 9 + k, -1, -1, -1, \
                                    k, -1, -1, -1, 3 + k, -1, -1, -1, 6 + k, -1, -1, -1, 9 + k, -1, -1, -1)
    const __m256i pick[3] = {FR_PICK(0), FR_PICK(1), FR_PICK(2)};
#undef FR_PICK
    const size_t slack = channels == 3 ? 2 : 0;
    size_t i = 0;
    for (; i + 8 + slack <= n; i += 8) {
        __m256i codes[3];
        if (channels == 3) {
            const uint8_t *p = in + 3 * i;
            const __m256i bytes = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
                                                          _mm_loadu_si128((const __m128i *)(p + 12)), 1);
            for (int c = 0; c < 3; c++) codes[c] = _mm256_shuffle_epi8(bytes, pick[c]);
        } else {
            codes[0] = codes[1] = codes[2] = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(in + i)));
        }
        __m256 v[4];
        for (int c = 0; c < 3; c++) {
            if (c > 0 && channels != 3) { v[c] = v[0]; continue; }
            v[c] = unit ? _mm256_div_ps(_mm256_cvtepi32_ps(codes[c]), scale) : _mm256_i32gather_ps(table, codes[c], 4);
        }
        v[3] = _mm256_set1_ps(1);
        for (int s = 0; s < count; s++) {
            const fr_colour_step *step = &steps[s];
            if (step->threshold) {
                const __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(v[0], _mm256_set1_ps(0.2126f)),
                                                             _mm256_mul_ps(v[1], _mm256_set1_ps(0.7152f))),
                                               _mm256_mul_ps(v[2], _mm256_set1_ps(0.0722f)));
                v[0] = v[1] = v[2] = _mm256_and_ps(_mm256_cmp_ps(y, _mm256_set1_ps(step->level), _CMP_GE_OQ), _mm256_set1_ps(1));
                continue;
            }
            __m256 next[4];
            for (int c = 0; c < 4; c++) {
                __m256 sum = _mm256_set1_ps(step->offset[c]);
                for (int k = 0; k < 4; k++) sum = _mm256_add_ps(sum, _mm256_mul_ps(v[k], _mm256_set1_ps(step->m[c][k])));
                next[c] = sum;
            }
            for (int c = 0; c < 4; c++) v[c] = next[c];
        }
        const __m256 r = _mm256_mul_ps(v[0], v[3]), g = _mm256_mul_ps(v[1], v[3]), b = _mm256_mul_ps(v[2], v[3]);
        const __m256 t0 = _mm256_unpacklo_ps(r, g), t1 = _mm256_unpackhi_ps(r, g);
        const __m256 t2 = _mm256_unpacklo_ps(b, v[3]), t3 = _mm256_unpackhi_ps(b, v[3]);
        const __m256 p0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), p1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
        const __m256 p2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), p3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
        float *o = out + 4 * i;
        _mm256_storeu_ps(o, _mm256_permute2f128_ps(p0, p1, 0x20));
        _mm256_storeu_ps(o + 8, _mm256_permute2f128_ps(p2, p3, 0x20));
        _mm256_storeu_ps(o + 16, _mm256_permute2f128_ps(p0, p1, 0x31));
        _mm256_storeu_ps(o + 24, _mm256_permute2f128_ps(p2, p3, 0x31));
    }
    return i;
}
#endif

void fr_colour_steps8_row(float *out, const uint8_t *in, int channels, size_t n, const float *table,
                          const fr_colour_step *steps, int count) {
    size_t i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (fr_kernels_avx2()) i = steps_avx2(out, in, channels, n, table, steps, count);
#endif
    for (; i < n; i++) steps_pixel(out + 4 * i, in + (size_t)channels * i, channels, table, steps, count);
}
