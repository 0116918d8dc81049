#version 450
// Blend (W3C Compositing, premultiplied) of source (input 0) onto backdrop (input 1); the source is
// transparent outside its bounds. BLEND_MODE (one of BLEND_*), BLEND_OPACITY: the source's opacity.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

vec4 screen(vec4 b, vec4 s) { return b + s - b * s; }

vec4 hardLight(vec4 b, vec4 s) { return mix(b * 2.0 * s, screen(b, 2.0 * s - 1.0), greaterThan(s, vec4(0.5))); }

vec4 softLight(vec4 b, vec4 s) {
    vec4 result;
    for (int c = 0; c < 4; c++) {
        float cb = b[c], cs = s[c];
        if (cs <= 0.5) {
            result[c] = cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
        } else {
            float d = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
            result[c] = cb + (2.0 * cs - 1.0) * (d - cb);
        }
    }
    return result;
}

// W3C Compositing §9: dodge and burn (edge cases widened to <= 0 and >= 1 for values outside 0..1) and the
// non-separable helpers.
float colorDodge(float b, float s) { return b <= 0.0 ? 0.0 : (s >= 1.0 ? 1.0 : min(1.0, b / (1.0 - s))); }
float colorBurn(float b, float s) { return b >= 1.0 ? 1.0 : (s <= 0.0 ? 0.0 : 1.0 - min(1.0, (1.0 - b) / s)); }

float lum(vec3 c) { return dot(c, vec3(0.3, 0.59, 0.11)); }

vec3 clipColor(vec3 c) {
    float l = lum(c), n = min(min(c.r, c.g), c.b), x = max(max(c.r, c.g), c.b);
    vec3 out_ = c;
    if (n < 0.0 && l > n) out_ = l + (out_ - l) * (l / (l - n));
    if (x > 1.0 && x > l) out_ = l + (out_ - l) * ((1.0 - l) / (x - l));
    return out_;
}

vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }

float sat(vec3 c) { return max(max(c.r, c.g), c.b) - min(min(c.r, c.g), c.b); }

vec3 setSat(vec3 c, float s) {
    float hi = max(max(c.r, c.g), c.b), lo = min(min(c.r, c.g), c.b);
    return hi > lo ? (c - lo) * (s / (hi - lo)) : vec3(0.0);
}

vec4 blendFunction(int mode, vec4 b, vec4 s) {
    switch (mode) {
        case BLEND_NORMAL: return s;
        case BLEND_MULTIPLY: return b * s;
        case BLEND_SCREEN: return screen(b, s);
        case BLEND_OVERLAY: return hardLight(s, b);
        case BLEND_SOFT_LIGHT: return softLight(b, s);
        case BLEND_HARD_LIGHT: return hardLight(b, s);
        case BLEND_DARKEN: return min(b, s);
        case BLEND_LIGHTEN: return max(b, s);
        case BLEND_DIFFERENCE: return abs(b - s);
        case BLEND_EXCLUSION: return b + s - 2.0 * b * s;
        case BLEND_ADD: return min(b + s, vec4(1.0));
        case BLEND_SUBTRACT: return max(b - s, vec4(0.0));
        case BLEND_COLOR_DODGE: return vec4(colorDodge(b.r, s.r), colorDodge(b.g, s.g), colorDodge(b.b, s.b), 0.0);
        case BLEND_COLOR_BURN: return vec4(colorBurn(b.r, s.r), colorBurn(b.g, s.g), colorBurn(b.b, s.b), 0.0);
        case BLEND_HUE: return vec4(setLum(setSat(s.rgb, sat(b.rgb)), lum(b.rgb)), 0.0);
        case BLEND_SATURATION: return vec4(setLum(setSat(b.rgb, sat(s.rgb)), lum(b.rgb)), 0.0);
        case BLEND_COLOR: return vec4(setLum(s.rgb, lum(b.rgb)), 0.0);
        default: return vec4(setLum(b.rgb, lum(s.rgb)), 0.0);  // BLEND_LUMINOSITY
    }
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 b = pixel1(p.x, p.y);
    if (p.x >= pc.size.z || p.y >= pc.size.w) { store(p, b); return; }
    vec4 s = pixel0(p.x, p.y) * BLEND_OPACITY;
    float aS = s.a, aB = b.a;
    vec4 straightS = aS > 0.0 ? s / aS : vec4(0.0);
    vec4 straightB = aB > 0.0 ? b / aB : vec4(0.0);
    vec4 result = s * (1.0 - aB) + b * (1.0 - aS) + blendFunction(BLEND_MODE, straightB, straightS) * (aS * aB);
    result.a = aS + aB * (1.0 - aS);
    store(p, result);
}
