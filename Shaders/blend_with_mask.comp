#version 450
// mix(background, foreground, m), m = clamp(mask luminance × mask alpha); inputs (foreground, background, mask),
// foreground and mask transparent outside their bounds.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 b = src1[p.y * pc.size.x + p.x];
    bool inForeground = p.x < pc.size.z && p.y < pc.size.w;
    bool inMask = p.x < pc.size2.z && p.y < pc.size2.w;
    vec4 f = inForeground ? src0[p.y * pc.size.z + p.x] : vec4(0.0);
    float weight = inMask ? clamp(luma(src2[p.y * pc.size2.z + p.x]), 0.0, 1.0) : 0.0;
    store(p, b + (f - b) * weight);
}
