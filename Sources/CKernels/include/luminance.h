// Luminance and its Sobel gradient over rows of working values, each luminance computed once per pixel rather than
// once per tap that reads it. An AVX2 loop where the CPU has it (fr_kernels_avx2), a portable one elsewhere; both give
// the bits of the Swift definitions they replace (the same products and sums in the same order, none fused).
#ifndef FR_LUMINANCE_H
#define FR_LUMINANCE_H
#include <stddef.h>
#include <stdint.h>

/// out[i] = 0.2126·R + 0.7152·G + 0.0722·B of working pixel i of `rgba` (four floats each), summed left to right.
void fr_luminance_row(float *out, const float *rgba, size_t n);

/// out[i] = (tables[s_R] + tables[256 + s_G]) + tables[512 + s_B] for the 8-bit samples of pixel i of `src` (`channels`
/// 1, grey, or 3), each table entry a channel's weight times the working value of a code: with tables made from the
/// same products, fr_luminance_row's bits without converting the samples first.
void fr_luminance_row8(float *out, const uint8_t *src, size_t n, int channels, const float *tables);

/// The Sobel gradient magnitude of `n` pixels as grey working pixels (m, m, m, 1) into `out`, m = √(gx² + gy²) / 4,
/// from three rows of luminance above, at and below (`a`, `b`, `c`), each padded with one value on either side
/// (index 0 is the pixel left of the first): gx = (a[x+1] + 2b[x+1] + c[x+1]) − (a[x−1] + 2b[x−1] + c[x−1]),
/// gy = (c[x−1] + 2c[x] + c[x+1]) − (a[x−1] + 2a[x] + a[x+1]).
void fr_sobel_row(float *out, const float *a, const float *b, const float *c, size_t n);
#endif
