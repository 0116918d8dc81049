// Working images: premultiplied RGBA (WORKING: float32 or packed halves), rows packed, each buffer holding a band of
// its image's rows.
//
// An input may instead be an uploaded source read straight from its stored samples (VulkanRun.packedReads): then
// PACKEDn is its channels, PACKEDn_BYTES its bytes a sample, PACKEDn_UNIT 1 / its largest code and PACKED_LINEAR
// the working space; its binding starts rows2.y (input 0), rows2.z (input 1) or rows2.w (input 2) bytes before the
// first row held. Each pixel read is converted as unpack.comp converts it, so no working copy of the source is made.
layout(std430, set = 0, binding = BINDING_OUTPUT) writeonly buffer Output { WORKING dst[]; };
#if defined(PACKED0) || defined(PACKED1) || defined(PACKED2)
#include "stored_samples.glsl"
#endif

#ifdef PACKED0
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Input0 { uint words0[]; };
uint sample0(int index) {
    int byteOffset = pc.rows2.y + index * PACKED0_BYTES;
    return storedSample(words0[byteOffset >> 2], byteOffset, PACKED0_BYTES);
}
vec4 pixel0(int x, int y) {
    int base = ((y - pc.rows.z) * pc.size.z + x) * PACKED0;
    return storedPixel(sample0(base), PACKED0 > 2 ? sample0(base + 1) : 0u, PACKED0 > 2 ? sample0(base + 2) : 0u,
                       PACKED0 == 2 || PACKED0 == 4 ? sample0(base + PACKED0 - 1) : 0u, PACKED0, PACKED0_BYTES,
                       PACKED_LINEAR == 1, PACKED0_UNIT);
}
#else
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Input0 { WORKING src0[]; };
// Pixel (x, y) of each input, y a row of the whole image that the band holds.
vec4 pixel0(int x, int y) { return loadWorking(src0[(y - pc.rows.z) * pc.size.z + x]); }
#endif

#ifdef PACKED1
layout(std430, set = 0, binding = BINDING_INPUT1) readonly buffer Input1 { uint words1[]; };
uint sample1(int index) {
    int byteOffset = pc.rows2.z + index * PACKED1_BYTES;
    return storedSample(words1[byteOffset >> 2], byteOffset, PACKED1_BYTES);
}
vec4 pixel1(int x, int y) {
    int base = ((y - pc.rows.w) * pc.size2.x + x) * PACKED1;
    return storedPixel(sample1(base), PACKED1 > 2 ? sample1(base + 1) : 0u, PACKED1 > 2 ? sample1(base + 2) : 0u,
                       PACKED1 == 2 || PACKED1 == 4 ? sample1(base + PACKED1 - 1) : 0u, PACKED1, PACKED1_BYTES,
                       PACKED_LINEAR == 1, PACKED1_UNIT);
}
#else
layout(std430, set = 0, binding = BINDING_INPUT1) readonly buffer Input1 { WORKING src1[]; };
vec4 pixel1(int x, int y) { return loadWorking(src1[(y - pc.rows.w) * pc.size2.x + x]); }
#endif

#ifdef PACKED2
layout(std430, set = 0, binding = BINDING_INPUT2) readonly buffer Input2 { uint words2[]; };
uint sample2(int index) {
    int byteOffset = pc.rows2.w + index * PACKED2_BYTES;
    return storedSample(words2[byteOffset >> 2], byteOffset, PACKED2_BYTES);
}
vec4 pixel2(int x, int y) {
    int base = ((y - pc.rows2.x) * pc.size2.z + x) * PACKED2;
    return storedPixel(sample2(base), PACKED2 > 2 ? sample2(base + 1) : 0u, PACKED2 > 2 ? sample2(base + 2) : 0u,
                       PACKED2 == 2 || PACKED2 == 4 ? sample2(base + PACKED2 - 1) : 0u, PACKED2, PACKED2_BYTES,
                       PACKED_LINEAR == 1, PACKED2_UNIT);
}
#else
layout(std430, set = 0, binding = BINDING_INPUT2) readonly buffer Input2 { WORKING src2[]; };
vec4 pixel2(int x, int y) { return loadWorking(src2[(y - pc.rows2.x) * pc.size2.z + x]); }
#endif

// Pixel (x, y) of input 0 with coordinates clamped to the edges of its whole image.
vec4 clamped0(int x, int y) { return pixel0(clamp(x, 0, pc.size.z - 1), clamp(y, 0, pc.size.w - 1)); }

#ifdef POST_OPS
// Per-pixel steps fused into this kernel's store (generated; see PointKernelSource).
vec4 postOps(ivec2 p, vec4 v);
#endif

#ifdef STORE_UNSHARP
// A blur's last pass that stores unsharp masking's combination of input 1 (the original) with the blur, instead of
// the blur (VulkanRun.fuseUnsharpCombine).
#include "unsharp.glsl"
#endif

void store(ivec2 p, vec4 v) {
#ifdef STORE_UNSHARP
    v = unsharpCombine(pixel1(p.x, p.y), v);
#endif
#ifdef POST_OPS
    v = postOps(p, v);
#endif
    dst[(p.y - pc.rows.x) * pc.size.x + p.x] = storeWorking(v);
}
