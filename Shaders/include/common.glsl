// Shared by every kernel: the push constants, the per-dispatch parameter block, the conversion tables and helpers.
// Binding layout (one descriptor set layout for all kernels, KernelLayout.Slot): output, three inputs, parameters, tables.
//
// Images are processed in bands of rows (one band when they fit the device's buffers): a buffer holds rows
// [first, first + count) of its image, and kernels address pixels by their row in the whole image, so results do
// not depend on the banding.

#include "kernel_constants.glsl"

layout(push_constant) uniform Push {
    ivec4 size;    // output width, height; input 0 width, height (whole images)
    ivec4 size2;   // input 1 width, height; input 2 width, height
    ivec4 ints;    // kernel-specific integers, read by the names KernelParameters.swift generates
    ivec4 rows;    // first output row of this band, output rows in this band, first row held of input 0, of input 1
    ivec4 rows2;   // first row held of input 2; byte offset of packed samples in their binding (pack and unpack)
    vec4 f0;       // kernel-specific floats (likewise)
    vec4 f1;
    vec4 f2;
} pc;

layout(std430, set = 0, binding = BINDING_PARAMS) readonly buffer Params { float params[]; };

// Conversion tables, identical to the CPU backend's so both backends convert pixels bit for bit; their offsets
// (DECODE8, UNIT8, DECODE16, ENCODE, ENCODE8) and ENCODE_STEPS come from ConversionTables.swift.
layout(std430, set = 0, binding = BINDING_TABLES) readonly buffer Tables { float tables[]; };

// Clamped to [0, 1] with NaN mapped to 0 (clamp() leaves NaN undefined, and these values become table indices).
float unit(float v) { return v >= 0.0 ? min(v, 1.0) : 0.0; }
vec4 unit(vec4 v) { return vec4(unit(v.x), unit(v.y), unit(v.z), unit(v.w)); }

// Working pixels in device buffers: RGBA float32, or with HALF_WORKING (recipes whose inputs and output are 8-bit)
// four half floats in a uvec2 through packHalf2x16, which needs no optional device feature. Kernels compute in
// float32 either way; only storage changes, halving device memory and bandwidth.
#ifdef HALF_WORKING
#define WORKING uvec2
vec4 loadWorking(uvec2 h) { return vec4(unpackHalf2x16(h.x), unpackHalf2x16(h.y)); }
uvec2 storeWorking(vec4 v) { return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
#else
#define WORKING vec4
vec4 loadWorking(vec4 v) { return v; }
vec4 storeWorking(vec4 v) { return v; }
#endif

float luma(vec4 v) { return 0.2126 * v.r + 0.7152 * v.g + 0.0722 * v.b; }

// The invocation's output pixel (in whole-image coordinates); false when it lies outside the band.
bool outputPixel(out ivec2 p) {
    p = ivec2(gl_GlobalInvocationID.x, int(gl_GlobalInvocationID.y) + pc.rows.x);
    return p.x < pc.size.x && int(gl_GlobalInvocationID.y) < pc.rows.y;
}
