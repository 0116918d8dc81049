// Stored 8- or 16-bit samples (1–4 channels, packed in 32-bit words) as working values: premultiplied RGBA, colour
// through the conversion tables (so both backends convert bit for bit), alpha as code × unit. unpack.comp converts a
// source band with these, and kernels that read an uploaded source straight from its samples (PACKED0…2 in
// images.glsl) convert each pixel they read with the same functions.
#ifndef STORED_SAMPLES_GLSL
#define STORED_SAMPLES_GLSL

// The sample whose first byte is `byteOffset` bytes into a binding, read from the word holding it.
uint storedSample(uint word, int byteOffset, int bytesPerSample) {
    if (bytesPerSample == 1) return (word >> ((byteOffset & 3) * 8)) & 0xffu;
    return (word >> ((byteOffset & 2) * 8)) & 0xffffu;
}

// A colour code as a working value: linear light through the decoding table, or the code's fraction of its largest.
float storedColour(uint code, int bytesPerSample, bool linear, float unit) {
    if (bytesPerSample == 1) return tables[(linear ? DECODE8 : UNIT8) + int(code)];
    return linear ? tables[DECODE16 + int(code)] : float(code) * unit;
}

// A pixel's codes (grey in c0 for one or two channels; alpha last where there is one) as a premultiplied working pixel.
vec4 storedPixel(uint c0, uint c1, uint c2, uint alpha, int channels, int bytesPerSample, bool linear, float unit) {
    bool hasAlpha = channels == 2 || channels == 4;
    // precise: no product here may be fused into a reader's arithmetic (an FMA), so a pixel read from the samples
    // is the very value unpack.comp would have stored, and renders do not depend on which way the source was read.
    // An opaque pixel's alpha is read from the tables (UNIT8's last entry, exactly 1) rather than written as 1.0: a
    // compiler that knows a reader's input alpha is the constant 1 rewrites the reader's arithmetic (a blend's
    // b + (f − b)·w becomes another formula for a linear interpolation), which moved a 16-bit result by a code.
    precise float a = hasAlpha ? float(alpha) * unit : tables[UNIT8 + 255];
    precise vec4 v;
    if (channels <= 2) {
        float g = storedColour(c0, bytesPerSample, linear, unit);
        v = vec4(g, g, g, 1.0);
    } else {
        v = vec4(storedColour(c0, bytesPerSample, linear, unit), storedColour(c1, bytesPerSample, linear, unit),
                 storedColour(c2, bytesPerSample, linear, unit), 1.0);
    }
    v *= a;
    v.a = a;
    return v;
}

#endif
