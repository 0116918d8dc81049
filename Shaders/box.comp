#version 450
// One axis of a box mean over 2r+1 samples, edges clamped, by running sums. ints: radius, vertical (1) or
// horizontal (0), segment length. Each invocation slides the window along one segment of BOX_SEGMENT pixels, adding the
// sample that enters and subtracting the one that leaves: two reads a pixel whatever the radius, plus the segment's
// first window. Segments are counted from the image's top-left (Primitive.boxSegment), so every sum starts at the
// same pixel whatever the banding, and banded renders give the whole render's floats; a band starting inside a
// segment runs it from the segment's start and stores only its own rows (the region rule holds those rows).
// Invocations: horizontal, x = segment of a row, y = row of the band; vertical, x = column, y = segment of the band.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    int r = BOX_RADIUS, segment = BOX_SEGMENT;
    float scale = 1.0 / float(2 * r + 1);
    if (BOX_VERTICAL == 1) {
        int x = int(gl_GlobalInvocationID.x), first = pc.rows.x, end = pc.rows.x + pc.rows.y;
        int start = (first / segment + int(gl_GlobalInvocationID.y)) * segment;
        if (x >= pc.size.x || start >= end) return;
        int stop = min(end, start + segment);
        vec4 sum = vec4(0.0);
        for (int t = -r; t <= r; t++) sum += clamped0(x, start + t);
        for (int y = start; y < stop; y++) {
            if (y >= first) store(ivec2(x, y), sum * scale);
            if (y + 1 < stop) sum += clamped0(x, y + r + 1) - clamped0(x, y - r);
        }
        return;
    }
    int row = int(gl_GlobalInvocationID.y), x = int(gl_GlobalInvocationID.x) * segment;
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
