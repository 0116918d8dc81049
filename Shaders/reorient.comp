#version 450
// Flips, quarter turns and transpose: each output pixel copies one input pixel.
// ints.x: 0 flip horizontal, 1 flip vertical, 2 rotate 90° clockwise, 3 rotate 180°, 4 rotate 270°, 5 transpose.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int w = pc.size.z, h = pc.size.w;
    ivec2 q;
    switch (pc.ints.x) {
        case 0: q = ivec2(w - 1 - p.x, p.y); break;
        case 1: q = ivec2(p.x, h - 1 - p.y); break;
        case 2: q = ivec2(p.y, h - 1 - p.x); break;
        case 3: q = ivec2(w - 1 - p.x, h - 1 - p.y); break;
        case 4: q = ivec2(w - 1 - p.y, p.x); break;
        default: q = ivec2(p.y, p.x); break;
    }
    store(p, pixel0(q.x, q.y));
}
