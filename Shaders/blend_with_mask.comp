#version 450
// mix(background, foreground, m), m = clamp(mask luminance × mask alpha); inputs (foreground, background, mask),
// foreground and mask transparent outside their bounds.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 b = pixel1(p.x, p.y);
    bool inForeground = p.x < pc.size.z && p.y < pc.size.w;
    bool inMask = p.x < pc.size2.z && p.y < pc.size2.w;
    vec4 f = inForeground ? pixel0(p.x, p.y) : vec4(0.0);
    float weight = inMask ? clamp(luma(pixel2(p.x, p.y)), 0.0, 1.0) : 0.0;
    store(p, b + (f - b) * weight);
}
