// Working images: premultiplied RGBA floats, rows packed.
layout(std430, set = 0, binding = 0) writeonly buffer Output { vec4 dst[]; };
layout(std430, set = 0, binding = 1) readonly buffer Input0 { vec4 src0[]; };
layout(std430, set = 0, binding = 2) readonly buffer Input1 { vec4 src1[]; };
layout(std430, set = 0, binding = 3) readonly buffer Input2 { vec4 src2[]; };

// Pixel (x, y) of input 0 with coordinates clamped to its edges.
vec4 clamped0(int x, int y) {
    return src0[clamp(y, 0, pc.size.w - 1) * pc.size.z + clamp(x, 0, pc.size.z - 1)];
}

void store(ivec2 p, vec4 v) { dst[p.y * pc.size.x + p.x] = v; }
