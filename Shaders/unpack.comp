#version 450
// Stored 8- or 16-bit samples (1–4 channels, packed in 32-bit words) → working values.
// UNPACK_CHANNELS, UNPACK_BYTES_PER_SAMPLE, UNPACK_LINEAR (1) or sRGB (0) working space; UNPACK_UNIT: 1/255 or
// 1/65535.
// rows.z: the first row the packed binding holds; rows2.y: that row's byte offset in the binding.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "stored_samples.glsl"
layout(std430, set = 0, binding = BINDING_OUTPUT) writeonly buffer Output { WORKING dst[]; };
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Packed { uint words[]; };

// Sample `index` counted from the first row held; the binding starts `rows2.y` bytes before that row.
uint sampleAt(int index) {
    int byteOffset = pc.rows2.y + index * UNPACK_BYTES_PER_SAMPLE;
    return storedSample(words[byteOffset >> 2], byteOffset, UNPACK_BYTES_PER_SAMPLE);
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int channels = UNPACK_CHANNELS;
    int base = ((p.y - pc.rows.z) * pc.size.x + p.x) * channels;
    vec4 v = storedPixel(sampleAt(base), channels > 2 ? sampleAt(base + 1) : 0u, channels > 2 ? sampleAt(base + 2) : 0u,
                         channels == 2 || channels == 4 ? sampleAt(base + channels - 1) : 0u, channels,
                         UNPACK_BYTES_PER_SAMPLE, UNPACK_LINEAR == 1, UNPACK_UNIT);
    dst[(p.y - pc.rows.x) * pc.size.x + p.x] = storeWorking(v);
}
