// The steps of grey-level dilation and erosion (Morphology in FilterCore) on rows of samples: 8-bit, 16-bit or
// float, channels interleaved. AVX2 copies chosen at run time (fr_kernels_avx2), portable loops elsewhere; both
// give the same values (a maximum or minimum does not round).
#ifndef FR_EXTREMES_H
#define FR_EXTREMES_H
#include <stddef.h>

/// Sample kinds: unsigned 8-bit, unsigned 16-bit, float.
enum { FR_EXTREME_U8 = 0, FR_EXTREME_U16 = 1, FR_EXTREME_F32 = 2 };

/// Widens a running extreme by one pixel each side: next[i] = ext(cur[i − stride], cur[i + stride]) for
/// from ≤ i < to, and also cur[i] when `centre` is nonzero (the step from a single pixel to three). `ext` is the
/// maximum when `is_max` is nonzero, else the minimum; `stride` is the samples of one pixel.
void fr_extreme_widen(void *next, const void *cur, size_t from, size_t to, size_t stride, int centre, int kind,
                      int is_max);

/// acc[i] = ext(acc[i], row[i]) for i < count.
void fr_extreme_merge(void *acc, const void *row, size_t count, int kind, int is_max);

#endif
