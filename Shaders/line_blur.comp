#version 450
// Motion and zoom blurs (LineBlur): the mean of bilinear samples along a segment through each pixel, taps clamped to
// the image, in the CPU backend's float32 order. LineBlurKernelSource defines ZOOM_PATH for a zoom.
// Motion: MOTION_HALF_SEGMENT = (dx, dy), MOTION_COUNT samples. Zoom: ZOOM_CENTRE in pixel indices, ZOOM_FRACTION
// = s, the fraction of the way to the centre (KernelParameters.swift).
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

// @PATH

vec4 bilinear0(float x, float y) {
    float fx = floor(x), fy = floor(y);
    float tx = x - fx, ty = y - fy;
    int ix = int(fx), iy = int(fy);
    int x0 = clamp(ix, 0, pc.size.z - 1), x1 = clamp(ix + 1, 0, pc.size.z - 1);
    int y0 = clamp(iy, 0, pc.size.w - 1), y1 = clamp(iy + 1, 0, pc.size.w - 1);
    vec4 upper = pixel0(x0, y0) * (1.0 - tx) + pixel0(x1, y0) * tx;
    vec4 lower = pixel0(x0, y1) * (1.0 - tx) + pixel0(x1, y1) * tx;
    return upper * (1.0 - ty) + lower * ty;
}

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    float x = float(p.x), y = float(p.y);
#ifdef ZOOM_PATH
    float ux = x - ZOOM_CENTRE.x, uy = y - ZOOM_CENTRE.y, s = ZOOM_FRACTION;
    int count = 1 + int(ceil(s * sqrt(ux * ux + uy * uy)));
    float inverse = count > 1 ? -s / float(count - 1) : 0.0;
    float x0 = x, y0 = y, stepX = ux * inverse, stepY = uy * inverse;
#else
    int count = MOTION_COUNT;
    float inverse = count > 1 ? 2.0 / float(count - 1) : 0.0;
    vec2 segment = MOTION_HALF_SEGMENT;
    float x0 = x - segment.x, y0 = y - segment.y, stepX = segment.x * inverse, stepY = segment.y * inverse;
#endif
    vec4 sum = vec4(0.0);
    for (int k = 0; k < count; k++) sum += bilinear0(x0 + stepX * float(k), y0 + stepY * float(k));
    store(p, sum / float(count));
}
