#version 450
// Horizontal pass of a separable convolution, tiled in shared memory (GPUs; lavapipe runs the plain pass, which it
// runs faster: see VulkanRun.tiled): a work group is 256 pixels of a row; it stages them, the taps' reach on either
// side and the taps themselves, up to 512 taps at a time, so each input pixel is read from device memory about
// once, not once per tap, and each tap once per group (taps past 512 take further rounds). Groups step down the
// band's rows, so the group count in y stays that of 16-row groups. SEPARABLE_TAPS: tap count (odd, centred); params: taps.
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"
layout(local_size_x = ROW_TILE) in;

const int GROUP = ROW_TILE, ROUND = 512;
shared vec4 tile[GROUP + ROUND];  // 12 KiB, and the round's taps 2 KiB: within the 16 KiB every device offers
shared float weights[ROUND];

void main() {
    int lx = int(gl_LocalInvocationID.x), left = int(gl_WorkGroupID.x) * GROUP, x = left + lx;
    int taps = SEPARABLE_TAPS, radius = taps / 2;
    for (int row = int(gl_WorkGroupID.y); row < pc.rows.y; row += int(gl_NumWorkGroups.y)) {
        int y = pc.rows.x + row;
        vec4 sum = vec4(0.0);
        for (int start = 0; start < taps; start += ROUND) {
            int count = min(ROUND, taps - start);
            for (int i = lx; i < GROUP + count - 1; i += GROUP) tile[i] = clamped0(left - radius + start + i, y);
            for (int i = lx; i < count; i += GROUP) weights[i] = params[start + i];
            barrier();
            for (int t = 0; t < count; t++) sum += tile[lx + t] * weights[t];
            barrier();
        }
        if (x < pc.size.x) store(ivec2(x, y), sum);
    }
}
