#version 450
// Horizontal pass of a separable convolution. SEPARABLE_TAPS: tap count (odd, centred); params: the taps.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int taps = SEPARABLE_TAPS, radius = taps / 2;
    vec4 sum = vec4(0.0);
    for (int t = 0; t < taps; t++) sum += clamped0(p.x + t - radius, p.y) * params[t];
    store(p, sum);
}
