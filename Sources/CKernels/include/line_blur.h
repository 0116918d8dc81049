// One output row of a zoom blur (LineBlur's zoom path in FilterCore) on RGBA float rows.
#ifndef FR_LINE_BLUR_H
#define FR_LINE_BLUR_H
#include <stddef.h>

/// Output row y (`width` RGBA pixels): pixel x averages n = 1 + ⌈s·|(x, y) − c|⌉ bilinear samples evenly from
/// (x, y) to (x, y) − s·((x, y) − c), taps clamped to the image (`width` × `height`). `rows[k]` is input row
/// `first + k`; every row a sample reaches must be there (Plan.inputRows gives them). The arithmetic is
/// the Vulkan kernel's (Shaders/line_blur.comp), in float32 in the same order.
void fr_zoom_blur_row(float *out, const float *const *rows, int first, int width, int height, int y, float cx, float cy,
                      float s);

#endif
