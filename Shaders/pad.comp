#version 450
// Input 0 placed at PAD_OFFSET = (left, top) on a canvas of PAD_COLOUR (working values).
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    ivec2 q = p - PAD_OFFSET;
    bool inside = q.x >= 0 && q.y >= 0 && q.x < pc.size.z && q.y < pc.size.w;
    store(p, inside ? pixel0(q.x, q.y) : PAD_COLOUR);
}
