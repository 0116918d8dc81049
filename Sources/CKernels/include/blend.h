// The separable blend modes whose formula is one expression a channel, composited over a backdrop (W3C Compositing,
// premultiplied working values), two pixels to an AVX2 register. Each result is the one the CPU backend's Swift
// `composite` gives, to the bit: the same divisions, products and sums in the same order, none fused.
#ifndef FR_BLEND_H
#define FR_BLEND_H
#include <stddef.h>

// Every mode, coded as Swift's `BlendMode` orders them (as the shaders' BLEND_* constants are): generated from
// that one table, and KernelInterfaceTests.testTheCBlendModesAreSwiftsTable fails when this block differs from it.
// This loop has the separable modes below; the others are Swift's alone.
enum fr_blend_mode {
    FR_BLEND_NORMAL = 0,
    FR_BLEND_MULTIPLY = 1,
    FR_BLEND_SCREEN = 2,
    FR_BLEND_OVERLAY = 3,
    FR_BLEND_SOFT_LIGHT = 4,
    FR_BLEND_HARD_LIGHT = 5,
    FR_BLEND_DARKEN = 6,
    FR_BLEND_LIGHTEN = 7,
    FR_BLEND_DIFFERENCE = 8,
    FR_BLEND_EXCLUSION = 9,
    FR_BLEND_ADD = 10,
    FR_BLEND_SUBTRACT = 11,
    FR_BLEND_COLOR_DODGE = 12,
    FR_BLEND_COLOR_BURN = 13,
    FR_BLEND_HUE = 14,
    FR_BLEND_SATURATION = 15,
    FR_BLEND_COLOR = 16,
    FR_BLEND_LUMINOSITY = 17,
};

/// out[x] = composite(B, source[x] · opacity, backdrop[x]) for the first pixels of `count`, four floats each;
/// `out` may be `backdrop`. Returns how many pixels it did (an even number: the caller finishes the last one).
/// Only where fr_kernels_avx2() is 1.
size_t fr_blend_row_avx2(float *out, const float *source, const float *backdrop, size_t count, float opacity,
                         enum fr_blend_mode mode);

/// 1 when every one of the `count` floats at `values` is +0 (a clear row of premultiplied working values), else 0.
int fr_floats_zero(const float *values, size_t count);
#endif
