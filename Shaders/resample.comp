#version 450
// Resampling along one axis. ints: taps per output sample, vertical (1) or horizontal (0).
// params: for each output sample, `taps` input indices, then (after all indices) `taps` weights.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // reshaped for bands of few rows (VulkanRun.launch)
#include "common.glsl"
#include "kernel_constants.glsl"
#include "images.glsl"

void main() {
    ivec2 p;
    if (!outputPixel(p)) return;
    int taps = RESAMPLE_TAPS;
    bool vertical = RESAMPLE_VERTICAL == 1;
    int sampleIndex = vertical ? p.y : p.x;
    int outSize = vertical ? pc.size.y : pc.size.x;
    int weights = outSize * taps;
    vec4 sum = vec4(0.0);
    for (int t = 0; t < taps; t++) {
        float w = params[weights + sampleIndex * taps + t];
        if (w == 0.0) continue;
        int i = int(params[sampleIndex * taps + t]);
        sum += (vertical ? pixel0(p.x, i) : pixel0(i, p.y)) * w;
    }
    store(p, sum);
}
