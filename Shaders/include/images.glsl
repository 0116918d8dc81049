// Working images: premultiplied RGBA (WORKING: float32 or packed halves), rows packed, each buffer holding a band of
// its image's rows.
layout(std430, set = 0, binding = BINDING_OUTPUT) writeonly buffer Output { WORKING dst[]; };
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Input0 { WORKING src0[]; };
layout(std430, set = 0, binding = BINDING_INPUT1) readonly buffer Input1 { WORKING src1[]; };
layout(std430, set = 0, binding = BINDING_INPUT2) readonly buffer Input2 { WORKING src2[]; };

// Pixel (x, y) of each input, y a row of the whole image that the band holds.
vec4 pixel0(int x, int y) { return loadWorking(src0[(y - pc.rows.z) * pc.size.z + x]); }
vec4 pixel1(int x, int y) { return loadWorking(src1[(y - pc.rows.w) * pc.size2.x + x]); }
vec4 pixel2(int x, int y) { return loadWorking(src2[(y - pc.rows2.x) * pc.size2.z + x]); }

// Pixel (x, y) of input 0 with coordinates clamped to the edges of its whole image.
vec4 clamped0(int x, int y) { return pixel0(clamp(x, 0, pc.size.z - 1), clamp(y, 0, pc.size.w - 1)); }

#ifdef POST_OPS
// Per-pixel steps fused into this kernel's store (generated; see PointKernelSource).
vec4 postOps(ivec2 p, vec4 v);
#endif

void store(ivec2 p, vec4 v) {
#ifdef POST_OPS
    v = postOps(p, v);
#endif
    dst[(p.y - pc.rows.x) * pc.size.x + p.x] = storeWorking(v);
}
