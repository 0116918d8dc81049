#version 450
// Horizontal pass of a separable convolution, tiled in shared memory (GPUs; lavapipe runs the plain pass, which it
// runs faster: 10.9 against 16.1 s for a σ 10 blur of a 4K photo): a work group is 256 pixels of a row; it
// stages them and the taps' reach on either side, up to 768 taps at a time, so each input pixel is read from device
// memory about once, not once per tap (taps past 768 take further rounds). Groups step down the band's rows, so the
// group count in y stays that of 16-row groups. ints.x: tap count (odd, centred); params: the taps.
layout(local_size_x = 256) in;
#include "common.glsl"
#include "images.glsl"

const int GROUP = 256, ROUND = 768;
shared vec4 tile[GROUP + ROUND];  // 16 KiB: the least maxComputeSharedMemorySize every device offers

void main() {
    int lx = int(gl_LocalInvocationID.x), left = int(gl_WorkGroupID.x) * GROUP, x = left + lx;
    int taps = pc.ints.x, radius = taps / 2;
    for (int row = int(gl_WorkGroupID.y); row < pc.rows.y; row += int(gl_NumWorkGroups.y)) {
        int y = pc.rows.x + row;
        vec4 sum = vec4(0.0);
        for (int start = 0; start < taps; start += ROUND) {
            int count = min(ROUND, taps - start);
            for (int i = lx; i < GROUP + count - 1; i += GROUP) tile[i] = clamped0(left - radius + start + i, y);
            barrier();
            for (int t = 0; t < count; t++) sum += tile[lx + t] * params[start + t];
            barrier();
        }
        if (x < pc.size.x) store(ivec2(x, y), sum);
    }
}
