#version 450
// Local tone (ToneAdjust): inputs (image, base lightness). On straight colour: ℓ = sRGB-encode(Y), moved against
// the base b by the shadow and highlight curves and the detail gain, then the colour scaled by Y'/Y (a black pixel
// becomes the grey Y'); alpha kept. TONE_SHADOWS, TONE_HIGHLIGHTS, TONE_DETAIL. VulkanRun defines
// ENCODED_WORKING where working values are sRGB-encoded.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

// @SPACE

// The sRGB transfer (IEC 61966-2-1) as the CPU's ToneAdjustStage applies it: encoding clamps to [0, 1], decoding
// keeps the sign. Named for this kernel: fused per-pixel steps bring point_ops.glsl's own.
vec3 toneEncode(vec3 v) {
    vec3 x = clamp(v, 0.0, 1.0);
    return mix(1.055 * pow(x, vec3(1.0 / 2.4)) - 0.055, 12.92 * x, lessThanEqual(x, vec3(0.0031308)));
}
vec3 toneDecode(vec3 v) {
    vec3 x = abs(v);
    return sign(v) * mix(pow((x + 0.055) / 1.055, vec3(2.4)), x / 12.92, lessThanEqual(x, vec3(0.04045)));
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 o = pixel0(p.x, p.y), w = pixel1(p.x, p.y);
    float a = o.a;
    vec3 c = a > 0.0 ? o.rgb / a : vec3(0.0);
#ifdef ENCODED_WORKING
    c = toneDecode(c);
#endif
    float y = luma(vec4(c, 1.0));
    float l = toneEncode(vec3(y)).x;
    float b = clamp(w.a > 0.0 ? w.r / w.a : w.r, 0.0, 1.0);
    float k = 27.0 / 16.0;
    float b1 = b + TONE_SHADOWS * k * b * (1.0 - b) * (1.0 - b);
    float b2 = b1 - TONE_HIGHLIGHTS * k * b1 * b1 * (1.0 - b1);
    float moved = b2 + (1.0 + TONE_DETAIL) * (l - b);
    float target = toneDecode(vec3(max(moved, 0.0))).x;
    c = y > 0.0 ? c * (target / y) : vec3(target);
#ifdef ENCODED_WORKING
    c = toneEncode(c);
#endif
    store(p, vec4(c * a, a));
}
