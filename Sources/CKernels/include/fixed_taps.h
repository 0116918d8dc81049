// Blurs of opaque 8-bit samples in integer arithmetic, the representation OpenCV and libvips use for 8-bit images:
// separable taps with 16-bit fixed-point weights (FixedPointTaps: non-negative, in units of 2^-14, summing to 2^14),
// and box means by exact integer running sums. Rows are channel-interleaved samples handled as flat arrays of n
// values, a pixel's neighbour `stride` values away. An AVX2 loop where the CPU has it (fr_kernels_avx2), a portable
// one elsewhere; both give the same integers.
#ifndef FR_FIXED_TAPS_H
#define FR_FIXED_TAPS_H
#include <stddef.h>
#include <stdint.h>

/// out[i] = (Σₜ w[t]·src[i + t·stride] + 2^6) >> 7 for i in [0, n): each sample's weighted sum with 7 bits below
/// the code (at most 255·128 = 32640). `src` holds n + (taps − 1)·stride values (the row padded with its edge
/// pixels).
void fr_fixed_taps_h8(int16_t *out, const uint8_t *src, const int16_t *w, int taps, size_t stride, size_t n);

/// out[i] = min(255, (Σₜ w[t]·rows[t][i] + 2^20) >> 21) for i in [0, n): the vertical pass over rows of the
/// horizontal pass's values, rounded half up to a code.
void fr_fixed_taps_v8(uint8_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n);

/// out[i] = (Σₜ w[t]·rows[t][i] + 2^13) >> 14 for i in [0, n): the vertical pass kept with 7 bits below the code,
/// for a step that reads the blur unrounded (an unsharp mask).
void fr_fixed_taps_v16(int16_t *out, const int16_t *const *rows, const int16_t *w, int taps, size_t n);

/// An unsharp mask on opaque 8-bit samples: d = s − b/128 (b the fixed-point blur of s), d = 0 where |d| < threshold
/// (in codes), out = s + amount·d clamped to [0, 255] and rounded half up — the float path's arithmetic on codes.
void fr_fixed_unsharp8(uint8_t *out, const uint8_t *original, const int16_t *blurred, size_t n, float amount,
                       float threshold);

/// out[i] = clamp((Σₜ w[t]·src[t][i] + bias + 2^(shift−1)) >> shift, 0, 255) for i in [0, n): a kernel's taps in
/// one pass over 8-bit samples (each src[t] already offset to its tap), signed weights in units of 2^−shift.
void fr_fixed_kernel8(uint8_t *out, const uint8_t *const *src, const int16_t *w, int taps, int shift, int32_t bias,
                      size_t n);

/// out[i] = Σ_{k=−r..r} src[i + (k + r)·stride] for i in [0, n), by a running sum per channel: `src` holds
/// n + 2r·stride values (the row padded with its edge pixels), 2r + 1 ≤ 257 so each sum fits 16 bits.
void fr_box_sums_h8(uint16_t *out, const uint8_t *src, int radius, size_t stride, size_t n);

/// sums[i] = Σ of rows[0 … 2r][i]: a box's first window of column sums.
void fr_box_sums_start(uint32_t *sums, const uint16_t *const *rows, int radius, size_t n);

/// Column sums of box sums carried down a strip: for each output row y in [0, count), out[y][i] =
/// ⌊sums[i]·scale + ½⌋, then the window moves down one row (adding rows[y + 2r + 1], removing rows[y]), so after
/// the strip `sums` is the window of the row below it. `rows` holds count + 2r + 1 rows; `scale` is 1/(2r + 1)².
void fr_box_sums_v8(uint8_t *const *out, const uint16_t *const *rows, uint32_t *sums, int radius, size_t count,
                    float scale, size_t n);
#endif
