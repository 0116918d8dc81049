#include "hevc_decoder.h"
#include "lazy_libraries.h"
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <pthread.h>
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

// The largest picture a coded stream may declare: the images being decoded now say how large their pictures are
// (grid tiles and alpha planes are no larger), so a damaged parameter set claiming 16384² pixels is refused before
// libde265 allocates for it (a 96×64 HEIC declaring that made it take 1.6 GB and 17 s).
#define BOUNDS 64
static pthread_mutex_t bounds_lock = PTHREAD_MUTEX_INITIALIZER;
static long bounds[BOUNDS];

void fr_hevc_begin_image(long pixels) {
    pthread_mutex_lock(&bounds_lock);
    for (int i = 0; i < BOUNDS; i++)
        if (bounds[i] == 0) {
            bounds[i] = pixels < 1 ? 1 : pixels;
            break;
        }
    pthread_mutex_unlock(&bounds_lock);
}

void fr_hevc_end_image(long pixels) {
    pthread_mutex_lock(&bounds_lock);
    for (int i = 0; i < BOUNDS; i++)
        if (bounds[i] == (pixels < 1 ? 1 : pixels)) {
            bounds[i] = 0;
            break;
        }
    pthread_mutex_unlock(&bounds_lock);
}

// The largest bound in force; with none (more decodes at once than BOUNDS, or a caller that set none), no bound.
static long largest_bound(void) {
    long largest = 0, set = 0;
    pthread_mutex_lock(&bounds_lock);
    for (int i = 0; i < BOUNDS; i++) {
        if (bounds[i] > largest) largest = bounds[i];
        set += bounds[i] != 0;
    }
    pthread_mutex_unlock(&bounds_lock);
    return set == 0 || set == BOUNDS ? -1 : largest;
}

// Reads an H.265 NAL unit's bits, emulation-prevention bytes (00 00 03) skipped.
struct bits {
    const uint8_t *data;
    size_t size, at;
    int bit, zeros, failed;
};

static int next_bit(struct bits *b) {
    if (b->bit == 0) {
        if (b->at >= b->size) {
            b->failed = 1;
            return 0;
        }
        if (b->zeros >= 2 && b->data[b->at] == 3) {
            b->zeros = 0;
            if (++b->at >= b->size) {
                b->failed = 1;
                return 0;
            }
        }
        b->zeros = b->data[b->at] == 0 ? b->zeros + 1 : 0;
    }
    int value = b->data[b->at] >> (7 - b->bit) & 1;
    if (++b->bit == 8) {
        b->bit = 0;
        b->at++;
    }
    return value;
}

static uint64_t read_bits(struct bits *b, int count) {
    uint64_t value = 0;
    while (count-- > 0) value = value << 1 | (uint64_t)next_bit(b);
    return value;
}

// Exp-Golomb, as H.265 §9.2 codes ue(v); more than 31 leading zeros is damage.
static uint64_t read_golomb(struct bits *b) {
    int zeros = 0;
    while (!next_bit(b)) {
        if (b->failed || ++zeros > 31) {
            b->failed = 1;
            return 0;
        }
    }
    return ((uint64_t)1 << zeros) - 1 + read_bits(b, zeros);
}

// A sequence parameter set's picture size (H.265 §7.3.2.2), or 0 when the unit is not one or is cut short.
static int sps_size(const uint8_t *unit, size_t size, uint64_t *width, uint64_t *height) {
    if (size < 3 || (unit[0] >> 1 & 63) != 33) return 0;
    struct bits b = {unit + 2, size - 2, 0, 0, 0, 0};
    read_bits(&b, 4);                              // sps_video_parameter_set_id
    int sub_layers = (int)read_bits(&b, 3);        // sps_max_sub_layers_minus1
    read_bits(&b, 1);                              // sps_temporal_id_nesting_flag
    read_bits(&b, 88);                             // general profile: space, tier, idc, flags
    read_bits(&b, 8);                              // general_level_idc
    int profile_present[8] = {0}, level_present[8] = {0};
    for (int i = 0; i < sub_layers; i++) {
        profile_present[i] = (int)read_bits(&b, 1);
        level_present[i] = (int)read_bits(&b, 1);
    }
    if (sub_layers > 0)
        for (int i = sub_layers; i < 8; i++) read_bits(&b, 2);
    for (int i = 0; i < sub_layers; i++) {
        if (profile_present[i]) read_bits(&b, 88);
        if (level_present[i]) read_bits(&b, 8);
    }
    read_golomb(&b);                               // sps_seq_parameter_set_id
    if (read_golomb(&b) == 3) read_bits(&b, 1);    // chroma_format_idc, separate_colour_plane_flag
    *width = read_golomb(&b);
    *height = read_golomb(&b);
    return !b.failed;
}

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
        uint64_t width = 0, height = 0;
        long bound = largest_bound();
        if (bound > 0 && sps_size(bytes + at, length, &width, &height) && (width == 0 || height == 0 ||
                                                                           width * height > (uint64_t)bound))
            return failure(heif_suberror_Security_limit_exceeded,
                           "its HEVC stream declares a picture larger than the image it codes");
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
