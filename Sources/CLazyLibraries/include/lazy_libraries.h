// libheif, libjxl, Pango, libavif and libimagequant are loaded on first use, not when the program starts: with their codecs (x265, libde265,
// libaom, dav1d, highway) they cost every process about 5.5 ms to load and initialise — more than a small photo's
// whole render — though most renders read neither format. Each function the codecs call is a small trampoline here,
// jumping through a pointer the loader fills from the library.
#ifndef FR_LAZY_LIBRARIES_H
#define FR_LAZY_LIBRARIES_H

/// Loads libheif (once; safe from any thread). 1 when its functions may be called, 0 when it could not be loaded
/// (`fr_lazy_heif_error` says why).
int fr_lazy_load_heif(void);
const char *fr_lazy_heif_error(void);

/// Loads libjxl and libjxl_threads (once; safe from any thread), as above.
int fr_lazy_load_jxl(void);
const char *fr_lazy_jxl_error(void);

/// Loads Pango with its FreeType backend through libpangoft2 (once; safe from any thread), as above: text is set by
/// few renders.
int fr_lazy_load_pango(void);
const char *fr_lazy_pango_error(void);
/// Loads libtiff (once; safe from any thread), as above: TIFF is read or written by few renders.
int fr_lazy_load_tiff(void);
const char *fr_lazy_tiff_error(void);
/// Loads cairo and Pango's cairo backend through libpangocairo (once; safe from any thread): for the fonts
/// PangoFT2 cannot draw.
int fr_lazy_load_pangocairo(void);
const char *fr_lazy_pangocairo_error(void);
/// Loads libavif (once; safe from any thread), as above: only AVIF sequences need it.
int fr_lazy_load_avif(void);
const char *fr_lazy_avif_error(void);

/// Loads libde265 (once; safe from any thread), as above: HEVC pictures in HEIC files.
int fr_lazy_load_de265(void);
const char *fr_lazy_de265_error(void);

/// Loads libimagequant (once; safe from any thread), as above: only GIF outputs quantise.
int fr_lazy_load_imagequant(void);
const char *fr_lazy_imagequant_error(void);
#endif
