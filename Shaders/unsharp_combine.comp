#version 450
// Unsharp mask's last step: inputs (original, blurred); RGB += amount·d where |d| ≥ threshold, d = original − blurred.
// f0: amount, threshold.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 a = pixel0(p.x, p.y), b = pixel1(p.x, p.y);
    vec4 d = a - b;
    d.a = 0.0;
    float threshold = pc.f0.y;
    if (threshold > 0.0) d = mix(d, vec4(0.0), lessThan(abs(d), vec4(threshold)));
    store(p, a + d * pc.f0.x);
}
