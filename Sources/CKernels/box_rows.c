#include "box_rows.h"
#include <stdlib.h>
#include <string.h>

void fr_rgb8_box_row(uint8_t *out, const uint8_t *rgb, size_t stride, size_t width, size_t height, size_t f, size_t row) {
    size_t y0 = row * f, y1 = y0 + f < height ? y0 + f : height;
    size_t samples = width * 3, columns = (width + f - 1) / f;
    // Columns summed down the box's rows first (a loop the compiler vectorises: bytes widened into 16-bit sums,
    // at most 8 rows of 255), then each box's columns across.
    uint16_t stack[3 * 4096];
    uint16_t *sums = samples <= 3 * 4096 ? stack : malloc(samples * sizeof(uint16_t));
    if (!sums) return;
    const uint8_t *first = rgb + y0 * stride;
    for (size_t i = 0; i < samples; i++) sums[i] = first[i];
    for (size_t y = y0 + 1; y < y1; y++) {
        const uint8_t *line = rgb + y * stride;
        for (size_t i = 0; i < samples; i++) sums[i] += line[i];
    }
    size_t rows = y1 - y0;
    for (size_t c = 0; c < columns; c++) {
        size_t x0 = c * f, x1 = x0 + f < width ? x0 + f : width;
        uint32_t r = 0, g = 0, b = 0;
        for (size_t x = x0; x < x1; x++) {
            r += sums[x * 3];
            g += sums[x * 3 + 1];
            b += sums[x * 3 + 2];
        }
        uint32_t n = (uint32_t)(rows * (x1 - x0));
        out[c * 3] = (uint8_t)((r + n / 2) / n);
        out[c * 3 + 1] = (uint8_t)((g + n / 2) / n);
        out[c * 3 + 2] = (uint8_t)((b + n / 2) / n);
    }
    if (sums != stack) free(sums);
}
