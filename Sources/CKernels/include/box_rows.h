// Box reduction of 8-bit RGB rows as they arrive from a decoder: each output pixel is the mean of an f × f box of
// stored pixels (the last box in a row or column partial), rounded to nearest.
#ifndef FR_BOX_ROWS_H
#define FR_BOX_ROWS_H
#include <stddef.h>
#include <stdint.h>

/// Writes output row `row` (3 bytes a pixel, ceil(width / f) pixels) from rows [row·f, min(row·f + f, height)) of
/// `rgb` (3 bytes a pixel, `stride` bytes apart); f is 1 to 8.
void fr_rgb8_box_row(uint8_t *out, const uint8_t *rgb, size_t stride, size_t width, size_t height, size_t f, size_t row);
#endif
