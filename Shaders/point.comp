#version 450
// A fused chain of per-pixel operations on straight colour. The body at the marker below is generated from the
// chain (see PointKernelSource); its parameters are read from the parameter block, so one compiled kernel serves
// every parameter value of the same chain.
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "images.glsl"

float curve(int table, float x) {
    float position = clamp(x, 0.0, 1.0) * 4096.0;
    int i = min(int(position), 4095);
    float f = position - float(i);
    return params[table + i] + f * (params[table + i + 1] - params[table + i]);
}

float powSigned(float v, float p) { return v >= 0.0 ? pow(v, p) : -pow(-v, p); }

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 v = pixel0(p.x, p.y);
    float a = v.a;
    vec4 c = a > 0.0 ? v / a : vec4(0.0);
    c.a = a;
    // @OPS
    float alpha = c.a;
    c *= alpha;
    c.a = alpha;
    store(p, c);
}
