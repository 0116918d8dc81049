#version 450
// Flips, quarter turns and transpose: each output pixel copies one input pixel.
// REORIENT_MAPPING: REORIENT_* (rotations clockwise).
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int w = pc.size.z, h = pc.size.w;
    ivec2 q;
    switch (REORIENT_MAPPING) {
        case REORIENT_FLIP_HORIZONTAL: q = ivec2(w - 1 - p.x, p.y); break;
        case REORIENT_FLIP_VERTICAL: q = ivec2(p.x, h - 1 - p.y); break;
        case REORIENT_ROTATE90: q = ivec2(p.y, h - 1 - p.x); break;
        case REORIENT_ROTATE180: q = ivec2(w - 1 - p.x, h - 1 - p.y); break;
        case REORIENT_ROTATE270: q = ivec2(w - 1 - p.y, p.x); break;
        default: q = ivec2(p.y, p.x); break;  // REORIENT_TRANSPOSE
    }
    store(p, pixel0(q.x, q.y));
}
