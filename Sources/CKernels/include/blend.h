// The separable blend modes whose formula is one expression a channel, composited over a backdrop (W3C Compositing,
// premultiplied working values), two pixels to an AVX2 register. Each result is the one the CPU backend's Swift
// `composite` gives, to the bit: the same divisions, products and sums in the same order, none fused.
#ifndef FR_BLEND_H
#define FR_BLEND_H
#include <stddef.h>

enum fr_blend_mode {
    FR_BLEND_NORMAL, FR_BLEND_MULTIPLY, FR_BLEND_SCREEN, FR_BLEND_DARKEN, FR_BLEND_LIGHTEN, FR_BLEND_DIFFERENCE,
    FR_BLEND_EXCLUSION, FR_BLEND_ADD, FR_BLEND_SUBTRACT
};

/// out[x] = composite(B, source[x] · opacity, backdrop[x]) for the first pixels of `count`, four floats each;
/// `out` may be `backdrop`. Returns how many pixels it did (an even number: the caller finishes the last one).
/// Only where fr_kernels_avx2() is 1.
size_t fr_blend_row_avx2(float *out, const float *source, const float *backdrop, size_t count, float opacity,
                         enum fr_blend_mode mode);

/// 1 when every one of the `count` floats at `values` is +0 (a clear row of premultiplied working values), else 0.
int fr_floats_zero(const float *values, size_t count);
#endif
