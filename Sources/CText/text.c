#include "text.h"
#include "lazy_libraries.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// Pango's and cairo's C API as this file calls it, declared here rather than taken from their headers: the
// libraries are loaded on first use through CLazyLibraries' trampolines, so building needs neither their headers
// nor their development packages. Types are opaque; enumerations are their documented (ABI-stable) values.
typedef struct PangoFontMap PangoFontMap;
typedef struct PangoContext PangoContext;
typedef struct PangoLayout PangoLayout;
typedef struct PangoFontDescription PangoFontDescription;
typedef struct PangoFontFamily PangoFontFamily;
typedef struct cairo_font_options_t cairo_font_options_t;
typedef struct cairo_surface_t cairo_surface_t;
typedef struct cairo_t cairo_t;
typedef struct PangoLayoutIter PangoLayoutIter;
typedef struct PangoFont PangoFont;
typedef struct FcPattern FcPattern;
typedef struct { int x, y, width, height; } PangoRectangle;
// The leading fields of PangoItem and PangoGlyphItem (public structs, unchanged through Pango 1.x): a run's font.
typedef struct { void *shape_engine, *lang_engine; PangoFont *font; } PangoAnalysisStart;
typedef struct { int offset, length, num_chars; PangoAnalysisStart analysis; } PangoItemStart;
typedef struct { PangoItemStart *item; } PangoGlyphItem;
// FreeType's bitmap descriptor (freetype/ftimage.h): an 8-bit coverage buffer pangoft2 draws into.
typedef struct {
    unsigned int rows, width;
    int pitch;
    unsigned char *buffer;
    unsigned short num_grays;
    unsigned char pixel_mode, palette_mode;
    void *palette;
} FT_Bitmap;
enum { FT_PIXEL_MODE_GRAY = 2, FC_HINT_NONE = 0 };
enum { PANGO_SCALE = 1024, PANGO_STYLE_ITALIC = 2, PANGO_WRAP_WORD_CHAR = 2 };
enum { CAIRO_FORMAT_A8 = 2, CAIRO_ANTIALIAS_GRAY = 2, CAIRO_HINT_STYLE_NONE = 1, CAIRO_HINT_METRICS_OFF = 1 };

PangoFontMap *pango_cairo_font_map_new(void);
PangoFontMap *pango_ft2_font_map_new(void);
void pango_ft2_font_map_set_resolution(PangoFontMap *map, double x, double y);
void pango_ft2_font_map_set_default_substitute(PangoFontMap *map, void (*substitute)(FcPattern *, void *), void *data,
                                               void (*notify)(void *));
void pango_ft2_render_layout(FT_Bitmap *bitmap, PangoLayout *layout, int x, int y);
PangoLayoutIter *pango_layout_get_iter(PangoLayout *layout);
PangoGlyphItem *pango_layout_iter_get_run_readonly(PangoLayoutIter *iter);
int pango_layout_iter_next_run(PangoLayoutIter *iter);
void pango_layout_iter_free(PangoLayoutIter *iter);
void g_object_get(void *object, const char *first_property, ...);
int FcPatternDel(FcPattern *pattern, const char *object);
int FcPatternAddBool(FcPattern *pattern, const char *object, int value);
int FcPatternAddInteger(FcPattern *pattern, const char *object, int value);
int FcPatternGetBool(const FcPattern *pattern, const char *object, int n, int *value);
PangoContext *pango_font_map_create_context(PangoFontMap *map);
void pango_font_map_list_families(PangoFontMap *map, PangoFontFamily ***families, int *count);
const char *pango_font_family_get_name(PangoFontFamily *family);
void pango_cairo_context_set_resolution(PangoContext *context, double dpi);
void pango_context_set_round_glyph_positions(PangoContext *context, int round);
void pango_cairo_context_set_font_options(PangoContext *context, const cairo_font_options_t *options);
cairo_font_options_t *cairo_font_options_create(void);
void cairo_font_options_set_antialias(cairo_font_options_t *options, int antialias);
void cairo_font_options_set_hint_style(cairo_font_options_t *options, int style);
void cairo_font_options_set_hint_metrics(cairo_font_options_t *options, int metrics);
void cairo_font_options_destroy(cairo_font_options_t *options);
PangoLayout *pango_layout_new(PangoContext *context);
void pango_layout_set_text(PangoLayout *layout, const char *text, int length);
void pango_layout_set_font_description(PangoLayout *layout, const PangoFontDescription *description);
void pango_layout_set_alignment(PangoLayout *layout, int alignment);
void pango_layout_set_width(PangoLayout *layout, int width);
void pango_layout_set_wrap(PangoLayout *layout, int wrap);
void pango_layout_set_line_spacing(PangoLayout *layout, float factor);
void pango_layout_get_extents(PangoLayout *layout, PangoRectangle *ink, PangoRectangle *logical);
int pango_layout_get_unknown_glyphs_count(PangoLayout *layout);
PangoFontDescription *pango_font_description_new(void);
void pango_font_description_set_family(PangoFontDescription *description, const char *family);
void pango_font_description_set_absolute_size(PangoFontDescription *description, double size);
void pango_font_description_set_weight(PangoFontDescription *description, int weight);
void pango_font_description_set_style(PangoFontDescription *description, int style);
void pango_font_description_free(PangoFontDescription *description);
void pango_cairo_show_layout(cairo_t *cr, PangoLayout *layout);
cairo_surface_t *cairo_image_surface_create(int format, int width, int height);
unsigned char *cairo_image_surface_get_data(cairo_surface_t *surface);
int cairo_image_surface_get_stride(cairo_surface_t *surface);
int cairo_surface_status(cairo_surface_t *surface);
void cairo_surface_flush(cairo_surface_t *surface);
void cairo_surface_destroy(cairo_surface_t *surface);
cairo_t *cairo_create(cairo_surface_t *target);
void cairo_move_to(cairo_t *cr, double x, double y);
void cairo_destroy(cairo_t *cr);
void g_object_unref(void *object);
void g_free(void *memory);

// Pango objects are not thread safe, so every call holds the lock. Text is drawn by PangoFT2 (FreeType's
// rasteriser straight into the coverage bytes), which loads Pango's FreeType backend alone; cairo, pixman and the
// X11 client libraries cairo links (about 2.4 MiB of resident pages) load only for a font fontconfig emboldens
// (a bold asked of a family without one) or a colour font, which PangoFT2 cannot draw. Both draw the same unhinted
// outlines at the same whole-pixel origins: the same bytes where both can draw (BENCHMARKS.md), and TextTests hold
// each to pango-view's.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static PangoFontMap *ft2_map, *cairo_map;

// Unhinted outlines with grey antialiasing, whatever the system's fontconfig prefers: what the cairo path asks
// through its font options.
static void unhinted(FcPattern *pattern, void *data) {
    (void)data;
    FcPatternDel(pattern, "hinting");
    FcPatternAddBool(pattern, "hinting", 0);
    FcPatternDel(pattern, "hintstyle");
    FcPatternAddInteger(pattern, "hintstyle", FC_HINT_NONE);
    FcPatternDel(pattern, "antialias");
    FcPatternAddBool(pattern, "antialias", 1);
}

// One font map per renderer for the process (building one reads fontconfig's cache).
static PangoFontMap *shared_map(void) {
    if (!ft2_map) {
        ft2_map = pango_ft2_font_map_new();
        pango_ft2_font_map_set_resolution(ft2_map, 72, 72);
        pango_ft2_font_map_set_default_substitute(ft2_map, unhinted, NULL, NULL);
    }
    return ft2_map;
}

static int compare_names(const void *a, const void *b) {
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

// The installed families, sorted, joined by ", " into out.
static void list_families(char *out, size_t size) {
    PangoFontFamily **families = NULL;
    int count = 0;
    pango_font_map_list_families(shared_map(), &families, &count);
    const char **names = malloc(sizeof(char *) * (size_t)(count > 0 ? count : 1));
    for (int i = 0; i < count; i++) names[i] = pango_font_family_get_name(families[i]);
    qsort(names, (size_t)count, sizeof(char *), compare_names);
    size_t used = 0;
    if (size) out[0] = 0;
    for (int i = 0; i < count && used + 1 < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
    free(names);
    g_free(families);
}

// Whether `family` names an installed family or a generic one fontconfig resolves.
static int family_installed(const char *family) {
    static const char *const generic[] = {"sans-serif", "sans", "serif", "monospace", "mono", "system-ui", NULL};
    for (const char *const *g = generic; *g; g++)
        if (!strcasecmp(family, *g)) return 1;
    PangoFontFamily **families = NULL;
    int count = 0, found = 0;
    pango_font_map_list_families(shared_map(), &families, &count);
    for (int i = 0; i < count && !found; i++) found = !strcasecmp(family, pango_font_family_get_name(families[i]));
    g_free(families);
    return found;
}

// A rectangle in Pango units to the pixels it touches: starts rounded down, ends up.
static void to_pixels(PangoRectangle *r) {
    const int x0 = (int)floor(r->x / (double)PANGO_SCALE), y0 = (int)floor(r->y / (double)PANGO_SCALE);
    const int x1 = (int)ceil((r->x + (double)r->width) / PANGO_SCALE);
    const int y1 = (int)ceil((r->y + (double)r->height) / PANGO_SCALE);
    r->x = x0;
    r->y = y0;
    r->width = x1 - x0;
    r->height = y1 - y0;
}

// Whether a run of `layout` needs cairo to be drawn: its font is emboldened by fontconfig or in colour.
static int needs_cairo(PangoLayout *layout) {
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    int needed = 0;
    do {
        const PangoGlyphItem *run = pango_layout_iter_get_run_readonly(iter);
        if (!run || !run->item->analysis.font) continue;  // the end of a line; a run no font covers
        FcPattern *pattern = NULL;
        g_object_get(run->item->analysis.font, "pattern", &pattern, NULL);
        int embolden = 0, colour = 0;
        if (pattern && FcPatternGetBool(pattern, "embolden", 0, &embolden) != 0) embolden = 0;
        if (pattern && FcPatternGetBool(pattern, "color", 0, &colour) != 0) colour = 0;
        needed = embolden || colour;
    } while (!needed && pango_layout_iter_next_run(iter));
    pango_layout_iter_free(iter);
    return needed;
}

// The cairo font map and a context set as the FreeType one is (cairo's font options say it for cairo).
static PangoContext *cairo_context(void) {
    if (!cairo_map) cairo_map = pango_cairo_font_map_new();
    PangoContext *context = pango_font_map_create_context(cairo_map);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    pango_cairo_context_set_resolution(context, 72);
    return context;
}

// `s` laid out in `context`.
static PangoLayout *lay_out(PangoContext *context, const fr_text_style *s) {
    // Unhinted outlines and metrics at fractional positions with grey antialiasing: text scales smoothly with its
    // size and lands where its metrics say, as on a page rather than a screen.
    pango_context_set_round_glyph_positions(context, 0);
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *description = pango_font_description_new();
    pango_font_description_set_family(description, s->family);
    pango_font_description_set_absolute_size(description, s->size * PANGO_SCALE);
    pango_font_description_set_weight(description, s->weight);
    if (s->italic) pango_font_description_set_style(description, PANGO_STYLE_ITALIC);
    pango_layout_set_font_description(layout, description);
    pango_font_description_free(description);
    pango_layout_set_alignment(layout, s->align);
    if (s->wrap_width > 0) {
        pango_layout_set_width(layout, s->wrap_width * PANGO_SCALE);
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    }
    if (s->line_spacing > 0) pango_layout_set_line_spacing(layout, (float)s->line_spacing);
    pango_layout_set_text(layout, s->text, -1);
    return layout;
}

static int render_locked(const fr_text_style *s, fr_text_mask *mask, char *error, size_t size) {
    if (!family_installed(s->family)) {
        char installed[1536];
        list_families(installed, sizeof installed);
        snprintf(error, size, "the font family \"%s\" is not installed; installed: %s", s->family, installed);
        return 1;
    }
    PangoContext *context = pango_font_map_create_context(shared_map());
    PangoLayout *layout = lay_out(context, s);
    const int by_cairo = needs_cairo(layout);
    if (by_cairo) {
        g_object_unref(layout);
        g_object_unref(context);
        if (!fr_lazy_load_pangocairo()) {
            snprintf(error, size, "this text's font needs cairo to be drawn (Debian: libpangocairo-1.0-0): %s",
                     fr_lazy_pangocairo_error());
            return 2;
        }
        context = cairo_context();
        layout = lay_out(context, s);
    }

    int status = 0;
    cairo_surface_t *surface = NULL;
    cairo_t *cr = NULL;
    const int unknown = pango_layout_get_unknown_glyphs_count(layout);
    PangoRectangle ink, logical;
    pango_layout_get_extents(layout, &ink, &logical);
    // To whole pixels, outward (what covers every partly covered pixel).
    to_pixels(&ink);
    to_pixels(&logical);
    // The box runs from the layout's origin to its widest line (or wrap width) and its last line; the mask grows
    // past it to hold any ink outside (italic overhangs, tall marks).
    int box_width = logical.x + logical.width, box_height = logical.y + logical.height;
    if (s->wrap_width > box_width) box_width = s->wrap_width;
    int left = 0, top = 0, right = box_width, bottom = box_height;
    if (ink.width > 0 && ink.height > 0) {
        // A pixel more each way: Pango measures a glyph once, but places it at fractional positions, where its
        // antialiased edge can reach the next pixel.
        if (ink.x - 1 < left) left = ink.x - 1;
        if (ink.y - 1 < top) top = ink.y - 1;
        if (ink.x + ink.width + 1 > right) right = ink.x + ink.width + 1;
        if (ink.y + ink.height + 1 > bottom) bottom = ink.y + ink.height + 1;
    }
    const long width = right - left, height = bottom - top;
    if (unknown > 0) {
        snprintf(error, size, "%d character%s of the text %s in no installed font (install one that covers %s, "
                 "e.g. Debian's fonts-noto-core)", unknown, unknown == 1 ? "" : "s", unknown == 1 ? "is" : "are",
                 unknown == 1 ? "it" : "them");
        status = 1;
    } else if (logical.width <= 0 || logical.height <= 0 || width <= 0 || height <= 0) {
        // A non-empty text always has line boxes: none means Pango's coordinates (2^31 / 1024 pixels) overflowed.
        snprintf(error, size, "the text sets to more than Pango can measure: use a smaller size or a wrap width");
        status = 1;
    } else if (width > 1000000 || height > 1000000 || width * height > s->max_pixels) {
        snprintf(error, size, "the text sets to %ld×%ld pixels, more than the %ld allowed: use a smaller size or "
                 "wrap width", width, height, s->max_pixels);
        status = 1;
    } else if (by_cairo) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, (int)width, (int)height);
        mask->coverage = cairo_surface_status(surface) == 0 ? malloc((size_t)(width * height)) : NULL;
        if (mask->coverage) {
            cr = cairo_create(surface);
            cairo_move_to(cr, -left, -top);
            pango_cairo_show_layout(cr, layout);
            cairo_surface_flush(surface);
            const unsigned char *data = cairo_image_surface_get_data(surface);
            const int stride = cairo_image_surface_get_stride(surface);
            for (long y = 0; y < height; y++) memcpy(mask->coverage + y * width, data + y * stride, (size_t)width);
        }
    } else if ((mask->coverage = calloc((size_t)(width * height), 1))) {
        FT_Bitmap bitmap = {.rows = (unsigned)height, .width = (unsigned)width, .pitch = (int)width,
                            .buffer = mask->coverage, .num_grays = 256, .pixel_mode = FT_PIXEL_MODE_GRAY};
        pango_ft2_render_layout(&bitmap, layout, -left, -top);
    }
    if (status == 0 && !mask->coverage) {
        snprintf(error, size, "cannot allocate a %ld×%ld text block", width, height);
        status = 1;
    } else if (status == 0) {
        mask->width = (int)width;
        mask->height = (int)height;
        mask->box_width = box_width;
        mask->box_height = box_height;
        mask->left = left;
        mask->top = top;
    }
    if (cr) cairo_destroy(cr);
    if (surface) cairo_surface_destroy(surface);
    g_object_unref(layout);
    g_object_unref(context);
    return status;
}

int fr_text_render(const fr_text_style *style, fr_text_mask *mask, char *error, size_t size) {
    mask->width = mask->height = 0;
    mask->coverage = NULL;
    if (!fr_lazy_load_pango()) {
        snprintf(error, size, "text needs Pango (Debian: libpangoft2-1.0-0): %s", fr_lazy_pango_error());
        return 2;
    }
    pthread_mutex_lock(&lock);
    const int status = render_locked(style, mask, error, size);
    pthread_mutex_unlock(&lock);
    return status;
}

void fr_text_free(fr_text_mask *mask) {
    free(mask->coverage);
    mask->coverage = NULL;
}

int fr_text_families(char *out, size_t size) {
    if (!fr_lazy_load_pango()) return 0;
    pthread_mutex_lock(&lock);
    list_families(out, size);
    pthread_mutex_unlock(&lock);
    return 1;
}
