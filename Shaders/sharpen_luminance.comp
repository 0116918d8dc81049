#version 450
// RGB += amount·(Y − Y blurred by [1 2 1]ᵀ[1 2 1]/16), Y the luminance; edges clamp. SHARPEN_AMOUNT: amount.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

float column(int x, int y) {
    return luma(clamped0(x, y - 1)) + 2.0 * luma(clamped0(x, y)) + luma(clamped0(x, y + 1));
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 centre = clamped0(p.x, p.y);
    float blurred = (column(p.x - 1, p.y) + 2.0 * column(p.x, p.y) + column(p.x + 1, p.y)) / 16.0;
    float delta = SHARPEN_AMOUNT * (luma(centre) - blurred);
    store(p, centre + vec4(delta, delta, delta, 0.0));
}
