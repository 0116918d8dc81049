// Working images: premultiplied RGBA (WORKING: float32 or packed halves), rows packed, each buffer holding a band of
// its image's rows.
//
// An input may instead be an uploaded source read straight from its stored samples (PackedSamples): then PACKEDn is
// defined and the reader generated at the marker below converts each pixel read as unpack.comp converts it, so no
// working copy of the source is made. Its binding starts rows2.y (input 0), rows2.z (input 1) or rows2.w (input 2)
// bytes before the first row held.
layout(std430, set = 0, binding = BINDING_OUTPUT) writeonly buffer Output { WORKING dst[]; };
#if defined(PACKED0) || defined(PACKED1) || defined(PACKED2)
#include "stored_samples.glsl"
#endif

// PackedSamples.reading writes here, for each packed input n, its binding of words and its pixeln.
// @PACKED_READERS

#ifndef PACKED0
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Input0 { WORKING src0[]; };
// Pixel (x, y) of each input, y a row of the whole image that the band holds.
vec4 pixel0(int x, int y) { return loadWorking(src0[(y - pc.rows.z) * pc.size.z + x]); }
#endif
#ifndef PACKED1
layout(std430, set = 0, binding = BINDING_INPUT1) readonly buffer Input1 { WORKING src1[]; };
vec4 pixel1(int x, int y) { return loadWorking(src1[(y - pc.rows.w) * pc.size2.x + x]); }
#endif
#ifndef PACKED2
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
