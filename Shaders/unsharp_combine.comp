#version 450
// Unsharp mask's last step: inputs (original, alpha-weighted blur), combined by unsharp.glsl. f0: amount, threshold.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"
#include "unsharp.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    store(p, unsharpCombine(pixel0(p.x, p.y), pixel1(p.x, p.y)));
}
