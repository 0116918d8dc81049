#version 450
// Generators. GENERATE_KIND: GENERATOR_* — solid, linear and radial gradients, checkerboard (GENERATE_SQUARE: its side), text
// (GENERATE_TEXT_ORIGIN, _WIDTH and _HEIGHT: the block's place and size; params: its coverage, row by row, in 0…1).
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
    vec4 a = GENERATE_A, b = GENERATE_B;
    vec4 result;
    switch (GENERATE_KIND) {
        case GENERATOR_SOLID: result = a; break;
        case GENERATOR_LINEAR: {
            float dx = (GENERATE_LINE.z - GENERATE_LINE.x) * w, dy = (GENERATE_LINE.w - GENERATE_LINE.y) * h;
            float length2 = dx * dx + dy * dy;
            float px = float(p.x) + 0.5 - GENERATE_LINE.x * w, py = float(p.y) + 0.5 - GENERATE_LINE.y * h;
            float t = length2 > 0.0 ? clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0.0;
            result = a + (b - a) * t;
            break;
        }
        case GENERATOR_RADIAL: {
            float halfDiagonal = sqrt(w * w + h * h) / 2.0;  // in float: w² + h² overflows int32 above 46 341 px
            float px = float(p.x) + 0.5 - GENERATE_CENTRE.x * w, py = float(p.y) + 0.5 - GENERATE_CENTRE.y * h;
            float t = min(sqrt(px * px + py * py) / (GENERATE_RADIUS * halfDiagonal), 1.0);
            result = a + (b - a) * t;
            break;
        }
        case GENERATOR_TEXT: {
            ivec2 q = p - GENERATE_TEXT_ORIGIN;
            bool inside = q.x >= 0 && q.y >= 0 && q.x < GENERATE_TEXT_WIDTH && float(q.y) < GENERATE_TEXT_HEIGHT;
            result = inside ? a * params[q.y * GENERATE_TEXT_WIDTH + q.x] : vec4(0.0);
            break;
        }
        default: {  // GENERATOR_CHECKERBOARD
            int size = GENERATE_SQUARE;
            result = ((p.x / size) & 1) == ((p.y / size) & 1) ? a : b;
            break;
        }
    }
    store(p, result);
}
