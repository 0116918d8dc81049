#version 450
// Unsharp mask's last step: inputs (original, alpha-weighted blur). On straight colour, d = C − C_blurred and
// C += amount·d where |d| ≥ threshold; alpha kept, so flat colour stays flat across alpha edges. f0: amount, threshold.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 o = pixel0(p.x, p.y), b = pixel1(p.x, p.y);
    float a = o.a;
    vec3 c = a > 0.0 ? o.rgb / a : vec3(0.0);
    vec3 d = b.a > 0.0 ? c - b.rgb / b.a : vec3(0.0);
    float threshold = UNSHARP_THRESHOLD;
    if (threshold > 0.0) d = mix(d, vec3(0.0), lessThan(abs(d), vec3(threshold)));
    store(p, vec4((c + d * UNSHARP_AMOUNT) * a, a));
}
