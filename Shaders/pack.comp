#version 450
// Working values → stored 8- or 16-bit samples: unpremultiply, clamp to [0, 1], encode, round to nearest.
// One invocation writes one 32-bit word, so no two invocations share a word; words run along x, then y (a 2D grid,
// because one axis of work groups is limited to 65535).
// PACK_CHANNELS, PACK_BYTES_PER_SAMPLE, PACK_LINEAR (1) or sRGB (0), PACK_WORDS in this band. The band starts on a word
// boundary: rows.y rows of width size.x, read from the start of input 0 and written from the start of the binding.
layout(local_size_x = 256) in;
#include "common.glsl"
#include "kernel_constants.glsl"
layout(std430, set = 0, binding = BINDING_OUTPUT) writeonly buffer Packed { uint words[]; };
layout(std430, set = 0, binding = BINDING_INPUT0) readonly buffer Input0 { WORKING src0[]; };

float encoded(float v) {
    if (PACK_LINEAR == 0) return v;
    float position = v * float(ENCODE_STEPS);
    int index = int(position);
    if (index >= ENCODE_STEPS) return tables[ENCODE + ENCODE_STEPS];
    float fraction = position - float(index);
    return tables[ENCODE + index] + fraction * (tables[ENCODE + index + 1] - tables[ENCODE + index]);
}

// One sample's code from its pixel's straight (unpremultiplied, clamped) colour and alpha.
uint code(vec4 straight, float a, int channel) {
    int channels = PACK_CHANNELS;
    float maxCode = PACK_BYTES_PER_SAMPLE == 1 ? 255.0 : 65535.0;
    bool hasAlpha = channels == 2 || channels == 4;
    if (hasAlpha && channel == channels - 1) return uint(int(a * maxCode + 0.5));
    if (PACK_BYTES_PER_SAMPLE == 1 && PACK_LINEAR == 1 && channels >= 3) {
        int index = int(straight[channel] * float(ENCODE_STEPS) + 0.5);
        return uint(tables[ENCODE8 + index]);
    }
    float value = channels <= 2 ? 0.2126 * straight.r + 0.7152 * straight.g + 0.0722 * straight.b : straight[channel];
    return uint(int(encoded(value) * maxCode + 0.5));
}

void main() {
    int word = int(gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u + gl_GlobalInvocationID.x);
    if (word >= PACK_WORDS) return;
    int channels = PACK_CHANNELS;
    int samples = pc.size.x * pc.rows.y * channels;
    int perWord = PACK_BYTES_PER_SAMPLE == 1 ? 4 : 2;
    // A word's samples span one to four pixels: each pixel is loaded and unpremultiplied once, not per sample.
    int pixel = -1;
    vec4 straight = vec4(0.0);
    float a = 0.0;
    uint result = 0u;
    for (int k = 0; k < perWord; k++) {
        int index = word * perWord + k;
        if (index >= samples) break;
        int p = index / channels, channel = index - p * channels;
        if (p != pixel) {
            pixel = p;
            vec4 v = loadWorking(src0[p]);
            a = unit(v.a);
            straight = unit(v.a > 0.0 ? v / v.a : vec4(0.0));  // unpremultiply by the unclamped alpha, then clamp
        }
        uint c = code(straight, a, channel);
        result |= perWord == 4 ? (c & 0xffu) << (8 * k) : (c & 0xffffu) << (16 * k);
    }
    words[word] = result;
}
