// One tap of the bilateral filter (BilateralStage) on RGBA float rows, eight pixels at a time with AVX2 + FMA.
#ifndef FR_BILATERAL_H
#define FR_BILATERAL_H
#include <stddef.h>

/// For pixels i < n, in groups of eight: w = spatial·2^(scale·‖row[i] − centre[i]‖²) (scale ≤ 0; the squared
/// distance over the four floats of each pixel), out[i] += w·row[i], norms[i] += w. Returns the pixels done (n rounded
/// down to eight); the caller does the rest. Only where fr_kernels_avx2() is 1.
size_t fr_bilateral_tap_avx2(float *out, float *norms, const float *row, const float *centre, size_t n, float spatial,
                             float scale);

#endif
