#version 450
// One axis of a box mean over 2r+1 samples, edges clamped. ints: radius, vertical (1) or horizontal (0), segment.
// Horizontal: running sums. Each invocation slides the window along a segment of ints.z pixels of a row, adding the
// sample that enters and subtracting the one that leaves: two reads a pixel whatever the radius, plus the first
// window of each segment, and the sum restarts every segment so float rounding cannot drift far. Rows are always
// whole, so the segments (and the rounding) are the same however the image is banded.
// Vertical: a sum of the window per pixel. Bands may start at any row, so a running sum would restart at
// different rows in different bandings and round differently; results must not depend on the banding.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "images.glsl"

void main() {
    int r = pc.ints.x;
    float scale = 1.0 / float(2 * r + 1);
    if (pc.ints.y == 1) {
        ivec2 p;
        if (!outputPixel(p)) return;
        vec4 sum = vec4(0.0);
        for (int t = -r; t <= r; t++) sum += clamped0(p.x, p.y + t);
        store(p, sum * scale);
        return;
    }
    int segment = pc.ints.z, row = int(gl_GlobalInvocationID.y), x = int(gl_GlobalInvocationID.x) * segment;
    if (row >= pc.rows.y || x >= pc.size.x) return;
    int y = pc.rows.x + row, end = min(pc.size.x, x + segment);
    vec4 sum = vec4(0.0);
    for (int t = -r; t <= r; t++) sum += clamped0(x + t, y);
    store(ivec2(x, y), sum * scale);
    for (x = x + 1; x < end; x++) {
        sum += clamped0(x + r, y) - clamped0(x - r - 1, y);
        store(ivec2(x, y), sum * scale);
    }
}
