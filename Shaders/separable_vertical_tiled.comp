#version 450
// Vertical pass of a separable convolution, tiled in shared memory (GPUs; lavapipe runs the plain pass, see
// VulkanRun.tiled): a 16×16 work group stages its 16 columns over its 16 rows and the reach of up to 32 taps at a
// time (12 KiB), and those taps, so each input pixel is read from device memory about (16 + 31) / 16 times a round
// instead of once per tap, and each tap once per group. Rows of the group past the band are staged clamped to the
// rows the band holds and not stored. SEPARABLE_TAPS: tap count (odd, centred); params: the taps.
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"
layout(local_size_x = SQUARE_TILE, local_size_y = SQUARE_TILE) in;

const int SIDE = SQUARE_TILE, ROUND = 32;
shared vec4 tile[(SIDE + ROUND - 1) * SIDE];
shared float weights[ROUND];

void main() {
    int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y), local = ly * SIDE + lx;
    int left = int(gl_WorkGroupID.x) * SIDE, top = int(gl_WorkGroupID.y) * SIDE;  // top: a row of the band
    int taps = SEPARABLE_TAPS, radius = taps / 2;
    int lastHeld = pc.rows.x + pc.rows.y - 1 + radius;  // the last row the band's input holds (before clamping)
    vec4 sum = vec4(0.0);
    for (int start = 0; start < taps; start += ROUND) {
        int count = min(ROUND, taps - start);
        for (int i = local; i < (SIDE + count - 1) * SIDE; i += SIDE * SIDE) {
            int y = min(pc.rows.x + top - radius + start + i / SIDE, lastHeld);
            tile[i] = clamped0(left + i % SIDE, y);
        }
        if (local < count) weights[local] = params[start + local];
        barrier();
        for (int t = 0; t < count; t++) sum += weights[t] * tile[(ly + t) * SIDE + lx];
        barrier();
    }
    if (left + lx < pc.size.x && top + ly < pc.rows.y) store(ivec2(left + lx, pc.rows.x + top + ly), sum);
}
