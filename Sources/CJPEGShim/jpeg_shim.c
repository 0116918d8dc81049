#include "jpeg_shim.h"
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 64];
    int truncated;
} error_mgr;

static void on_error_exit(j_common_ptr cinfo) {
    error_mgr *e = (error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

// Warnings do not stop libjpeg: it pads a truncated file with grey. A file that ends early is an error for us;
// other warnings (extraneous bytes before a marker, common in camera files) are recoverable and ignored.
static void on_emit_message(j_common_ptr cinfo, int level) {
    error_mgr *e = (error_mgr *)cinfo->err;
    if (level == -1 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
        e->truncated = 1;
        snprintf(e->message, sizeof e->message, "the file ends early");
        longjmp(e->jump, 1);
    }
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_errors(error_mgr *e) {
    jpeg_std_error(&e->pub);
    e->pub.error_exit = on_error_exit;
    e->pub.emit_message = on_emit_message;
    e->pub.output_message = on_output_message;
}

static void copy_error(char *err, size_t errlen, const char *message) {
    if (err && errlen) snprintf(err, errlen, "%s", message);
}

struct fr_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    error_mgr err;
    FILE *file;
    int created, started;
    uint32_t rows;
    uint8_t *icc;
    unsigned int icc_length;
    const uint8_t *exif;
    size_t exif_length;
};

fr_jpeg_reader *fr_jpeg_reader_open(int fd, uint32_t max_width, uint32_t max_height, size_t max_memory,
                                    fr_jpeg_header *header, char *err, size_t errlen) {
    fr_jpeg_reader *r = calloc(1, sizeof *r);
    if (!r) { close(fd); copy_error(err, errlen, "out of memory"); return NULL; }
    r->file = fdopen(fd, "rb");
    if (!r->file) { close(fd); free(r); copy_error(err, errlen, "cannot open file"); return NULL; }
    install_errors(&r->err);
    r->cinfo.err = &r->err.pub;
    if (setjmp(r->err.jump)) {
        copy_error(err, errlen, r->err.message);
        header->truncated = r->err.truncated;
        fr_jpeg_reader_close(r);
        return NULL;
    }
    jpeg_create_decompress(&r->cinfo);
    r->created = 1;
    r->cinfo.mem->max_memory_to_use = (long)(max_memory > (size_t)LONG_MAX ? LONG_MAX : max_memory);
    jpeg_stdio_src(&r->cinfo, r->file);
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&r->cinfo, TRUE);

    struct jpeg_decompress_struct *c = &r->cinfo;
    header->width = c->image_width;
    header->height = c->image_height;
    header->components = c->num_components;
    header->progressive = c->progressive_mode;
    header->h_samp = c->comp_info[0].h_samp_factor;
    header->v_samp = c->comp_info[0].v_samp_factor;
    header->adobe_inverted = c->saw_Adobe_marker;
    if (c->image_width > max_width || c->image_height > max_height) {
        snprintf(r->err.message, sizeof r->err.message, "too large");
        longjmp(r->err.jump, 1);
    }
    switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE: c->out_color_space = JCS_GRAYSCALE; header->color_space = 1; break;
    case JCS_YCbCr: case JCS_RGB: c->out_color_space = JCS_RGB; header->color_space = 3; break;
    case JCS_CMYK: case JCS_YCCK: c->out_color_space = JCS_CMYK; header->color_space = 4; break;
    default:
        snprintf(r->err.message, sizeof r->err.message, "unsupported colour space (%d components)", c->num_components);
        longjmp(r->err.jump, 1);
    }
    // Metadata: a damaged profile or Exif block is ignored, never an error for the pixels.
    jpeg_read_icc_profile(c, &r->icc, &r->icc_length);
    for (jpeg_saved_marker_ptr m = c->marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            r->exif = m->data + 6;
            r->exif_length = m->data_length - 6;
            break;
        }
    }
    return r;
}

int fr_jpeg_reader_scale(fr_jpeg_reader *r, int num, uint32_t *width, uint32_t *height) {
    if (setjmp(r->err.jump)) return 1;
    if (r->started || num < 1 || num > 8) { snprintf(r->err.message, sizeof r->err.message, "bad scale request"); return 1; }
    r->cinfo.scale_num = (unsigned)num;
    r->cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&r->cinfo);
    *width = r->cinfo.output_width;
    *height = r->cinfo.output_height;
    return 0;
}

int fr_jpeg_reader_rows(fr_jpeg_reader *r, uint8_t *dst, size_t stride, uint32_t count) {
    if (setjmp(r->err.jump)) return 1;
    if (!r->started) {
        jpeg_start_decompress(&r->cinfo);
        r->started = 1;
    }
    uint32_t done = 0;
    while (done < count) {
        JSAMPROW rows[16];
        uint32_t n = count - done < 16 ? count - done : 16;
        for (uint32_t i = 0; i < n; i++) rows[i] = dst + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(&r->cinfo, rows, n);
        if (got == 0) { snprintf(r->err.message, sizeof r->err.message, "no more rows"); return 1; }
        done += got;
        r->rows += got;
    }
    if (r->rows == r->cinfo.output_height) jpeg_finish_decompress(&r->cinfo);
    return 0;
}

const uint8_t *fr_jpeg_reader_icc(fr_jpeg_reader *r, size_t *length) {
    *length = r->icc_length;
    return r->icc;
}

const uint8_t *fr_jpeg_reader_exif(fr_jpeg_reader *r, size_t *length) {
    *length = r->exif_length;
    return r->exif;
}

const char *fr_jpeg_reader_error(const fr_jpeg_reader *r) { return r->err.message; }
int fr_jpeg_reader_truncated(const fr_jpeg_reader *r) { return r->err.truncated; }
uint32_t fr_jpeg_reader_rows_done(const fr_jpeg_reader *r) { return r->rows; }

void fr_jpeg_reader_close(fr_jpeg_reader *r) {
    if (!r) return;
    if (r->created) jpeg_destroy_decompress(&r->cinfo);
    if (r->file) fclose(r->file);
    free(r->icc);
    free(r);
}

// MARK: - Writing

enum { OUT_BUFFER = 1 << 16 };

struct fr_jpeg_writer {
    struct jpeg_compress_struct cinfo;
    error_mgr err;
    struct jpeg_destination_mgr dest;
    int fd;
    int created;
    int write_errno;
    JOCTET buffer[OUT_BUFFER];
};

static int write_all(fr_jpeg_writer *w, const JOCTET *data, size_t length) {
    while (length > 0) {
        ssize_t n = write(w->fd, data, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { w->write_errno = n < 0 ? errno : EIO; return 0; }
        data += n;
        length -= (size_t)n;
    }
    return 1;
}

static void dest_init(j_compress_ptr cinfo) {
    fr_jpeg_writer *w = (fr_jpeg_writer *)cinfo->client_data;
    w->dest.next_output_byte = w->buffer;
    w->dest.free_in_buffer = OUT_BUFFER;
}

static boolean dest_empty(j_compress_ptr cinfo) {
    fr_jpeg_writer *w = (fr_jpeg_writer *)cinfo->client_data;
    if (!write_all(w, w->buffer, OUT_BUFFER)) ERREXIT(cinfo, JERR_FILE_WRITE);
    w->dest.next_output_byte = w->buffer;
    w->dest.free_in_buffer = OUT_BUFFER;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
    fr_jpeg_writer *w = (fr_jpeg_writer *)cinfo->client_data;
    if (!write_all(w, w->buffer, OUT_BUFFER - w->dest.free_in_buffer)) ERREXIT(cinfo, JERR_FILE_WRITE);
}

fr_jpeg_writer *fr_jpeg_writer_open(int fd, uint32_t width, uint32_t height, int components, int quality,
                                    int subsampling, int progressive, int optimize_coding,
                                    const uint8_t *icc, size_t icc_length, char *err, size_t errlen) {
    if ((components != 1 && components != 3) || width == 0 || height == 0 || width > JPEG_MAX_DIMENSION
        || height > JPEG_MAX_DIMENSION) {
        close(fd);
        copy_error(err, errlen, width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION
                   ? "JPEG cannot store images over 65500 pixels a side" : "unsupported output layout");
        return NULL;
    }
    fr_jpeg_writer *w = calloc(1, sizeof *w);
    if (!w) { close(fd); copy_error(err, errlen, "out of memory"); return NULL; }
    w->fd = fd;
    install_errors(&w->err);
    w->cinfo.err = &w->err.pub;
    if (setjmp(w->err.jump)) {
        copy_error(err, errlen, w->err.message);
        fr_jpeg_writer_close(w);
        return NULL;
    }
    jpeg_create_compress(&w->cinfo);
    w->created = 1;
    w->cinfo.client_data = w;
    w->dest.init_destination = dest_init;
    w->dest.empty_output_buffer = dest_empty;
    w->dest.term_destination = dest_term;
    w->cinfo.dest = &w->dest;
    w->cinfo.image_width = width;
    w->cinfo.image_height = height;
    w->cinfo.input_components = components;
    w->cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&w->cinfo);
    jpeg_set_quality(&w->cinfo, quality, TRUE);
    if (components == 3) {
        w->cinfo.comp_info[0].h_samp_factor = subsampling == 444 ? 1 : 2;
        w->cinfo.comp_info[0].v_samp_factor = subsampling == 420 ? 2 : 1;
    }
    w->cinfo.optimize_coding = optimize_coding ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&w->cinfo);
    jpeg_start_compress(&w->cinfo, TRUE);
    if (icc && icc_length) jpeg_write_icc_profile(&w->cinfo, icc, (unsigned)icc_length);
    return w;
}

int fr_jpeg_writer_rows(fr_jpeg_writer *w, const uint8_t *src, size_t stride, uint32_t count) {
    if (setjmp(w->err.jump)) return 1;
    for (uint32_t i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(src + (size_t)i * stride);
        jpeg_write_scanlines(&w->cinfo, &row, 1);
    }
    return 0;
}

int fr_jpeg_writer_finish(fr_jpeg_writer *w) {
    if (setjmp(w->err.jump)) return 1;
    jpeg_finish_compress(&w->cinfo);
    return 0;
}

const char *fr_jpeg_writer_error(const fr_jpeg_writer *w) { return w->err.message; }
int fr_jpeg_writer_errno(const fr_jpeg_writer *w) { return w->write_errno; }

void fr_jpeg_writer_close(fr_jpeg_writer *w) {
    if (!w) return;
    if (w->created) jpeg_destroy_compress(&w->cinfo);
    if (w->fd >= 0) close(w->fd);
    free(w);
}
