#include "hevc_decoder.h"
#include "lazy_libraries.h"
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// libheif hands each coded image (a whole picture, a grid's tile, an alpha plane) to a fresh decoder: its hvcC
// parameter sets and then its slices, as NAL units each behind a 4-byte big-endian length. libde265 decodes them;
// with worker threads it decodes wavefront rows (x265 codes them by default) and filters the picture in parallel.
// The picture's planes are copied into a heif_image as they are, with the colour description its VUI states, and
// libheif converts it to RGB exactly as it does from its own decoder's output.

static int worker_count = 1;
static atomic_long decoded;
// Decoders alive now: a batch's parallel jobs, a grid's tiles decoded side by side. Each new one takes its share of
// the cores (a batch of HEICs on two jobs measured 2 % slower when each also started a thread per core).
static atomic_int alive;

struct decoder {
    de265_decoder_context *context;
};

static const struct heif_error success = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

static struct heif_error failure(enum heif_suberror_code code, const char *message) {
    return (struct heif_error){heif_error_Decoder_plugin_error, code, message};
}

static const char *plugin_name(void) { return "libde265 HEVC decoder (FilterRecipe, worker threads)"; }

static void plugin_init(void) { de265_init(); }

static void plugin_deinit(void) { de265_free(); }

// Above libheif's own libde265 decoder (100), so this one is chosen for HEVC.
static int supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? 150 : 0; }

static struct heif_error new_decoder(void **out) {
    struct decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return failure(heif_suberror_Unspecified, "out of memory");
    decoder->context = de265_new_decoder();
    if (!decoder->context) {
        free(decoder);
        return failure(heif_suberror_Unspecified, "libde265 could not start a decoder");
    }
    int sharing = atomic_fetch_add(&alive, 1) + 1, workers = worker_count / sharing;
    // Without its threads libde265 still decodes, on the caller's.
    (void)de265_start_worker_threads(decoder->context, workers < 1 ? 1 : workers);
    *out = decoder;
    return success;
}

static void free_decoder(void *raw) {
    struct decoder *decoder = raw;
    de265_free_decoder(decoder->context);
    free(decoder);
    atomic_fetch_sub(&alive, 1);
}

static struct heif_error push_data(void *raw, const void *data, size_t size) {
    struct decoder *decoder = raw;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return failure(heif_suberror_End_of_data, "an HEVC unit's length is cut short");
        uint32_t length = (uint32_t)bytes[at] << 24 | (uint32_t)bytes[at + 1] << 16 | (uint32_t)bytes[at + 2] << 8
                          | bytes[at + 3];
        at += 4;
        if (length > size - at) return failure(heif_suberror_End_of_data, "an HEVC unit runs past its data");
        if (de265_push_NAL(decoder->context, bytes + at, (int)length, 0, NULL) != DE265_OK)
            return failure(heif_suberror_Unspecified, "libde265 refused an HEVC unit");
        at += length;
    }
    return success;
}

// The picture's planes into a new heif_image, or an error leaving *out NULL.
static struct heif_error copy_picture(const struct de265_image *picture, struct heif_image **out) {
    enum de265_chroma chroma = de265_get_chroma_format(picture);
    int mono = chroma == de265_chroma_mono, planes = mono ? 1 : 3;
    int bits = de265_get_bits_per_pixel(picture, 0);
    for (int c = 1; c < planes; c++)
        if (de265_get_bits_per_pixel(picture, c) != bits)
            return failure(heif_suberror_Unsupported_color_conversion, "its planes have different bit depths");
    if (bits < 1 || bits > 16) return failure(heif_suberror_Unsupported_bit_depth, "its bit depth is not 1–16");
    // de265_chroma and heif_chroma number mono, 4:2:0, 4:2:2 and 4:4:4 alike.
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)chroma, out);
    if (error.code != heif_error_Ok) {
        *out = NULL;
        return error;
    }
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    size_t sample_bytes = bits > 8 ? 2 : 1;
    for (int c = 0; c < planes; c++) {
        int width = de265_get_image_width(picture, c), height = de265_get_image_height(picture, c);
        int source_stride = 0, target_stride = 0;
        const uint8_t *source = de265_get_image_plane(picture, c, &source_stride);
        if (width <= 0 || height <= 0 || !source) {
            error = failure(heif_suberror_Invalid_image_size, "a decoded plane is empty");
        } else {
            error = heif_image_add_plane(*out, channels[c], width, height, bits);
        }
        uint8_t *target = error.code == heif_error_Ok ? heif_image_get_plane(*out, channels[c], &target_stride) : NULL;
        if (!target) {
            heif_image_release(*out);
            *out = NULL;
            return error.code != heif_error_Ok ? error : failure(heif_suberror_Unspecified, "out of memory");
        }
        for (int y = 0; y < height; y++)
            memcpy(target + (size_t)y * target_stride, source + (size_t)y * source_stride, (size_t)width * sample_bytes);
    }
    // The VUI's colour description, as libheif's own decoder attaches it (values libheif does not know are left
    // at its defaults, as there); a colr box in the file takes precedence over it in libheif.
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        (void)heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)de265_get_image_colour_primaries(picture));
        (void)heif_nclx_color_profile_set_transfer_characteristics(
            nclx, (uint16_t)de265_get_image_transfer_characteristics(picture));
        (void)heif_nclx_color_profile_set_matrix_coefficients(nclx,
                                                              (uint16_t)de265_get_image_matrix_coefficients(picture));
        nclx->full_range_flag = (uint8_t)(de265_get_image_full_range_flag(picture) != 0);
        heif_image_set_nclx_color_profile(*out, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    return success;
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    struct decoder *decoder = raw;
    *out = NULL;
    if (de265_flush_data(decoder->context) != DE265_OK)
        return failure(heif_suberror_Unspecified, "libde265 could not end the stream");
    // Decode until the stream is spent; an image item holds one picture, and if a damaged one yields several the
    // last is kept, as libheif's own decoder does.
    int more = 0;
    do {
        more = 0;
        if (de265_decode(decoder->context, &more) != DE265_OK) break;
        const struct de265_image *picture = de265_get_next_picture(decoder->context);
        if (picture) {
            if (*out) heif_image_release(*out);
            struct heif_error error = copy_picture(picture, out);
            de265_release_next_picture(decoder->context);
            if (error.code != heif_error_Ok) return error;
        }
    } while (more);
    if (!*out) return failure(heif_suberror_Unspecified, "the HEVC data holds no picture");
    atomic_fetch_add(&decoded, 1);
    return success;
}

static void set_strict(void *raw, int strict) {
    (void)raw;
    (void)strict;
}

static const struct heif_decoder_plugin plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = plugin_name,
    .init_plugin = plugin_init,
    .deinit_plugin = plugin_deinit,
    .does_support_format = supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = decode_image,
    .set_strict_decoding = set_strict,
    .id_name = "filterrecipe-libde265",
};

int fr_hevc_register_decoder(int workers) {
    if (!fr_lazy_load_de265()) return 0;
    worker_count = workers < 1 ? 1 : workers > 16 ? 16 : workers;
    return heif_register_decoder_plugin(&plugin).code == heif_error_Ok;
}

long fr_hevc_images_decoded(void) { return atomic_load(&decoded); }
