#version 450
// Separable blend (W3C Compositing, premultiplied) of source (input 0) onto backdrop (input 1); the source is
// transparent outside its bounds. ints.x: mode (BlendMode order); f0.x: source opacity.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
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

vec4 blendFunction(int mode, vec4 b, vec4 s) {
    switch (mode) {
        case 0: return s;
        case 1: return b * s;
        case 2: return screen(b, s);
        case 3: return hardLight(s, b);
        case 4: return softLight(b, s);
        case 5: return hardLight(b, s);
        case 6: return min(b, s);
        case 7: return max(b, s);
        case 8: return abs(b - s);
        case 9: return b + s - 2.0 * b * s;
        case 10: return min(b + s, vec4(1.0));
        default: return max(b - s, vec4(0.0));
    }
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 b = pixel1(p.x, p.y);
    if (p.x >= pc.size.z || p.y >= pc.size.w) { store(p, b); return; }
    vec4 s = pixel0(p.x, p.y) * pc.f0.x;
    float aS = s.a, aB = b.a;
    vec4 straightS = aS > 0.0 ? s / aS : vec4(0.0);
    vec4 straightB = aB > 0.0 ? b / aB : vec4(0.0);
    vec4 result = s * (1.0 - aB) + b * (1.0 - aS) + blendFunction(pc.ints.x, straightB, straightS) * (aS * aB);
    result.a = aS + aB * (1.0 - aS);
    store(p, result);
}
