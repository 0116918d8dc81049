// Helpers of the generated per-pixel code (fused chains and fused stores).

// A tabulated tone curve (4097 samples at params[table...]) read with linear interpolation.
float curve(int table, float x) {
    float position = unit(x) * 4096.0;
    int i = min(int(position), 4095);
    float f = position - float(i);
    return params[table + i] + f * (params[table + i + 1] - params[table + i]);
}

float powSigned(float v, float p) { return v >= 0.0 ? pow(v, p) : -pow(-v, p); }
