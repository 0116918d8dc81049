#version 450
// Generators. ints.x: GENERATOR_* — solid, linear and radial gradients, checkerboard (ints.y: square size), text
// (ints.yzw: the block's left, top and width, f2.x its height; params: its coverage, row by row, in 0…1).
// f0, f1: the two colours (working values); f2: geometry (x0, y0, x1, y1) or (cx, cy, radius, −).
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    float w = float(pc.size.x), h = float(pc.size.y);
    vec4 a = pc.f0, b = pc.f1;
    vec4 result;
    switch (pc.ints.x) {
        case GENERATOR_SOLID: result = a; break;
        case GENERATOR_LINEAR: {
            float dx = (pc.f2.z - pc.f2.x) * w, dy = (pc.f2.w - pc.f2.y) * h;
            float length2 = dx * dx + dy * dy;
            float px = float(p.x) + 0.5 - pc.f2.x * w, py = float(p.y) + 0.5 - pc.f2.y * h;
            float t = length2 > 0.0 ? clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0.0;
            result = a + (b - a) * t;
            break;
        }
        case GENERATOR_RADIAL: {
            float halfDiagonal = sqrt(w * w + h * h) / 2.0;  // in float: w² + h² overflows int32 above 46 341 px
            float px = float(p.x) + 0.5 - pc.f2.x * w, py = float(p.y) + 0.5 - pc.f2.y * h;
            float t = min(sqrt(px * px + py * py) / (pc.f2.z * halfDiagonal), 1.0);
            result = a + (b - a) * t;
            break;
        }
        case GENERATOR_TEXT: {
            ivec2 q = p - pc.ints.yz;
            bool inside = q.x >= 0 && q.y >= 0 && q.x < pc.ints.w && float(q.y) < pc.f2.x;
            result = inside ? a * params[q.y * pc.ints.w + q.x] : vec4(0.0);
            break;
        }
        default: {  // GENERATOR_CHECKERBOARD
            int size = pc.ints.y;
            result = ((p.x / size) & 1) == ((p.y / size) & 1) ? a : b;
            break;
        }
    }
    store(p, result);
}
