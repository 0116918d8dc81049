#version 450
// convolve.comp tiled in shared memory (GPUs; lavapipe runs the plain kernel, see VulkanRun.tiled): a 16×16 work
// group stages its pixels and the kernel's reach around them once (at most 24 × 24 pixels, 9 KiB), already divided
// by their alpha where the kernel reads straight colour, and the kernel itself (at most 81 weights), so each input
// pixel is read from device memory about (16 + size − 1)² / 256 times instead of size² times, and unpremultiplied
// once instead of once per tap. Rows of the group past the band are staged clamped to the rows the band holds and not
// stored. The same sums in the same order as convolve.comp; parameters and alpha rule in include/convolution.glsl.
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"
#include "convolution.glsl"
layout(local_size_x = SQUARE_TILE, local_size_y = SQUARE_TILE) in;

const int SIDE = SQUARE_TILE, MAX_SIZE = 9, MAX_SPAN = SIDE + MAX_SIZE - 1;
shared vec4 tile[MAX_SPAN * MAX_SPAN];
shared float weights[MAX_SIZE * MAX_SIZE];

void main() {
    int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y), local = ly * SIDE + lx;
    int left = int(gl_WorkGroupID.x) * SIDE, top = int(gl_WorkGroupID.y) * SIDE;  // top: a row of the band
    int size = CONVOLVE_SIZE, r = size / 2, span = SIDE + size - 1;
    int lastHeld = pc.rows.x + pc.rows.y - 1 + r;  // the last row the band's input holds (before clamping)
    for (int i = local; i < span * span; i += SIDE * SIDE) {
        tile[i] = convolutionInput(clamped0(left - r + i % span, min(pc.rows.x + top - r + i / span, lastHeld)));
    }
    if (local < size * size) weights[local] = params[local];
    barrier();
    ivec2 p = ivec2(left + lx, pc.rows.x + top + ly);
    if (p.x >= pc.size.x || top + ly >= pc.rows.y) return;
    vec4 sum = vec4(0.0);
    for (int j = 0; j < size; j++) {
        for (int i = 0; i < size; i++) {
            float k = weights[j * size + i];
            if (k == 0.0) continue;
            sum += tile[(ly + j) * span + lx + i] * k;
        }
    }
    store(p, convolutionResult(p, sum));
}
