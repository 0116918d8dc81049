// Affine resampling of one plane of 8-bit samples into 8-bit samples: a JPEG's Y, Cb or Cr plane rotated or
// sheared on its own, so a rotation from a JPEG to a JPEG holds the file's planes (1.5 bytes a pixel for 4:2:0)
// instead of RGB rows (3), and converts colour neither way. An AVX2 + FMA loop where the CPU has them
// (fr_kernels_avx2), a portable one elsewhere; both give the same codes up to the last bit of a float sum.
#ifndef FR_PLANE_WARP_H
#define FR_PLANE_WARP_H
#include <stddef.h>
#include <stdint.h>

/// A plane of samples and how it is read.
typedef struct {
    /// `height` rows of `width` samples, `stride` bytes apart; each row readable 3 bytes past its last sample (the
    /// vector loop loads four taps' bytes at once).
    const uint8_t *base;
    ptrdiff_t stride;
    int width, height;
    /// Taps per axis: 2 bilinear (0…1), 4 Keys' bicubic (a = −½, −1…2).
    int taps;
    /// The sample every tap outside the plane reads (a code, 0–255).
    float background;
} fr_plane_source;

/// Output samples 0..<count of one row into `out`: sample x is the kernel's weighted sum around (u0 + x·du,
/// v0 + x·dv), in input sample units whose integers are sample centres, rounded to the nearest code and clamped
/// to 0…255.
void fr_plane_warp_row(uint8_t *out, size_t count, double u0, double v0, double du, double dv, const fr_plane_source *s);
#endif
