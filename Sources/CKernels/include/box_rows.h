// Box reduction of a lossy WebP's rows as they arrive from libwebp's decoder: each output pixel is the mean of an f × f box of
// stored pixels (the last box in a row or column partial), rounded to nearest.
#ifndef FR_BOX_ROWS_H
#define FR_BOX_ROWS_H
#include <stddef.h>
#include <stdint.h>

/// Writes output row `row` (3 bytes a pixel, ceil(width / f) pixels: the means of rows [row·f, min(row·f + f,
/// height)) in boxes of f columns) from a 4:2:0 Y'CbCr picture as libwebp decodes a lossy WebP (planes `y`, `u`, `v`;
/// chroma ⌈width / 2⌉ × ⌈height / 2⌉), each stored pixel made RGB exactly as libwebp's RGB decode makes it (its fancy
/// upsampling and fixed-point BT.601), so the result is the box means of that decode to the bit. f is 1 to 8.
void fr_yuv420_fancy_box_row(uint8_t *out, const uint8_t *y, size_t y_stride, const uint8_t *u, const uint8_t *v,
                             size_t uv_stride, size_t width, size_t height, size_t f, size_t row);
#endif
