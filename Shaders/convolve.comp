#version 450
// Square odd kernel (a correlation), edges clamped. ints.x: size; ints.y: preserveAlpha (1: the kernel reads
// straight colour and alpha is kept; 0: all four premultiplied channels are convolved); f0.x: bias, added to
// straight colour. params: the kernel, row-major.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int size = pc.ints.x, r = size / 2;
    bool preserveAlpha = pc.ints.y == 1;
    float bias = pc.f0.x;
    vec4 sum = vec4(0.0);
    for (int j = 0; j < size; j++) {
        for (int i = 0; i < size; i++) {
            float k = params[j * size + i];
            if (k == 0.0) continue;
            vec4 v = clamped0(p.x + i - r, p.y + j - r);
            if (preserveAlpha) v = v.a > 0.0 ? v / v.a : vec4(0.0);
            sum += v * k;
        }
    }
    if (preserveAlpha) {
        float a = pixel0(p.x, p.y).a;
        sum = vec4((sum.rgb + bias) * a, a);
    } else {
        sum.rgb += bias * sum.a;
    }
    store(p, sum);
}
