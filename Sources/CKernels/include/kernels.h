// Inner loops of the CPU backend's separable convolutions compiled for AVX2 + FMA, chosen at run time when the CPU
// has them: Swift cannot compile a function for a CPU feature the build does not assume, and the build stays
// portable (no -mavx2). Where they are missing (fr_kernels_avx2() is 0) the Swift loops run instead; so they do when
// the environment sets FILTERRUN_SIMD=portable.
#ifndef FR_KERNELS_H
#define FR_KERNELS_H
#include <stddef.h>
#include <stdint.h>

/// 1 when the AVX2 + FMA loops may run (the CPU has both and they were not switched off), else 0.
int fr_kernels_avx2(void);
/// Switches the AVX2 loops off (0) or back on where supported (1): for tests and benchmarks of the portable path.
void fr_kernels_set_avx2(int enabled);
/// Whether AVX-512 VBMI byte permutes run too: the CPU has them and the vector paths are on (fr_kernels_avx2).
int fr_kernels_avx512vbmi(void);

/// out[i] = Σₜ weights[t]·rows[t][i] for i < n: one output row of a vertical pass over `taps` input rows. With `add`
/// nonzero the sum is added to what `out` holds (a shrink accumulating its input rows as they arrive).
void fr_vertical_taps_avx2(float *out, const float *const *rows, const float *weights, int taps, size_t n, int add);

/// Four output rows of a vertical pass at once: out[k][i] = Σₜ weights[t]·rows[t + k][i] for k < 4 and i < n
/// (`rows` holds taps + 3 rows), each sum in the order `fr_vertical_taps_avx2` takes, so the results are the same.
void fr_vertical_taps4_avx2(float *const *out, const float *const *rows, const float *weights, int taps, size_t n);

/// One row of an unsharp mask's combination (`Primitive.unsharpCombine`) over premultiplied RGBA: on straight
/// colour, d = C − C_blurred, zeroed where |d| < threshold; C + amount·d, premultiplied back; alpha kept. The Swift
/// definition's arithmetic, to the bit.
void fr_unsharp_combine_avx2(float *out, const float *original, const float *blurred, size_t width, float amount,
                             float threshold);

/// One output row of a horizontal resample over RGBA pixels: out[x] = Σₜ weights[x·taps + t]·src[indices[x·taps + t]]
/// for x < width (each output pixel its own taps, as `ResampleWeights` lays them out).
void fr_horizontal_resample_avx2(float *out, const float *src, const int32_t *indices, const float *weights, int taps,
                                 size_t width);

/// One output row of a horizontal pass over RGBA pixels: out[x] = Σₜ weights[t]·padded[x + t] for x < width, where
/// `padded` holds width + taps − 1 pixels (the row with its edge pixels repeated).
void fr_horizontal_taps_avx2(float *out, const float *padded, const float *weights, int taps, size_t width);
#endif
