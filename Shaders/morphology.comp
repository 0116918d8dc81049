#version 450
// Grey-level dilation or erosion (Morphology): each channel's maximum or minimum over a flat element, given as one
// half-width per element row in `params` (MORPHOLOGY_ROWS rows, centred on the pixel). A disc is one pass over its rows;
// a square runs twice, one row of half-width r and then 2r + 1 rows of half-width 0. Coordinates clamp, which for
// an extreme is the same as leaving the outside pixels out. MorphologyKernelSource defines ELEMENT_EXTREME as
// max or min below.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

// @ELEMENT_EXTREME

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int rows = MORPHOLOGY_ROWS, reach = rows / 2;
    vec4 v = clamped0(p.x, p.y);
    for (int j = 0; j < rows; j++) {
        int w = int(params[j]), y = p.y + j - reach;
        for (int dx = -w; dx <= w; dx++) v = ELEMENT_EXTREME(v, clamped0(p.x + dx, y));
    }
    store(p, v);
}
