#version 450
// Square odd kernel (a correlation), edges clamped; parameters and alpha rule in include/convolution.glsl.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"
#include "convolution.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int size = CONVOLVE_SIZE, r = size / 2;
    vec4 sum = vec4(0.0);
    for (int j = 0; j < size; j++) {
        for (int i = 0; i < size; i++) {
            float k = params[j * size + i];
            if (k == 0.0) continue;
            sum += convolutionInput(clamped0(p.x + i - r, p.y + j - r)) * k;
        }
    }
    store(p, convolutionResult(p, sum));
}
