#version 450
// Per-channel median of the (2r+1)² window (r ≤ 3), edges clamp. ints.x: radius.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int r = pc.ints.x, count = (2 * r + 1) * (2 * r + 1);
    vec4 window[49];
    int n = 0;
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) window[n++] = clamped0(p.x + dx, p.y + dy);
    vec4 result;
    for (int c = 0; c < 4; c++) {
        float values[49];
        for (int i = 0; i < count; i++) values[i] = window[i][c];
        for (int i = 1; i < count; i++) {
            float v = values[i];
            int j = i - 1;
            while (j >= 0 && values[j] > v) { values[j + 1] = values[j]; j--; }
            values[j + 1] = v;
        }
        result[c] = values[count / 2];
    }
    store(p, result);
}
