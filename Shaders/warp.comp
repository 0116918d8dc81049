#version 450
// Warping (rotate by any angle, affine, perspective): each output pixel samples input 0 at the map of its centre
// with a 2D kernel, widened by the shrink factor on each input axis; taps outside the input, and pixels behind the
// view (w ≤ 0), read the background.
// WARP_AB, _C, _D, _E, _F: the map's rows [a, b, c, d, e, f] (output → input, corner origin); params[WARP_PARAM_ROW_G,
// _H, _I]: its projective row [g, h, i] (0, 0, 1 when affine); WARP_SCALE: an affine map's kernel scale on x and y;
// params[WARP_PARAM_MAX_WIDENING]: a projective map's widening bound; WARP_BACKGROUND (working value); WARP_KERNEL (KERNEL_*).
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

const float PI = 3.14159265358979;

float radiusOf(int kernel) { return kernel == KERNEL_BILINEAR ? 1.0 : (kernel == KERNEL_BICUBIC ? 2.0 : 3.0); }

float weight(int kernel, float x) {
    x = abs(x);
    if (kernel == KERNEL_BILINEAR) return max(0.0, 1.0 - x);
    if (kernel == KERNEL_BICUBIC) {  // Catmull–Rom (a = −0.5)
        if (x < 1.0) return (1.5 * x - 2.5) * x * x + 1.0;
        if (x < 2.0) return ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0;
        return 0.0;
    }
    if (x < 1e-6) return 1.0;
    if (x >= 3.0) return 0.0;
    float px = PI * x;
    return 3.0 * sin(px) * sin(px / 3.0) / (px * px);
}

vec4 tap(int x, int y) {
    return x < 0 || y < 0 || x >= pc.size.z || y >= pc.size.w ? WARP_BACKGROUND : pixel0(x, y);
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec2 o = vec2(p) + 0.5;
    vec2 q = vec2(dot(WARP_AB, o) + WARP_C, dot(vec2(WARP_D, WARP_E), o) + WARP_F);
    vec2 scale = WARP_SCALE;
    bool projective = params[WARP_PARAM_ROW_G] != 0.0 || params[WARP_PARAM_ROW_H] != 0.0 || params[WARP_PARAM_ROW_I] != 1.0;
    if (projective) {
        float w = params[WARP_PARAM_ROW_G] * o.x + params[WARP_PARAM_ROW_H] * o.y + params[WARP_PARAM_ROW_I];
        if (!(w > 1e-12)) {
            store(p, WARP_BACKGROUND);
            return;
        }
        q /= w;
        // The Jacobian's rows: ∂x_in/∂(x, y) = ((a, b) − (g, h)·x_in) / w, the same for y_in with (d, e).
        vec2 gh = vec2(params[WARP_PARAM_ROW_G], params[WARP_PARAM_ROW_H]);
        vec2 rowX = (WARP_AB - gh * q.x) / w, rowY = (vec2(WARP_D, WARP_E) - gh * q.y) / w;
        scale = clamp(vec2(length(rowX), length(rowY)), vec2(1.0), vec2(params[WARP_PARAM_MAX_WIDENING]));
    }
    int kernel = WARP_KERNEL;
    // Far outside the input every tap reads background; deciding it in float keeps int conversions defined.
    vec2 reach = (kernel == KERNEL_NEAREST ? vec2(0.0) : radiusOf(kernel) * scale) + 1.0;
    if (!(q.x > -reach.x && q.y > -reach.y && q.x < float(pc.size.z) + reach.x && q.y < float(pc.size.w) + reach.y)) {
        store(p, WARP_BACKGROUND);
        return;
    }
    if (kernel == KERNEL_NEAREST) {
        store(p, tap(int(floor(q.x)), int(floor(q.y))));
        return;
    }
    vec2 u = q - 0.5, support = radiusOf(kernel) * scale;
    ivec2 first = ivec2(ceil(u - support)), last = ivec2(floor(u + support));
    vec4 sum = vec4(0.0);
    float sumX = 0.0, sumY = 0.0;
    for (int i = first.x; i <= last.x; i++) sumX += weight(kernel, (float(i) - u.x) / scale.x);
    for (int j = first.y; j <= last.y; j++) {
        float wy = weight(kernel, (float(j) - u.y) / scale.y);
        sumY += wy;
        if (wy == 0.0) continue;
        vec4 line = vec4(0.0);
        for (int i = first.x; i <= last.x; i++) line += tap(i, j) * weight(kernel, (float(i) - u.x) / scale.x);
        sum += line * wy;
    }
    float total = sumX * sumY;
    store(p, total != 0.0 ? sum / total : WARP_BACKGROUND);
}
