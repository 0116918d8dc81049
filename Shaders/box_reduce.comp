#version 450
// Mean of each BOX_REDUCE_FACTOR.x × .y block of input 0; blocks at the right and bottom edges may be partial and average
// the pixels they cover.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    ivec2 first = p * BOX_REDUCE_FACTOR;
    ivec2 last = min(first + BOX_REDUCE_FACTOR, pc.size.zw);
    vec4 sum = vec4(0.0);
    for (int y = first.y; y < last.y; y++) {
        vec4 row = vec4(0.0);
        for (int x = first.x; x < last.x; x++) row += pixel0(x, y);
        sum += row;
    }
    store(p, sum / float((last.x - first.x) * (last.y - first.y)));
}
