// Affine resampling (rotate, shear, enlarge) reading 8-bit stored samples directly, so the rows a rotation must
// hold (up to the whole input) stay 1–4 bytes a pixel instead of four floats. An AVX2 + FMA loop where the CPU has
// them (fr_kernels_avx2), a portable one elsewhere.
#ifndef FR_AFFINE_H
#define FR_AFFINE_H
#include <stddef.h>
#include <stdint.h>

/// Where the taps of one output row come from and how they read.
typedef struct {
    /// The input rows held: row `first_row` at `base`, `rows` of them, `stride` bytes apart.
    const uint8_t *base;
    ptrdiff_t stride;
    int first_row, rows;
    /// The input's size in pixels and its samples per pixel (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA).
    int width, height, channels;
    /// 512 floats: entries 0–255 the working value of a colour code, 256–511 that of an alpha code. Colour is
    /// premultiplied by alpha after the lookup; samples without alpha read as opaque.
    const float *table;
    /// Nonzero when the colour entries are code / 255 (the sRGB working space): converted, not looked up.
    int unit;
    /// Taps per axis: 2 bilinear (0…1), 4 Keys' bicubic (a = −½, −1…2), 6 Lanczos-3 (−2…3).
    int taps;
    /// For 6 taps: the six normalised weights at t = i / lanczos_steps past tap 0, i = 0…lanczos_steps, read with
    /// linear interpolation (Lanczos-3 is smooth: the error stays below 1e-5 of a weight at 1024 steps).
    const float *lanczos;
    int lanczos_steps;
    /// The working value written where every tap lies outside the input.
    float background[4];
} fr_affine_source;

/// Samples output pixels 0..<count of one row into `out` (4 floats each): pixel x reads the input around
/// (u0 + x·du, v0 + x·dv), in input pixel units whose integers are pixel centres. Pixels whose taps straddle the
/// input's edge (some inside, some out) are not written: their indices go to `edges` (room for `count`), and
/// their number is returned.
size_t fr_affine8_row(float *out, uint32_t *edges, size_t count, double u0, double v0, double du, double dv,
                      const fr_affine_source *source);

/// A projective map from output pixel centres to input positions (corner origin): m row-major, w = m[6]·x + m[7]·y
/// + m[8], x_in = (m[0]·x + m[1]·y + m[2]) / w, y_in = (m[3]·x + m[4]·y + m[5]) / w; where w ≤ 1e-12 the point lies
/// behind the view. The kernel widens by the lengths of the rows of the map's Jacobian, from 1 to `max_widening`.
typedef struct {
    double m[9];
    double max_widening;
} fr_projective_map;

/// Samples output pixels 0..<count of the row whose centres lie at height `y` into `out` (4 floats each), reading
/// `source` (its `taps` say the kernel: 2 bilinear, 4 bicubic, 6 Lanczos-3) with the kernel widened where the map
/// shrinks, each widened weight computed in float from the kernel's definition and normalised. Pixels behind the
/// view or whose taps all miss the input read the background; those whose taps straddle the input's edge (or the
/// held rows) are left to the caller: their indices go to `edges`, their number is returned.
size_t fr_projective8_row(float *out, uint32_t *edges, size_t count, double y, const fr_projective_map *map,
                          const fr_affine_source *source);
#endif
