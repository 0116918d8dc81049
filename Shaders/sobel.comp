#version 450
// Gradient magnitude of the luminance (3×3 Sobel) divided by 4, opaque; edges clamp.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "images.glsl"

float at(int x, int y) { return luma(clamped0(x, y)); }

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int x = p.x, y = p.y;
    float gx = (at(x + 1, y - 1) + 2.0 * at(x + 1, y) + at(x + 1, y + 1))
             - (at(x - 1, y - 1) + 2.0 * at(x - 1, y) + at(x - 1, y + 1));
    float gy = (at(x - 1, y + 1) + 2.0 * at(x, y + 1) + at(x + 1, y + 1))
             - (at(x - 1, y - 1) + 2.0 * at(x, y - 1) + at(x + 1, y - 1));
    float m = sqrt(gx * gx + gy * gy) / 4.0;
    store(p, vec4(m, m, m, 1.0));
}
