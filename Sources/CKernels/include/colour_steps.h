// Colour matrices and thresholds on opaque 8-bit pixels, straight from the stored samples into working values: the
// per-pixel steps a grayscale, a sepia or a threshold run, without turning each row into blocks and back. An AVX2
// loop where the CPU has it (fr_kernels_avx2), a portable one elsewhere; both give the bits of the block path
// (PixelBlock: the same products and sums in the same order, none fused).
#ifndef FR_COLOUR_STEPS_H
#define FR_COLOUR_STEPS_H
#include <stddef.h>
#include <stdint.h>

/// One step: a colour matrix (`threshold` 0) or a threshold (`threshold` 1).
typedef struct {
    /// Channel c (R, G, B, A) becomes (((offset[c] + r·m[c][0]) + g·m[c][1]) + b·m[c][2]) + a·m[c][3], all four from
    /// the values before the step.
    float m[4][4];
    float offset[4];
    /// R, G and B become 1 where ((0.2126·r + 0.7152·g) + 0.0722·b) ≥ level, else 0; alpha is kept.
    float level;
    int threshold;
} fr_colour_step;

/// `n` opaque pixels of `in` (`channels` 1 grey or 3 RGB, one byte a sample): each colour sample's working value is
/// table[code] (grey in R, G and B), alpha 1; `steps` run in order; out gets premultiplied RGBA floats (colour × alpha,
/// alpha), four a pixel.
void fr_colour_steps8_row(float *out, const uint8_t *in, int channels, size_t n, const float *table,
                          const fr_colour_step *steps, int count);
#endif
