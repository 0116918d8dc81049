#version 450
// Square odd kernel on premultiplied RGB plus bias; alpha passes through. ints.x: size; f0.x: bias;
// params: the kernel, row-major.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int size = pc.ints.x, r = size / 2;
    float bias = pc.f0.x;
    vec4 sum = vec4(bias, bias, bias, 0.0);
    for (int j = 0; j < size; j++) {
        for (int i = 0; i < size; i++) {
            float k = params[j * size + i];
            if (k != 0.0) sum += clamped0(p.x + i - r, p.y + j - r) * k;
        }
    }
    sum.a = pixel0(p.x, p.y).a;
    store(p, sum);
}
