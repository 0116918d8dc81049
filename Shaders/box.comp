#version 450
// One axis of a box mean over 2r+1 samples, edges clamped. ints: radius, vertical (1) or horizontal (0).
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int r = pc.ints.x;
    ivec2 step = pc.ints.y == 1 ? ivec2(0, 1) : ivec2(1, 0);
    vec4 sum = vec4(0.0);
    for (int t = -r; t <= r; t++) {
        ivec2 q = p + step * t;
        sum += clamped0(q.x, q.y);
    }
    store(p, sum * (1.0 / float(2 * r + 1)));
}
