// The CPU backend's conversions from working values (premultiplied float RGBA) to 8-bit samples, the last step of
// every render that computes new values. SSE2 (every x86-64) with a plain C path elsewhere; each result is the one
// PixelConverter's Swift definition gives, to the bit (the same divisions, clamps and roundings, none fused).
#ifndef FR_EDGES_H
#define FR_EDGES_H
#include <stddef.h>
#include <stdint.h>

/// Writes `n` working pixels as 8-bit grey (`channels` 1), grey + alpha (2), RGB (3) or RGBA (4): unpremultiplied
/// (c / α), clamped to [0, 1] (NaN to 0) — grey then the Rec. 709 luminance of that colour — then through `table`
/// at index ⌊c·steps + ½⌋ (linear light to sRGB codes) or, with no table, as ⌊c·255 + ½⌋ (values already encoded);
/// alpha as ⌊clamp(α)·255 + ½⌋. `words`, when given, is `table` with 32-bit entries, for the AVX2 loop's gathers.
void fr_encode8(uint8_t *dst, const float *src, size_t n, int channels, const uint8_t *table, const int32_t *words,
                float steps);
#endif
