// Unsharp masking's combination of a pixel `o` with its blur `b` (both premultiplied). On straight colour,
// d = C − C_blurred and C += amount·d where |d| ≥ threshold; alpha kept, so flat colour stays flat across alpha edges.
// UNSHARP_AMOUNT, UNSHARP_THRESHOLD: push constants f0.x, f0.y. Used by unsharp_combine.comp, and by a blur's last
// pass that stores the combination itself (STORE_UNSHARP in images.glsl).
#ifndef UNSHARP_GLSL
#define UNSHARP_GLSL

vec4 unsharpCombine(vec4 o, vec4 b) {
    float a = o.a;
    vec3 c = a > 0.0 ? o.rgb / a : vec3(0.0);
    vec3 d = b.a > 0.0 ? c - b.rgb / b.a : vec3(0.0);
    float threshold = UNSHARP_THRESHOLD;
    if (threshold > 0.0) d = mix(d, vec3(0.0), lessThan(abs(d), vec3(threshold)));
    return vec4((c + d * UNSHARP_AMOUNT) * a, a);
}

#endif
