#include "png_shim.h"
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct fr_png_reader {
    png_structp png;
    png_infop info;
    FILE *file;
    char error[256];   // first: on_error writes through the error pointer
    int truncated;     // the file ended before libpng was done
    int read_errno;    // the read(2) error, if one stopped the decode
    uint32_t rows;     // rows handed out so far
    uint8_t *icc;      // the first iCCP chunk's profile, inflated by us
    size_t icc_length;
    int icc_damaged;   // an iCCP chunk was there but could not be inflated within the cap
    uint8_t *xmp;      // the first iTXt chunk keyed XML:com.adobe.xmp (before the image data), its text inflated
    size_t xmp_length;
};

static int read_text_chunk(png_structp png, png_unknown_chunkp chunk);

struct fr_png_writer {
    png_structp png;
    png_infop info;
    FILE *file;
    char error[256];
    int write_errno;   // the write(2) error, if one stopped the encode
};

static void on_error(png_structp png, png_const_charp message) {
    char *buffer = (char *)png_get_error_ptr(png);
    snprintf(buffer, 256, "%s", message);
    png_longjmp(png, 1);
}

// Warnings (unknown chunks, bad ancillary CRCs) do not stop a decode; libpng has already recovered.
static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void copy_error(char *err, size_t errlen, const char *message) {
    if (err && errlen) snprintf(err, errlen, "%s", message);
}

// Our own I/O callbacks, so a short read is told apart from a read error, and a failed write keeps its errno.
static void read_data(png_structp png, png_bytep data, size_t length) {
    fr_png_reader *r = (fr_png_reader *)png_get_io_ptr(png);
    if (fread(data, 1, length, r->file) == length) return;
    if (ferror(r->file)) { r->read_errno = errno; png_error(png, "read error"); }
    r->truncated = 1;
    png_error(png, "the file ends early");
}

static void write_data(png_structp png, png_bytep data, size_t length) {
    fr_png_writer *w = (fr_png_writer *)png_get_io_ptr(png);
    if (fwrite(data, 1, length, w->file) != length) { w->write_errno = errno; png_error(png, "write failed"); }
}

static void flush_data(png_structp png) {
    fr_png_writer *w = (fr_png_writer *)png_get_io_ptr(png);
    if (fflush(w->file) != 0) { w->write_errno = errno; png_error(png, "write failed"); }
}

// libpng's own chunk-length check is a benign error (a warning when reading), so a 100-byte file declaring a
// 1.3 GB sCAL or eXIf chunk would make it allocate that much. Every allocation goes through this cap instead:
// 64 MiB, or two rows of the image when rows are larger. A refused allocation is libpng's "out of memory".
static png_voidp limited_malloc(png_structp png, png_alloc_size_t size) {
    fr_png_reader *r = (fr_png_reader *)png_get_mem_ptr(png);
    png_alloc_size_t cap = (png_alloc_size_t)64 << 20;
    if (r && r->png && r->info) {
        png_alloc_size_t row = (png_alloc_size_t)png_get_image_width(r->png, r->info) * 8 + 64;
        if (row * 2 > cap) cap = row * 2;
    }
    return size > cap ? NULL : malloc(size);
}

static void limited_free(png_structp png, png_voidp pointer) { (void)png; free(pointer); }

fr_png_reader *fr_png_reader_open(int fd, uint32_t max_width, uint32_t max_height, fr_png_header *header,
                                  char *err, size_t errlen) {
    fr_png_reader *r = calloc(1, sizeof *r);
    if (!r) { close(fd); copy_error(err, errlen, "out of memory"); return NULL; }
    r->file = fdopen(fd, "rb");
    if (!r->file) { close(fd); free(r); copy_error(err, errlen, "cannot open file"); return NULL; }
    unsigned char signature[8];
    if (fread(signature, 1, 8, r->file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        copy_error(err, errlen, "not a PNG file (bad signature)");
        header->truncated = 0;
        fclose(r->file); free(r); return NULL;
    }
    r->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, r->error, on_error, on_warning, r, limited_malloc,
                                      limited_free);
    r->info = r->png ? png_create_info_struct(r->png) : NULL;
    if (!r->info) { copy_error(err, errlen, "out of memory"); fr_png_reader_close(r); return NULL; }
    if (setjmp(png_jmpbuf(r->png))) {
        copy_error(err, errlen, r->error);
        header->truncated = r->truncated;
        fr_png_reader_close(r);
        return NULL;
    }
    png_set_read_fn(r->png, r, read_data);
    png_set_sig_bytes(r->png, 8);
    // Our limits, not libpng's defaults (1 000 000 px a side): the caller's pixel limit decides.
    png_set_user_limits(r->png, max_width ? max_width : 1, max_height ? max_height : 1);
    // Ancillary chunks cost little whatever a file holds: text is skipped unread (it changes no pixel; XMP aside), at most
    // 128 ancillary chunks are kept, and none may decompress to more than 16 MiB.
    static const png_byte skipped[] = "tEXt\0zTXt\0";
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, skipped, 2);
    // iTXt goes to read_text_chunk as it is read, which keeps XMP and stores nothing else.
    static const png_byte text_chunks[] = "iTXt\0";
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_ALWAYS, text_chunks, 1);
    png_set_read_user_chunk_fn(r->png, r, read_text_chunk);
    // The colour chunks are read by us, raw, so libpng's own choice among them (it drops an iCCP that follows an
    // sRGB chunk, yet keeps gAMA/cHRM) cannot override the PNG specification's precedence: see fr_png_reader_colour.
    static const png_byte colour_chunks[] = "iCCP\0sRGB\0gAMA\0cHRM\0";
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_ALWAYS, colour_chunks, 4);
    png_set_chunk_cache_max(r->png, 128);
    png_set_chunk_malloc_max(r->png, 16u << 20);
    png_read_info(r->png, r->info);

    png_uint_32 width, height;
    int depth, color, interlace;
    png_get_IHDR(r->png, r->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    header->width = width;
    header->height = height;
    header->color_type = color;
    header->bit_depth = depth;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;

    // Expand to 8 or 16 bits per sample, grey/grey+alpha/RGB/RGBA; never rescale 16-bit data.
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
    if (header->has_trns) png_set_tRNS_to_alpha(r->png);
    if (depth == 16) png_set_swap(r->png);
    if (header->interlaced) png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);
    header->out_channels = png_get_channels(r->png, r->info);
    header->out_depth = png_get_bit_depth(r->png, r->info);
    return r;
}

int fr_png_reader_rows(fr_png_reader *r, uint8_t *dst, size_t stride, uint32_t count) {
    if (setjmp(png_jmpbuf(r->png))) return 1;
    for (uint32_t i = 0; i < count; i++) { png_read_row(r->png, dst + i * stride, NULL); r->rows++; }
    return 0;
}

int fr_png_reader_image(fr_png_reader *r, uint8_t *dst, size_t stride) {
    png_uint_32 height = png_get_image_height(r->png, r->info);
    png_bytepp rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (!rows) { snprintf(r->error, sizeof r->error, "out of memory"); return 1; }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = dst + y * stride;
    if (setjmp(png_jmpbuf(r->png))) { free(rows); return 1; }
    png_read_image(r->png, rows);
    free(rows);
    r->rows = height;
    return 0;
}

int fr_png_reader_finish(fr_png_reader *r) {
    if (setjmp(png_jmpbuf(r->png))) return 1;
    png_read_end(r->png, NULL);
    return 0;
}

const uint8_t *fr_png_reader_exif(fr_png_reader *r, size_t *length) {
    png_uint_32 n = 0;
    png_bytep data = NULL;
    *length = 0;
    if (!png_get_eXIf_1(r->png, r->info, &n, &data) || !data) return NULL;
    *length = n;
    return data;
}

static uint32_t be32(const png_byte *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

// zlib data inflated to at most `cap` bytes (a zlib bomb stops there): a malloc'd buffer, or NULL when the data is
// damaged, runs past the cap or memory runs out.
static uint8_t *inflate_capped(const png_byte *data, size_t size, size_t cap, size_t *inflated) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return NULL;
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    size_t capacity = 4096, length = 0;
    uint8_t *out = malloc(capacity);
    int status = Z_OK;
    while (out && status == Z_OK) {
        if (length == capacity) {
            if (capacity >= cap) break;
            uint8_t *grown = realloc(out, capacity * 2);
            if (!grown) { free(out); out = NULL; break; }
            out = grown;
            capacity *= 2;
        }
        z.next_out = out + length;
        z.avail_out = (uInt)(capacity - length);
        status = inflate(&z, Z_NO_FLUSH);
        length = capacity - z.avail_out;
        if (status == Z_BUF_ERROR && z.avail_in == 0) break;
    }
    inflateEnd(&z);
    if (!out || status != Z_STREAM_END) { free(out); return NULL; }
    *inflated = length;
    return out;
}

// An iCCP chunk's profile: a name of 1-79 bytes, a NUL, compression method 0, then zlib data, inflated to at most
// 16 MiB (a profile is a few KiB).
static void inflate_icc(fr_png_reader *r, const png_byte *data, size_t size) {
    const png_byte *nul = memchr(data, 0, size < 81 ? size : 81);
    if (!nul || nul == data || (size_t)(nul - data) + 2 > size || nul[1] != 0) { r->icc_damaged = 1; return; }
    size_t length = 0;
    uint8_t *out = inflate_capped(nul + 2, size - (size_t)(nul + 2 - data), (size_t)16 << 20, &length);
    if (!out || length < 132) { free(out); r->icc_damaged = 1; return; }
    r->icc = out;
    r->icc_length = length;
}

// iTXt chunks as they are read, never stored: the first keyed "XML:com.adobe.xmp" (keyword, NUL, compression flag
// and method, language, NUL, translated keyword, NUL, then the UTF-8 text, zlib-compressed when the flag is 1, to
// at most 16 MiB) is kept as the image's XMP; other text changes no pixel and is dropped. A damaged one is dropped
// too: metadata never stops a decode.
static int read_text_chunk(png_structp png, png_unknown_chunkp chunk) {
    if (memcmp(chunk->name, "iTXt", 4) != 0) return 0;
    fr_png_reader *r = png_get_user_chunk_ptr(png);
    static const char keyword[] = "XML:com.adobe.xmp";
    const png_byte *p = chunk->data, *end = chunk->data + chunk->size;
    if (r->xmp || chunk->size < sizeof keyword + 2 || memcmp(p, keyword, sizeof keyword) != 0) return 1;
    p += sizeof keyword;
    int compressed = p[0], method = p[1];
    p += 2;
    for (int field = 0; field < 2; field++) {  // language tag, translated keyword
        const png_byte *nul = memchr(p, 0, (size_t)(end - p));
        if (!nul) return 1;
        p = nul + 1;
    }
    size_t length = (size_t)(end - p);
    uint8_t *text = NULL;
    if (compressed == 1) {
        if (method != 0) return 1;
        text = inflate_capped(p, length, (size_t)16 << 20, &length);
    } else if (compressed == 0 && length > 0) {
        text = malloc(length);
        if (text) memcpy(text, p, length);
    }
    if (!text || length == 0) { free(text); return 1; }
    r->xmp = text;
    r->xmp_length = length;
    return 1;
}

const uint8_t *fr_png_reader_xmp(fr_png_reader *r, size_t *length) {
    *length = r->xmp_length;
    return r->xmp;
}

const uint8_t *fr_png_reader_icc(fr_png_reader *r, size_t *length) {
    *length = r->icc_length;
    return r->icc;
}

// The colour chunks before the image data, as stored (the first of each kind counts): bit 0 sRGB, 1 gAMA, 2 cHRM,
// 3 an iCCP that could not be inflated; the iCCP profile itself through fr_png_reader_icc. Which one applies is the
// caller's choice, by the specification's precedence: iCCP, then sRGB, then cHRM/gAMA.
int fr_png_reader_colour(fr_png_reader *r, double *gamma, double chromaticities[8]) {
    png_unknown_chunkp chunks = NULL;
    int count = png_get_unknown_chunks(r->png, r->info, &chunks), found = 0, seen_icc = 0;
    for (int i = 0; i < count; i++) {
        const png_unknown_chunk *c = &chunks[i];
        if (memcmp(c->name, "iCCP", 4) == 0 && !seen_icc) {
            seen_icc = 1;
            inflate_icc(r, c->data, c->size);
        } else if (memcmp(c->name, "sRGB", 4) == 0 && c->size == 1 && !(found & 1)) {
            found |= 1;
        } else if (memcmp(c->name, "gAMA", 4) == 0 && c->size == 4 && !(found & 2) && be32(c->data) > 0) {
            *gamma = be32(c->data) / 100000.0;
            found |= 2;
        } else if (memcmp(c->name, "cHRM", 4) == 0 && c->size == 32 && !(found & 4)) {
            for (int k = 0; k < 8; k++) chromaticities[k] = be32(c->data + 4 * k) / 100000.0;
            found |= 4;
        }
    }
    if (r->icc_damaged) found |= 8;
    return found;
}

const char *fr_png_reader_error(const fr_png_reader *r) { return r->error; }
int fr_png_reader_truncated(const fr_png_reader *r) { return r->truncated; }
int fr_png_reader_errno(const fr_png_reader *r) { return r->read_errno; }
uint32_t fr_png_reader_rows_done(const fr_png_reader *r) { return r->rows; }

void fr_png_reader_close(fr_png_reader *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    if (r->file) fclose(r->file);
    free(r->icc);
    free(r->xmp);
    free(r);
}

fr_png_writer *fr_png_writer_open(int fd, uint32_t width, uint32_t height, int channels, int depth,
                                  int level, int filters, const uint8_t *icc, size_t icc_length, int srgb,
                                  const uint8_t *exif, size_t exif_length, const uint8_t *xmp, size_t xmp_length,
                                  char *err, size_t errlen) {
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                       PNG_COLOR_TYPE_RGB_ALPHA};
    if (channels < 1 || channels > 4 || (depth != 8 && depth != 16)) {
        close(fd); copy_error(err, errlen, "unsupported output layout"); return NULL;
    }
    fr_png_writer *w = calloc(1, sizeof *w);
    if (!w) { close(fd); copy_error(err, errlen, "out of memory"); return NULL; }
    w->file = fdopen(fd, "wb");
    if (!w->file) { close(fd); free(w); copy_error(err, errlen, "cannot open output"); return NULL; }
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w->error, on_error, on_warning);
    w->info = w->png ? png_create_info_struct(w->png) : NULL;
    if (!w->info) { copy_error(err, errlen, "out of memory"); fr_png_writer_close(w); return NULL; }
    if (setjmp(png_jmpbuf(w->png))) {
        copy_error(err, errlen, w->error);
        fr_png_writer_close(w);
        return NULL;
    }
    png_set_write_fn(w->png, w, write_data, flush_data);
    png_set_user_limits(w->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);  // the caller's limits apply, not libpng's
    png_set_IHDR(w->png, w->info, width, height, depth, color_types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(w->png, level);
    // Bigger IDAT chunks mean fewer zlib flushes and CRC passes.
    png_set_compression_buffer_size(w->png, 1 << 17);
    if (filters) png_set_filter(w->png, PNG_FILTER_TYPE_BASE, filters);
    if (icc && icc_length) png_set_iCCP(w->png, w->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    else if (srgb) png_set_sRGB(w->png, w->info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (exif && exif_length && exif_length <= PNG_UINT_31_MAX)
        png_set_eXIf_1(w->png, w->info, (png_uint_32)exif_length, (png_bytep)exif);
    if (xmp && xmp_length) {
        // XMP's registered iTXt keyword; uncompressed, as most readers expect.
        png_text text = {0};
        text.compression = PNG_ITXT_COMPRESSION_NONE;
        text.key = "XML:com.adobe.xmp";
        text.text = (char *)xmp;
        text.itxt_length = xmp_length;
        text.lang = "";
        text.lang_key = "";
        png_set_text(w->png, w->info, &text, 1);
    }
    png_write_info(w->png, w->info);
    if (depth == 16) png_set_swap(w->png);
    return w;
}

int fr_png_writer_rows(fr_png_writer *w, const uint8_t *src, size_t stride, uint32_t count) {
    if (setjmp(png_jmpbuf(w->png))) return 1;
    for (uint32_t i = 0; i < count; i++) png_write_row(w->png, (png_const_bytep)(src + i * stride));
    return 0;
}

int fr_png_writer_finish(fr_png_writer *w) {
    if (setjmp(png_jmpbuf(w->png))) return 1;
    png_write_end(w->png, NULL);
    if (fflush(w->file) != 0) { w->write_errno = errno; snprintf(w->error, sizeof w->error, "write failed"); return 1; }
    return 0;
}

int fr_png_writer_idat(fr_png_writer *w, const uint8_t *data, size_t length) {
    if (setjmp(png_jmpbuf(w->png))) return 1;
    png_write_chunk(w->png, (png_const_bytep)"IDAT", data, length);
    return 0;
}

int fr_png_writer_finish_idat(fr_png_writer *w) {
    if (setjmp(png_jmpbuf(w->png))) return 1;
    png_write_chunk(w->png, (png_const_bytep)"IEND", NULL, 0);
    if (fflush(w->file) != 0) { w->write_errno = errno; snprintf(w->error, sizeof w->error, "write failed"); return 1; }
    return 0;
}

const char *fr_png_writer_error(const fr_png_writer *w) { return w->error; }
int fr_png_writer_errno(const fr_png_writer *w) { return w->write_errno; }

void fr_png_writer_close(fr_png_writer *w) {
    if (!w) return;
    if (w->png) png_destroy_write_struct(&w->png, w->info ? &w->info : NULL);
    if (w->file) fclose(w->file);
    free(w);
}
