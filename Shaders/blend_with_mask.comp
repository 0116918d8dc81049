#version 450
// mix(background, foreground, m), m = clamp(mask luminance × mask alpha); inputs (foreground, background, mask),
// foreground and mask transparent outside their bounds. MASK_LINEAR_COVERAGE = 1: m is the mask's sRGB-encoded straight
// luminance × alpha (a coverage mask in linear working space).
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 b = pixel1(p.x, p.y);
    bool inForeground = p.x < pc.size.z && p.y < pc.size.w;
    bool inMask = p.x < pc.size2.z && p.y < pc.size2.w;
    vec4 f = inForeground ? pixel0(p.x, p.y) : vec4(0.0);
    vec4 m = inMask ? pixel2(p.x, p.y) : vec4(0.0);
    float weight = luma(m);
    if (MASK_LINEAR_COVERAGE == 1) {
        float straight = m.a > 0.0 ? clamp(weight / m.a, 0.0, 1.0) : 0.0;
        float encoded = straight <= 0.0031308 ? 12.92 * straight : 1.055 * pow(straight, 1.0 / 2.4) - 0.055;
        weight = encoded * m.a;
    }
    weight = inMask ? clamp(weight, 0.0, 1.0) : 0.0;
    store(p, b + (f - b) * weight);
}
