#version 450
// Stored 8- or 16-bit samples (1–4 channels, packed in 32-bit words) → working values.
// UNPACK_CHANNELS, UNPACK_BYTES_PER_SAMPLE, UNPACK_LINEAR (1) or sRGB (0) working space; UNPACK_UNIT: 1/255 or
// 1/65535.
// rows.z: the first row the packed binding holds; rows2.y: that row's byte offset in the binding.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
layout(std430, set = 0, binding = BINDING_OUTPUT) writeonly buffer Output { WORKING dst[]; };
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Packed { uint words[]; };

// Sample `index` counted from the first row held; the binding starts `rows2.y` bytes before that row.
uint sampleAt(int index) {
    int byteOffset = pc.rows2.y + index * UNPACK_BYTES_PER_SAMPLE;
    if (UNPACK_BYTES_PER_SAMPLE == 1) return (words[byteOffset >> 2] >> ((byteOffset & 3) * 8)) & 0xffu;
    return (words[byteOffset >> 2] >> ((byteOffset & 2) * 8)) & 0xffffu;
}

float colour(uint code) {
    bool linear = UNPACK_LINEAR == 1;
    if (UNPACK_BYTES_PER_SAMPLE == 1) return tables[(linear ? DECODE8 : UNIT8) + int(code)];
    return linear ? tables[DECODE16 + int(code)] : float(code) * UNPACK_UNIT;
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int channels = UNPACK_CHANNELS;
    bool hasAlpha = channels == 2 || channels == 4;
    int base = ((p.y - pc.rows.z) * pc.size.x + p.x) * channels;
    float a = hasAlpha ? float(sampleAt(base + channels - 1)) * UNPACK_UNIT : 1.0;
    vec4 v;
    if (channels <= 2) {
        float g = colour(sampleAt(base));
        v = vec4(g, g, g, 1.0);
    } else {
        v = vec4(colour(sampleAt(base)), colour(sampleAt(base + 1)), colour(sampleAt(base + 2)), 1.0);
    }
    v *= a;
    v.a = a;
    dst[(p.y - pc.rows.x) * pc.size.x + p.x] = storeWorking(v);
}
