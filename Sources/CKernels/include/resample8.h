// Vertical resampling that reads 8-bit stored samples itself, so a shrink's input (a decoded photo, a crop of it)
// is never converted into rows of working floats of its own. An AVX2 + FMA loop where the CPU has them
// (fr_kernels_avx2), a portable one elsewhere.
#ifndef FR_RESAMPLE8_H
#define FR_RESAMPLE8_H
#include <stddef.h>
#include <stdint.h>

/// Output pixels 0..<pixels (four floats each, RGBA) get the weighted sum of `taps` rows of 8-bit samples without
/// alpha (`channels` 1 grey or 3 RGB) in the sRGB working space: colour Σ weights[t] · code / 255 over the rows'
/// codes rows[t][pixel], alpha Σ weights[t] (the samples are opaque). With `add` the sums are added to what `out`
/// holds (an accumulating shrink), else they replace it.
void fr_vertical_taps8(float *out, const uint8_t *const *rows, const float *weights, int taps, size_t pixels,
                       int channels, int add);
#endif
