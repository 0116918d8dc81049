#include "extremes.h"
#include "kernels.h"
#include <stdint.h>

// Selects written as comparisons: compilers turn them into vector max/min (maxps returns its second operand when
// either is NaN, as `a > b ? a : b` does, so both paths agree on every input).
#define EXT_MAX(a, b) ((a) > (b) ? (a) : (b))
#define EXT_MIN(a, b) ((a) < (b) ? (a) : (b))

#define EXTREME_LOOPS(PREFIX, ATTR, T, NAME, EXT)                                                                  \
    ATTR static void PREFIX##_widen_##NAME(T *next, const T *cur, size_t from, size_t to, size_t s, int centre) { \
        if (centre) {                                                                                              \
            for (size_t i = from; i < to; i++) next[i] = EXT(EXT(cur[i - s], cur[i + s]), cur[i]);               \
        } else {                                                                                                   \
            for (size_t i = from; i < to; i++) next[i] = EXT(cur[i - s], cur[i + s]);                             \
        }                                                                                                          \
    }                                                                                                              \
    ATTR static void PREFIX##_merge_##NAME(T *acc, const T *row, size_t count) {                                  \
        for (size_t i = 0; i < count; i++) acc[i] = EXT(acc[i], row[i]);                                           \
    }

#define EXTREME_SET(PREFIX, ATTR)                                                                                  \
    EXTREME_LOOPS(PREFIX, ATTR, uint8_t, u8_max, EXT_MAX)                                                          \
    EXTREME_LOOPS(PREFIX, ATTR, uint8_t, u8_min, EXT_MIN)                                                          \
    EXTREME_LOOPS(PREFIX, ATTR, uint16_t, u16_max, EXT_MAX)                                                        \
    EXTREME_LOOPS(PREFIX, ATTR, uint16_t, u16_min, EXT_MIN)                                                        \
    EXTREME_LOOPS(PREFIX, ATTR, float, f32_max, EXT_MAX)                                                           \
    EXTREME_LOOPS(PREFIX, ATTR, float, f32_min, EXT_MIN)                                                           \
    static void PREFIX##_widen(void *next, const void *cur, size_t from, size_t to, size_t s, int centre, int kind, \
                               int is_max) {                                                                       \
        switch (kind * 2 + (is_max ? 0 : 1)) {                                                                     \
        case 0: PREFIX##_widen_u8_max(next, cur, from, to, s, centre); break;                                      \
        case 1: PREFIX##_widen_u8_min(next, cur, from, to, s, centre); break;                                      \
        case 2: PREFIX##_widen_u16_max(next, cur, from, to, s, centre); break;                                     \
        case 3: PREFIX##_widen_u16_min(next, cur, from, to, s, centre); break;                                     \
        case 4: PREFIX##_widen_f32_max(next, cur, from, to, s, centre); break;                                     \
        default: PREFIX##_widen_f32_min(next, cur, from, to, s, centre); break;                                    \
        }                                                                                                          \
    }                                                                                                              \
    static void PREFIX##_merge(void *acc, const void *row, size_t count, int kind, int is_max) {                  \
        switch (kind * 2 + (is_max ? 0 : 1)) {                                                                     \
        case 0: PREFIX##_merge_u8_max(acc, row, count); break;                                                     \
        case 1: PREFIX##_merge_u8_min(acc, row, count); break;                                                     \
        case 2: PREFIX##_merge_u16_max(acc, row, count); break;                                                    \
        case 3: PREFIX##_merge_u16_min(acc, row, count); break;                                                    \
        case 4: PREFIX##_merge_f32_max(acc, row, count); break;                                                    \
        default: PREFIX##_merge_f32_min(acc, row, count); break;                                                   \
        }                                                                                                          \
    }

EXTREME_SET(portable, )
#if defined(__x86_64__) || defined(__i386__)
EXTREME_SET(avx2, __attribute__((target("avx2"))))
#define HAS_AVX2_COPY 1
#endif

void fr_extreme_widen(void *next, const void *cur, size_t from, size_t to, size_t stride, int centre, int kind,
                      int is_max) {
#ifdef HAS_AVX2_COPY
    if (fr_kernels_avx2()) {
        avx2_widen(next, cur, from, to, stride, centre, kind, is_max);
        return;
    }
#endif
    portable_widen(next, cur, from, to, stride, centre, kind, is_max);
}

void fr_extreme_merge(void *acc, const void *row, size_t count, int kind, int is_max) {
#ifdef HAS_AVX2_COPY
    if (fr_kernels_avx2()) {
        avx2_merge(acc, row, count, kind, is_max);
        return;
    }
#endif
    portable_merge(acc, row, count, kind, is_max);
}
