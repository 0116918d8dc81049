#version 450
// Working values → stored 8- or 16-bit samples: unpremultiply, clamp to [0, 1], encode, round to nearest.
// One invocation writes one 32-bit word, so no two invocations share a word; words run along x, then y (a 2D grid,
// because one axis of work groups is limited to 65535).
// ints: channels, bytes per sample, linear (1) or sRGB (0), words in this band. The band starts on a word
// boundary: rows.y rows of width size.x, read from the start of input 0 and written from the start of the binding.
layout(local_size_x = 256) in;
#include "common.glsl"
layout(std430, set = 0, binding = 0) writeonly buffer Packed { uint words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Input0 { WORKING src0[]; };

float encoded(float v) {
    if (pc.ints.z == 0) return v;
    float position = v * float(ENCODE_STEPS);
    int index = int(position);
    if (index >= ENCODE_STEPS) return tables[ENCODE + ENCODE_STEPS];
    float fraction = position - float(index);
    return tables[ENCODE + index] + fraction * (tables[ENCODE + index + 1] - tables[ENCODE + index]);
}

uint code(int sampleIndex) {
    int channels = pc.ints.x;
    int pixel = sampleIndex / channels, channel = sampleIndex - pixel * channels;
    vec4 v = loadWorking(src0[pixel]);
    float a = unit(v.a);
    vec4 straight = v.a > 0.0 ? v / v.a : vec4(0.0);  // unpremultiply by the unclamped alpha, then clamp
    straight = unit(straight);
    float maxCode = pc.ints.y == 1 ? 255.0 : 65535.0;
    bool hasAlpha = channels == 2 || channels == 4;
    if (hasAlpha && channel == channels - 1) return uint(int(a * maxCode + 0.5));
    if (pc.ints.y == 1 && pc.ints.z == 1 && channels >= 3) {
        int index = int(straight[channel] * float(ENCODE_STEPS) + 0.5);
        return uint(tables[ENCODE8 + index]);
    }
    float value = channels <= 2 ? 0.2126 * straight.r + 0.7152 * straight.g + 0.0722 * straight.b : straight[channel];
    return uint(int(encoded(value) * maxCode + 0.5));
}

void main() {
    int word = int(gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u + gl_GlobalInvocationID.x);
    if (word >= pc.ints.w) return;
    int samples = pc.size.x * pc.rows.y * pc.ints.x;
    uint result = 0u;
    if (pc.ints.y == 1) {
        for (int b = 0; b < 4; b++) {
            int index = word * 4 + b;
            if (index < samples) result |= (code(index) & 0xffu) << (8 * b);
        }
    } else {
        for (int h = 0; h < 2; h++) {
            int index = word * 2 + h;
            if (index < samples) result |= (code(index) & 0xffffu) << (16 * h);
        }
    }
    words[word] = result;
}
