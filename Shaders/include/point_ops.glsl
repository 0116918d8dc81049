// Helpers of the generated per-pixel code (fused chains and fused stores).

// A tabulated tone curve (4097 samples at params[table...]) read with linear interpolation.
float curve(int table, float x) {
    float position = unit(x) * 4096.0;
    int i = min(int(position), 4095);
    float f = position - float(i);
    return params[table + i] + f * (params[table + i + 1] - params[table + i]);
}

float powSigned(float v, float p) { return v >= 0.0 ? pow(v, p) : -pow(-v, p); }

// sRGB encoding of linear values clamped to [0, 1], and its inverse (sign kept), IEC 61966-2-1.
vec3 srgbEncode(vec3 v) {
    vec3 x = clamp(v, 0.0, 1.0);
    return mix(1.055 * pow(x, vec3(1.0 / 2.4)) - 0.055, 12.92 * x, lessThanEqual(x, vec3(0.0031308)));
}
vec3 srgbDecode(vec3 v) {
    vec3 x = abs(v);
    vec3 linear = mix(pow((x + 0.055) / 1.055, vec3(2.4)), x / 12.92, lessThanEqual(x, vec3(0.04045)));
    return sign(v) * linear;
}

// Entry (r, g, b) of a 3D colour table of `size`³ RGB triples at params[table...], red fastest.
vec3 lutEntry(int table, int size, int r, int g, int b) {
    int i = table + 3 * (r + size * (g + size * b));
    return vec3(params[i], params[i + 1], params[i + 2]);
}

// A .cube lookup: `c` (already in the domain) scaled to grid units, then tetrahedral or trilinear for a 3D table,
// linear per channel for a 1D one (ColourLUT.apply on the CPU).
vec3 lutLookup(int table, int size, bool threeD, bool tetrahedral, vec3 lo, vec3 hi, vec3 c) {
    float n = float(size - 1);
    vec3 t = clamp((c - lo) / (hi - lo) * n, 0.0, n);
    if (!threeD) {
        vec3 out3;
        for (int k = 0; k < 3; k++) {
            int i = min(int(t[k]), size - 2);
            float f = t[k] - float(i);
            out3[k] = params[table + 3 * i + k] + f * (params[table + 3 * (i + 1) + k] - params[table + 3 * i + k]);
        }
        return out3;
    }
    int r = min(int(t.x), size - 2), g = min(int(t.y), size - 2), b = min(int(t.z), size - 2);
    vec3 f = t - vec3(r, g, b);
    vec3 c000 = lutEntry(table, size, r, g, b), c111 = lutEntry(table, size, r + 1, g + 1, b + 1);
    if (!tetrahedral) {
        vec3 x00 = mix(c000, lutEntry(table, size, r + 1, g, b), f.x);
        vec3 x10 = mix(lutEntry(table, size, r, g + 1, b), lutEntry(table, size, r + 1, g + 1, b), f.x);
        vec3 x01 = mix(lutEntry(table, size, r, g, b + 1), lutEntry(table, size, r + 1, g, b + 1), f.x);
        vec3 x11 = mix(lutEntry(table, size, r, g + 1, b + 1), c111, f.x);
        return mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);
    }
    vec3 a, m;
    if (f.x > f.y) {
        if (f.y > f.z) {
            a = lutEntry(table, size, r + 1, g, b); m = lutEntry(table, size, r + 1, g + 1, b);
            return c000 + f.x * (a - c000) + f.y * (m - a) + f.z * (c111 - m);
        } else if (f.x > f.z) {
            a = lutEntry(table, size, r + 1, g, b); m = lutEntry(table, size, r + 1, g, b + 1);
            return c000 + f.x * (a - c000) + f.z * (m - a) + f.y * (c111 - m);
        } else {
            a = lutEntry(table, size, r, g, b + 1); m = lutEntry(table, size, r + 1, g, b + 1);
            return c000 + f.z * (a - c000) + f.x * (m - a) + f.y * (c111 - m);
        }
    } else {
        if (f.z > f.y) {
            a = lutEntry(table, size, r, g, b + 1); m = lutEntry(table, size, r, g + 1, b + 1);
            return c000 + f.z * (a - c000) + f.y * (m - a) + f.x * (c111 - m);
        } else if (f.z > f.x) {
            a = lutEntry(table, size, r, g + 1, b); m = lutEntry(table, size, r, g + 1, b + 1);
            return c000 + f.y * (a - c000) + f.z * (m - a) + f.x * (c111 - m);
        } else {
            a = lutEntry(table, size, r, g + 1, b); m = lutEntry(table, size, r + 1, g + 1, b);
            return c000 + f.y * (a - c000) + f.x * (m - a) + f.z * (c111 - m);
        }
    }
}
