// Shared by every kernel: the push constants, the per-dispatch parameter block, the conversion tables and helpers.
// Binding layout (one descriptor set layout for all kernels): 0 output, 1–3 inputs, 4 parameters, 5 tables.
//
// Images are processed in bands of rows (one band when they fit the device's buffers): a buffer holds rows
// [first, first + count) of its image, and kernels address pixels by their row in the whole image, so results do
// not depend on the banding.

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

layout(std430, set = 0, binding = 4) readonly buffer Params { float params[]; };

// Conversion tables, identical to the CPU backend's so both backends convert pixels bit for bit.
layout(std430, set = 0, binding = 5) readonly buffer Tables { float tables[]; };
const int DECODE8 = 0;          // 256 linear values of 8-bit codes
const int UNIT8 = 256;          // 256 values code/255
const int DECODE16 = 512;       // 65536 linear values of 16-bit codes
const int ENCODE = 66048;       // 65537 encoded values on a 1/65536 linear grid (interpolated)
const int ENCODE8 = 131585;     // 65537 8-bit codes on the same grid (nearest)
const int ENCODE_STEPS = 65536;

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
