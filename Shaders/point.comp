#version 450
// A fused chain of per-pixel operations on straight colour. The body at the marker below is generated from the
// chain (see PointKernelSource); its parameters are read from the parameter block, so one compiled kernel serves
// every parameter value of the same chain.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "images.glsl"
#include "point_ops.glsl"


void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    vec4 v = pixel0(p.x, p.y);
    float a = v.a;
    vec4 c = a != 0.0 ? v / a : vec4(0.0);  // any alpha but 0 round-trips (ringing can make it negative)
    c.a = a;
    // @OPS
    float alpha = c.a;
    c *= alpha;
    c.a = alpha;
    store(p, c);
}
