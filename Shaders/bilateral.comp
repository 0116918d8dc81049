#version 450
// The bilateral filter (Bilateral): neighbours weighted by distance and likeness, 2^(−‖Δv‖²·BILATERAL_RANGE_SCALE) times each
// tap's spatial weight. `params` holds BILATERAL_TAPS taps as (dx, dy, weight) triples, the centre first, in the order the
// CPU backend sums them; taps outside the image are left out.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 centre = pixel0(p.x, p.y), sum = centre;
    float norm = 1.0;
    for (int t = 1; t < BILATERAL_TAPS; t++) {
        ivec2 q = p + ivec2(int(params[3 * t]), int(params[3 * t + 1]));
        if (q.x < 0 || q.y < 0 || q.x >= pc.size.z || q.y >= pc.size.w) continue;
        vec4 v = pixel0(q.x, q.y), d = v - centre, s = d * d;
        float w = exp2(((s.x + s.y) + (s.z + s.w)) * -BILATERAL_RANGE_SCALE) * params[3 * t + 2];
        sum += v * w;
        norm += w;
    }
    store(p, sum / norm);
}
