#version 450
// Per-channel median of the (2r+1)² window, edges clamp: MedianNetwork's compare-exchanges (the CPU backend's) on
// whole pixels, all four channels at once, written out per radius in place of the @NETWORK line (MedianKernelSource)
// so every window value sits in a register of its own — no array, no loop, no branch.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "images.glsl"

// The smaller of a and b into a, the larger into b, per channel; values that do not compare (NaN) stay, as on the CPU.
#define ORDER(a, b) { bvec4 swap = lessThan(b, a); vec4 low = mix(a, b, swap); b = mix(b, a, swap); a = low; }

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    // @NETWORK
}
