// Loops of the CPU backend over stored samples (1–16 bytes a pixel): moving pixels for crops, flips, turns and pads,
// and per-channel lookup tables. Plain C so the compiler unrolls the fixed pixel sizes; portable, no CPU features
// assumed.
#ifndef FR_SAMPLES_H
#define FR_SAMPLES_H
#include <stddef.h>
#include <stdint.h>

/// Copies `rows` output rows of `width` pixels (`bpp` bytes each): output pixel (x, r) at dst + r·dst_stride + x·bpp
/// is the input pixel at origin + x·dx + r·dy (steps in bytes, either sign). A step along x across input rows (a
/// turn or transpose) is walked in tiles so each input cache line is read once.
void fr_remap(uint8_t *dst, ptrdiff_t dst_stride, size_t width, size_t rows, const uint8_t *origin, ptrdiff_t dx,
              ptrdiff_t dy, int bpp);

/// Writes `count` copies of the `bpp`-byte pixel at `pixel` to dst.
void fr_fill_pixels(uint8_t *dst, size_t count, const uint8_t *pixel, int bpp);

/// Maps each sample of `pixels` pixels of `channels` 8-bit samples through tables[c·256 + v] (alpha, the last
/// channel when `alpha` is nonzero, passes unchanged); then, with `alpha`, clears the colour of fully transparent
/// pixels, as working values do. src may be dst.
void fr_lookup8(uint8_t *dst, const uint8_t *src, size_t pixels, int channels, int alpha, const uint8_t *tables);

/// The 16-bit form of fr_lookup8: tables[c·65536 + v].
void fr_lookup16(uint16_t *dst, const uint16_t *src, size_t pixels, int channels, int alpha, const uint16_t *tables);

/// Clears the colour of fully transparent pixels (the last of `channels` samples of `bytes_per_sample` bytes is
/// alpha), as the conversion to working values (premultiplied) does.
void fr_clear_transparent(void *pixels, size_t count, int channels, int bytes_per_sample);
#endif

/// One output row of a per-channel median over stored samples without alpha: sample i of the row is the median of
/// the samples i + dx·channels (|dx| ≤ radius) of the 2·radius + 1 rows `rows` (each padded with `radius` pixels
/// repeated at its left and at least radius pixels + 16 bytes at its right, and pointing at its first real sample),
/// selected by the comparator network `pairs` (`npairs` pairs of wire indices; wires from (2r+1)² on hold the largest
/// value). `bytes_per_sample` is 1 or 2; `count` samples are written to out.
void fr_median_row(void *out, const void *const *rows, size_t count, int channels, int radius, int bytes_per_sample,
                   const uint8_t *pairs, int npairs);
