// Resampling opaque 8-bit samples in fixed point (FixedPointResample: 16-bit weights in units of 2^-14, each
// output's summing to 2^14), as OpenCV resizes 8-bit images: a horizontal pass into 16-bit rows with 6 bits below the
// code, or rounded to samples when it is the only pass, and a vertical pass over such rows rounded to samples. An
// AVX2 loop where the CPU has it (fr_kernels_avx2), a portable one elsewhere; both give the same integers.
#ifndef FR_RESAMPLE_FIXED_H
#define FR_RESAMPLE_FIXED_H
#include <stddef.h>
#include <stdint.h>

/// One row of `inWidth` pixels (`channels` 1 or 3 samples each) resampled along it to `width` pixels: for output x
/// and channel c, s = Σₜ w[x·taps + t]·src[indices[x·taps + t]·channels + c]. With `out16` non-null it gets
/// (s + 2⁷) >> 8 (signed, 6 bits below the code), else `out8` gets clamp((s + 2¹³) >> 14, 0, 255). `taps` is even;
/// outputs in [first, end) read consecutive inputs from indices[x·taps] on (a padding tap's weight is 0), which the
/// vector loop relies on. `scratch` holds (inWidth + 2)·4 bytes.
void fr_resample_h8(int16_t *out16, uint8_t *out8, const uint8_t *src, size_t inWidth, const int32_t *indices,
                    const int16_t *w, int taps, size_t width, int channels, size_t first, size_t end,
                    uint8_t *scratch);

/// out[i] = clamp((Σₜ w[t]·rows[t][i] + 2¹⁹) >> 20, 0, 255) for i in [0, n): the vertical pass over the horizontal
/// pass's rows (6 bits below the code) with signed weights in units of 2⁻¹⁴, rounded half up to a code.
void fr_resample_v8(uint8_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n);
#endif
