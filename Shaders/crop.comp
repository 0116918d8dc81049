#version 450
// The output-sized rectangle of input 0 at CROP_ORIGIN.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    store(p, pixel0(p.x + CROP_ORIGIN.x, p.y + CROP_ORIGIN.y));
}
