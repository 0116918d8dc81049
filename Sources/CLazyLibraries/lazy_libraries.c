#include "lazy_libraries.h"
#include <dlfcn.h>
#include <jxl/version.h>
#include <pthread.h>
#include <stdio.h>

// The functions of each library the codecs and text call (Sources/HEIFCodec, Sources/JXLCodec, Sources/CText,
// Sources/GIFCodec's writer, Sources/CTIFFShim): a
// call to one not listed
// fails to link, so the lists cannot fall behind the code.
#define HEIF_FUNCTIONS(X) \
    X(heif_context_add_XMP_metadata) \
    X(heif_context_add_exif_metadata) \
    X(heif_context_alloc) \
    X(heif_context_encode_image) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_number_of_top_level_images) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_set_maximum_image_size_limit) \
    X(heif_context_write) \
    X(heif_decode_image) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossless) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_parameter_integer) \
    X(heif_encoder_set_parameter_string) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_get_version) \
    X(heif_get_version_number_major) \
    X(heif_get_version_number_minor) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_height) \
    X(heif_image_get_nclx_color_profile) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_ispe_height) \
    X(heif_image_handle_get_ispe_width) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_content_type) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_metadata_type) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_number_of_metadata_blocks) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_is_premultiplied_alpha) \
    X(heif_image_handle_release) \
    X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) \
    X(heif_image_set_raw_color_profile) \
    X(heif_init) \
    X(heif_nclx_color_profile_alloc) \
    X(heif_nclx_color_profile_free) \
    X(heif_nclx_color_profile_set_color_primaries) \
    X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_nclx_color_profile_set_transfer_characteristics) \
    X(heif_register_decoder_plugin)

#define JXL_FUNCTIONS(X) \
    X(JxlColorEncodingSetToLinearSRGB) \
    X(JxlColorEncodingSetToSRGB) \
    X(JxlDecoderCloseInput) \
    X(JxlDecoderCreate) \
    X(JxlDecoderDestroy) \
    X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderGetBoxType) \
    X(JxlDecoderGetColorAsEncodedProfile) \
    X(JxlDecoderGetColorAsICCProfile) \
    X(JxlDecoderGetFrameHeader) \
    X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderImageOutBufferSize) \
    X(JxlDecoderProcessInput) \
    X(JxlDecoderReleaseBoxBuffer) \
    X(JxlDecoderSetBoxBuffer) \
    X(JxlDecoderSetDecompressBoxes) \
    X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderSetInput) \
    X(JxlDecoderSetPreferredColorProfile) \
    X(JxlDecoderSetKeepOrientation) \
    X(JxlDecoderSetParallelRunner) \
    X(JxlDecoderSetUnpremultiplyAlpha) \
    X(JxlDecoderSubscribeEvents) \
    X(JxlEncoderAddBox) \
    X(JxlEncoderAddImageFrame) \
    X(JxlEncoderCloseBoxes) \
    X(JxlEncoderCloseInput) \
    X(JxlEncoderCreate) \
    X(JxlEncoderDestroy) \
    X(JxlEncoderFrameSettingsCreate) \
    X(JxlEncoderFrameSettingsSetOption) \
    X(JxlEncoderInitFrameHeader) \
    X(JxlEncoderSetFrameHeader) \
    X(JxlEncoderInitBasicInfo) \
    X(JxlEncoderProcessOutput) \
    X(JxlEncoderSetBasicInfo) \
    X(JxlEncoderSetColorEncoding) \
    X(JxlEncoderSetFrameDistance) \
    X(JxlEncoderSetFrameLossless) \
    X(JxlEncoderSetICCProfile) \
    X(JxlEncoderSetParallelRunner) \
    X(JxlEncoderUseBoxes)

#define JXL_THREADS_FUNCTIONS(X) \
    X(JxlThreadParallelRunner) \
    X(JxlThreadParallelRunnerCreate) \
    X(JxlThreadParallelRunnerDefaultNumWorkerThreads) \
    X(JxlThreadParallelRunnerDestroy)

// Pango with its FreeType backend (and, through its dependencies, GLib, GObject and fontconfig).
#define PANGO_FUNCTIONS(X) \
    X(FcPatternAddBool) \
    X(FcPatternAddInteger) \
    X(FcPatternDel) \
    X(FcPatternGetBool) \
    X(g_free) \
    X(g_object_get) \
    X(g_object_unref) \
    X(pango_context_set_round_glyph_positions) \
    X(pango_font_description_free) \
    X(pango_font_description_new) \
    X(pango_font_description_set_absolute_size) \
    X(pango_font_description_set_family) \
    X(pango_font_description_set_style) \
    X(pango_font_description_set_weight) \
    X(pango_font_family_get_name) \
    X(pango_font_map_create_context) \
    X(pango_font_map_list_families) \
    X(pango_ft2_font_map_new) \
    X(pango_ft2_font_map_set_default_substitute) \
    X(pango_ft2_font_map_set_resolution) \
    X(pango_ft2_render_layout) \
    X(pango_layout_get_extents) \
    X(pango_layout_get_iter) \
    X(pango_layout_get_unknown_glyphs_count) \
    X(pango_layout_iter_free) \
    X(pango_layout_iter_get_run_readonly) \
    X(pango_layout_iter_next_run) \
    X(pango_layout_new) \
    X(pango_layout_set_alignment) \
    X(pango_layout_set_font_description) \
    X(pango_layout_set_line_spacing) \
    X(pango_layout_set_text) \
    X(pango_layout_set_width) \
    X(pango_layout_set_wrap)

// Pango's cairo backend and cairo, for the fonts PangoFT2 cannot draw (Sources/CText).
#define PANGOCAIRO_FUNCTIONS(X) \
    X(cairo_create) \
    X(cairo_destroy) \
    X(cairo_font_options_create) \
    X(cairo_font_options_destroy) \
    X(cairo_font_options_set_antialias) \
    X(cairo_font_options_set_hint_metrics) \
    X(cairo_font_options_set_hint_style) \
    X(cairo_image_surface_create) \
    X(cairo_image_surface_get_data) \
    X(cairo_image_surface_get_stride) \
    X(cairo_move_to) \
    X(cairo_surface_destroy) \
    X(cairo_surface_flush) \
    X(cairo_surface_status) \
    X(pango_cairo_context_set_font_options) \
    X(pango_cairo_context_set_resolution) \
    X(pango_cairo_font_map_new) \
    X(pango_cairo_show_layout)

// libde265 (libheif's HEVC decoder, driven by Sources/CHEVCDecoder with threads of its own), loaded with libheif.
#define DE265_FUNCTIONS(X) \
    X(de265_decode) \
    X(de265_flush_data) \
    X(de265_free) \
    X(de265_free_decoder) \
    X(de265_get_bits_per_pixel) \
    X(de265_get_chroma_format) \
    X(de265_get_image_colour_primaries) \
    X(de265_get_image_full_range_flag) \
    X(de265_get_image_height) \
    X(de265_get_image_matrix_coefficients) \
    X(de265_get_image_plane) \
    X(de265_get_image_transfer_characteristics) \
    X(de265_get_image_width) \
    X(de265_get_next_picture) \
    X(de265_init) \
    X(de265_new_decoder) \
    X(de265_push_NAL) \
    X(de265_release_next_picture) \
    X(de265_start_worker_threads)

// libavif (AV1 image sequences: libheif 1.15 reads and writes only their still items), loaded when a sequence is.
#define AVIF_FUNCTIONS(X) \
    X(avifDecoderCreate) \
    X(avifDecoderDestroy) \
    X(avifDecoderNextImage) \
    X(avifDecoderParse) \
    X(avifDecoderSetIOMemory) \
    X(avifEncoderAddImage) \
    X(avifEncoderCreate) \
    X(avifEncoderDestroy) \
    X(avifEncoderFinish) \
    X(avifImageCreate) \
    X(avifImageDestroy) \
    X(avifImageRGBToYUV) \
    X(avifImageSetMetadataExif) \
    X(avifImageSetMetadataXMP) \
    X(avifImageYUVToRGB) \
    X(avifRGBImageSetDefaults) \
    X(avifRWDataFree) \
    X(avifResultToString)

// libtiff (TIFF in and out, through Sources/CTIFFShim), loaded when a TIFF is first opened.
#define TIFF_FUNCTIONS(X) \
    X(TIFFClose) \
    X(TIFFComputeStrip) \
    X(TIFFComputeTile) \
    X(TIFFCreateEXIFDirectory) \
    X(TIFFCreateGPSDirectory) \
    X(TIFFCurrentDirOffset) \
    X(TIFFDefaultStripSize) \
    X(TIFFFdOpenExt) \
    X(TIFFFieldDataType) \
    X(TIFFFieldPassCount) \
    X(TIFFFieldSetGetCountSize) \
    X(TIFFFieldSetGetSize) \
    X(TIFFFieldWriteCount) \
    X(TIFFFileno) \
    X(TIFFFindField) \
    X(TIFFGetField) \
    X(TIFFGetFieldDefaulted) \
    X(TIFFIsBigEndian) \
    X(TIFFIsBigTIFF) \
    X(TIFFIsTiled) \
    X(TIFFNumberOfDirectories) \
    X(TIFFOpenOptionsAlloc) \
    X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) \
    X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageEnd) \
    X(TIFFRGBAImageGet) \
    X(TIFFRGBAImageOK) \
    X(TIFFReadEncodedStrip) \
    X(TIFFReadEncodedTile) \
    X(TIFFReadRawStrip) \
    X(TIFFReadRawTile) \
    X(TIFFScanlineSize) \
    X(TIFFSetDirectory) \
    X(TIFFSetField) \
    X(TIFFSetSubDirectory) \
    X(TIFFStripSize) \
    X(TIFFTileSize) \
    X(TIFFWriteCustomDirectory) \
    X(TIFFWriteDirectory) \
    X(TIFFWriteScanline)

// libimagequant (pngquant's quantiser, GPL-3.0-or-later) is the system's, loaded only when a GIF is written.
#define IMAGEQUANT_FUNCTIONS(X) \
    X(liq_attr_create) \
    X(liq_attr_destroy) \
    X(liq_get_palette) \
    X(liq_image_create_rgba) \
    X(liq_image_destroy) \
    X(liq_image_quantize) \
    X(liq_result_destroy) \
    X(liq_set_dithering_level) \
    X(liq_set_max_colors) \
    X(liq_set_speed) \
    X(liq_write_remapped_image)

// A pointer per function, and a trampoline under the function's own name that jumps through it: the jump keeps
// every argument register and the return address as the caller left them, so one stub serves any signature.
// Hidden, so the libraries' own calls to their functions never land here.
#define POINTER(name) __attribute__((visibility("hidden"))) void *fr_lazy_##name;
HEIF_FUNCTIONS(POINTER)
JXL_FUNCTIONS(POINTER)
JXL_THREADS_FUNCTIONS(POINTER)
PANGO_FUNCTIONS(POINTER)
PANGOCAIRO_FUNCTIONS(POINTER)
IMAGEQUANT_FUNCTIONS(POINTER)
TIFF_FUNCTIONS(POINTER)
AVIF_FUNCTIONS(POINTER)
DE265_FUNCTIONS(POINTER)

#if defined(__x86_64__)
#define TRAMPOLINE(name)                                                                                           \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", @function\n.p2align 4\n" #name ":\n"     \
            "\tjmp *fr_lazy_" #name "(%rip)\n.size " #name ", .-" #name "\n");
#elif defined(__aarch64__)
#define TRAMPOLINE(name)                                                                                           \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", %function\n.p2align 2\n" #name ":\n"     \
            "\tadrp x16, fr_lazy_" #name "\n\tldr x16, [x16, :lo12:fr_lazy_" #name "]\n\tbr x16\n"               \
            ".size " #name ", .-" #name "\n");
#else
#error "lazy library loading has trampolines for x86-64 and AArch64 only"
#endif
HEIF_FUNCTIONS(TRAMPOLINE)
JXL_FUNCTIONS(TRAMPOLINE)
JXL_THREADS_FUNCTIONS(TRAMPOLINE)
PANGO_FUNCTIONS(TRAMPOLINE)
PANGOCAIRO_FUNCTIONS(TRAMPOLINE)
IMAGEQUANT_FUNCTIONS(TRAMPOLINE)
TIFF_FUNCTIONS(TRAMPOLINE)
AVIF_FUNCTIONS(TRAMPOLINE)
DE265_FUNCTIONS(TRAMPOLINE)

#define STRING(x) #x
#define NUMBER(x) STRING(x)
// libjxl's soname carries its minor version while its major is 0 (libjxl.so.0.7), its major after.
#if JPEGXL_MAJOR_VERSION == 0
#define JXL_SONAME(base) base ".so.0." NUMBER(JPEGXL_MINOR_VERSION)
#else
#define JXL_SONAME(base) base ".so." NUMBER(JPEGXL_MAJOR_VERSION)
#endif

// Opens the first of `names` that loads; NULL with the loader's message in `error` when none does.
static void *open_library(const char *const *names, char *error, size_t size) {
    for (const char *const *name = names; *name; name++) {
        void *library = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
        const char *why = dlerror();
        if (name == names) snprintf(error, size, "%s", why ? why : "cannot be loaded");
    }
    return NULL;
}

// Fills a function's pointer from `library` (named `which` in the message), or says what is missing and returns.
#define RESOLVE(name)                                                                                              \
    if (!(fr_lazy_##name = dlsym(library, #name))) {                                                               \
        snprintf(error, 512, "%s lacks %s", which, #name);                                                         \
        return;                                                                                                    \
    }

// A library loaded whole on first use: its functions resolved from the first of its names that loads, once
// (pthread_once), with fr_lazy_load_ID() saying whether it loaded and fr_lazy_ID_error() why not.
#define LAZY_LIBRARY(id, FUNCTIONS, ...)                                                                           \
    static pthread_once_t id##_once = PTHREAD_ONCE_INIT;                                                           \
    static int id##_loaded;                                                                                        \
    static char id##_error[512] = "not loaded";                                                                    \
    static void load_##id(void) {                                                                                  \
        static const char *const names[] = {__VA_ARGS__, NULL};                                                    \
        char *error = id##_error;                                                                                  \
        const char *which = names[0];                                                                              \
        void *library = open_library(names, id##_error, sizeof id##_error);                                       \
        if (!library) return;                                                                                      \
        FUNCTIONS(RESOLVE)                                                                                         \
        id##_loaded = 1;                                                                                           \
    }                                                                                                              \
    int fr_lazy_load_##id(void) {                                                                                  \
        pthread_once(&id##_once, load_##id);                                                                       \
        return id##_loaded;                                                                                        \
    }                                                                                                              \
    const char *fr_lazy_##id##_error(void) { return id##_error; }

LAZY_LIBRARY(heif, HEIF_FUNCTIONS, "libheif.so.1", "libheif.so")

static pthread_once_t jxl_once = PTHREAD_ONCE_INIT;
static int jxl_loaded;
static char jxl_error[512] = "not loaded";

static void load_jxl(void) {
    static const char *const names[] = {JXL_SONAME("libjxl"), "libjxl.so", NULL};
    static const char *const thread_names[] = {JXL_SONAME("libjxl_threads"), "libjxl_threads.so", NULL};
    char *error = jxl_error;
    const char *which = names[0];
    void *library = open_library(names, jxl_error, sizeof jxl_error);
    if (!library) return;
    JXL_FUNCTIONS(RESOLVE)
    which = thread_names[0];
    library = open_library(thread_names, jxl_error, sizeof jxl_error);
    if (!library) return;
    JXL_THREADS_FUNCTIONS(RESOLVE)
    jxl_loaded = 1;
}

int fr_lazy_load_jxl(void) {
    pthread_once(&jxl_once, load_jxl);
    return jxl_loaded;
}

const char *fr_lazy_jxl_error(void) { return jxl_error; }

// pangoft2 brings Pango, GLib, GObject and fontconfig as its dependencies; lookups through its handle search them
// too. pangocairo brings cairo, loaded only when a font needs it.
LAZY_LIBRARY(pango, PANGO_FUNCTIONS, "libpangoft2-1.0.so.0", "libpangoft2-1.0.so")

LAZY_LIBRARY(pangocairo, PANGOCAIRO_FUNCTIONS, "libpangocairo-1.0.so.0", "libpangocairo-1.0.so")

// 4.5 or later (libtiff.so.6): its open options carry the per-file handlers.
LAZY_LIBRARY(tiff, TIFF_FUNCTIONS, "libtiff.so.6", "libtiff.so")

LAZY_LIBRARY(imagequant, IMAGEQUANT_FUNCTIONS, "libimagequant.so.0", "libimagequant.so")

LAZY_LIBRARY(de265, DE265_FUNCTIONS, "libde265.so.0", "libde265.so")

LAZY_LIBRARY(avif, AVIF_FUNCTIONS, "libavif.so.15", "libavif.so.16", "libavif.so")
