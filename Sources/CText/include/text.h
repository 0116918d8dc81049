// Text set with real shaping (HarfBuzz through Pango, fonts through fontconfig) and rasterised by FreeType (cairo
// for the fonts it cannot draw) as an 8-bit coverage mask. Pango is loaded on first use (CLazyLibraries): most
// renders draw no text.
#ifndef FR_TEXT_H
#define FR_TEXT_H
#include <stddef.h>
#include <stdint.h>

/// What to set. Sizes are in pixels; the layout's direction follows the text (Unicode bidi), so right-to-left
/// scripts need nothing set.
typedef struct {
    const char *text;       // UTF-8
    const char *family;     // a fontconfig family ("DejaVu Sans") or a generic one ("sans-serif", "serif", "monospace")
    double size;            // the em size in pixels
    int weight;             // CSS/OpenType weight, 100–1000
    int italic;             // nonzero: the family's italic (or oblique) face
    int align;              // 0 left, 1 centre, 2 right (of the lines within the block)
    int wrap_width;         // pixels; lines break at words (or characters in a word too long) past it; 0: no wrapping
    double line_spacing;    // a factor of the font's line height (1: the font's own); 0 keeps the font's
    long max_pixels;        // the largest mask allowed: a larger block is refused before any allocation
} fr_text_style;

/// The rasterised text: `width`×`height` coverage bytes (0 transparent … 255 covered), rows `width` apart. The
/// layout box — from the layout's origin to the end of its widest line (or its wrap width) and its last line, what
/// placement uses — is `box_width`×`box_height`; the coverage starts at (`left`, `top`) from the box's origin (≤ 0:
/// ink outside the box, an italic overhang or a tall mark, is kept).
typedef struct {
    int width, height, box_width, box_height, left, top;
    uint8_t *coverage;      // malloc'd; fr_text_free releases it
} fr_text_mask;

/// Sets and rasterises `style` into `mask`. Returns 0 on success; otherwise a message in `error` (room for `size`
/// bytes) and 1 for a problem with the text or style (a font not installed, characters no installed font covers,
/// a block too large), 2 when Pango (or cairo, for a font that needs it) cannot be loaded. Thread safe (calls are
/// serialised: Pango's font maps are shared).
int fr_text_render(const fr_text_style *style, fr_text_mask *mask, char *error, size_t size);
void fr_text_free(fr_text_mask *mask);

/// The installed font families, comma-separated and sorted, into `out` (truncated to `size`); 0 when Pango cannot
/// be loaded.
int fr_text_families(char *out, size_t size);
#endif
