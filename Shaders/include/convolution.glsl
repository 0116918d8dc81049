// The 2-D convolution's rule, shared by its plain and tiled kernels (convolve.comp, convolve_tiled.comp).
// CONVOLVE_SIZE (odd, square); CONVOLVE_PRESERVE_ALPHA (1: the kernel reads straight colour and alpha is kept; 0: all
// four premultiplied channels are convolved); CONVOLVE_BIAS, added to straight colour. params: the kernel, row-major.

// What the kernel reads of a pixel: straight colour where alpha is kept, the premultiplied pixel otherwise.
vec4 convolutionInput(vec4 v) {
    if (CONVOLVE_PRESERVE_ALPHA != 1) return v;
    return v.a > 0.0 ? v / v.a : vec4(0.0);
}

// The pixel at p from the weighted sum of what the kernel read: the bias added to straight colour, and the pixel's
// own alpha kept (preserveAlpha) or the summed alpha taken.
vec4 convolutionResult(ivec2 p, vec4 sum) {
    float bias = CONVOLVE_BIAS;
    if (CONVOLVE_PRESERVE_ALPHA == 1) {
        float a = pixel0(p.x, p.y).a;
        return vec4((sum.rgb + bias) * a, a);
    }
    sum.rgb += bias * sum.a;
    return sum;
}
