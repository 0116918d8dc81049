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

// code / 255 rounded as a division rounds (the UNIT8 table's entries): the product with 1/255 is wrong for 126 of
// the 256 codes, one correction step by a fused multiply-add makes every one exact. Cheaper than the table's load,
// which a kernel reading a source's samples pays a tap.
float unit8(uint code) {
    precise float k = float(code);
    precise float q = k * (1.0 / 255.0);
    precise float e = fma(-q, 255.0, k);
    precise float r = fma(e, 1.0 / 255.0, q);
    return r;
}

// A colour code as a working value: linear light through the decoding table, or the code's fraction of its largest.
float storedColour(uint code, int bytesPerSample, bool linear, float unit) {
    if (bytesPerSample == 1) return linear ? tables[DECODE8 + int(code)] : unit8(code);
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
        // Grey's three channels each add a zero read from the tables (the first entries of UNIT8, DECODE8 and
        // DECODE16): a compiler that knows a reader's red, green and blue are one value folds its arithmetic across
        // them (a luma's three products into one), which moved Sobel and sharpening results by a code.
        float g = storedColour(c0, bytesPerSample, linear, unit);
        v = vec4(g + tables[UNIT8], g + tables[DECODE8], g + tables[DECODE16], 1.0);
    } else {
        v = vec4(storedColour(c0, bytesPerSample, linear, unit), storedColour(c1, bytesPerSample, linear, unit),
                 storedColour(c2, bytesPerSample, linear, unit), 1.0);
    }
    v *= a;
    v.a = a;
    return v;
}

#endif
