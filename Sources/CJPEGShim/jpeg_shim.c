#include "jpeg_shim_internal.h"
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>


static void on_error_exit(j_common_ptr cinfo) {
    error_mgr *e = (error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

// Records a warning of `class`, and stops decoding when the class is at or below the fail-on level.
static void warn(j_common_ptr cinfo, int class) {
    error_mgr *e = (error_mgr *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (class <= e->fail_on) {
        e->failure_class = class;
        e->truncated = class == FR_FAIL_TRUNCATED;
        snprintf(e->message, sizeof e->message, "%s", text);
        longjmp(e->jump, 1);
    }
    if (e->warnings++ == 0 || class < e->first_class) {
        e->first_class = class;
        snprintf(e->first, sizeof e->first, "%s", text);
    }
}

// libjpeg does not stop on damaged data: it warns and fills what is missing with grey. Each warning gets a class:
// truncated (the file ends inside the image data), corrupt data (codes that decode to nothing, a marker inside a
// scan, restart markers out of order, an impossible progression), or a harmless irregularity (bytes between
// segments, common in camera files; an unknown Adobe transform or JFIF revision; a damaged ICC marker). The end of
// the file alone proves nothing — a file missing only its end marker still holds every row — so it is classed
// when the decoder needs data past it (truncated), or at the end of the image (`finish_checks`).
static void on_emit_message(j_common_ptr cinfo, int level) {
    error_mgr *e = (error_mgr *)cinfo->err;
    if (level != -1 || !cinfo->is_decompressor) return;
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
        e->eof = 1;
        return;
    case JWRN_HIT_MARKER:
        e->insufficient = 1;
        warn(cinfo, e->eof ? FR_FAIL_TRUNCATED : FR_FAIL_ERROR);
        return;
    case JWRN_EXTRANEOUS_DATA: {
        // Between header segments stray bytes are harmless; after a scan's data (before a restart marker, the end
        // marker or the next scan's segments) they mean the data did not decode to its blocks.
        int marker = cinfo->err->msg_parm.i[1];
        int in_scans = ((j_decompress_ptr)cinfo)->input_scan_number > 0 || (marker >= 0xD0 && marker <= 0xD7);
        warn(cinfo, in_scans ? FR_FAIL_ERROR : FR_FAIL_WARNING);
        return;
    }
    case JWRN_HUFF_BAD_CODE: case JWRN_ARITH_BAD_CODE: case JWRN_MUST_RESYNC: case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION:
        warn(cinfo, FR_FAIL_ERROR);
        return;
    default:
        warn(cinfo, FR_FAIL_WARNING);
        return;
    }
}

static void install_errors(error_mgr *e) {
    jpeg_std_error(&e->pub);
    e->pub.error_exit = on_error_exit;
    e->pub.emit_message = on_emit_message;
    e->pub.output_message = on_output_message;
}

static void copy_error(char *err, size_t errlen, const char *message) {
    if (err && errlen) snprintf(err, errlen, "%s", message);
}


// Called by libjpeg between units of input: a file of thousands of scans (each re-reading every block) is refused
// once it passes the scan bound or the work budget, long before it could take minutes.
static void on_progress(j_common_ptr common) {
    j_decompress_ptr c = (j_decompress_ptr)common;
    fr_jpeg_reader *r = (fr_jpeg_reader *)c->client_data;
    if (c->input_scan_number <= r->counted_scan) return;
    r->counted_scan = c->input_scan_number;
    for (int i = 0; i < c->comps_in_scan; i++) {
        jpeg_component_info *comp = c->cur_comp_info[i];
        if (comp) r->work += (double)comp->width_in_blocks * comp->height_in_blocks * DCTSIZE2;
    }
    if (r->limits.max_scans > 0 && c->input_scan_number > r->limits.max_scans) {
        r->over_limit = 1;
        snprintf(r->err.message, sizeof r->err.message, "the file has more than %d scans (real files have a few "
                 "dozen at most)", r->limits.max_scans);
        longjmp(r->err.jump, 1);
    }
    if (r->limits.max_work > 0 && r->work > r->limits.max_work) {
        r->over_limit = 2;
        snprintf(r->err.message, sizeof r->err.message, "its %d scans cost %.3g sample visits, over the work limit",
                 c->input_scan_number, r->work);
        longjmp(r->err.jump, 1);
    }
}

// Before the last row is finished: whether every coefficient of a progressive file got its last refinement (a file
// that ends between scans decodes without a missing bit, only blurrier). libjpeg frees what it knows at the finish.
int progression_complete(fr_jpeg_reader *r) {
    j_decompress_ptr c = &r->cinfo;
    if (!c->progressive_mode || !c->coef_bits) return !r->multiple_scans;
    for (int ci = 0; ci < c->num_components; ci++)
        for (int k = 0; k < DCTSIZE2; k++)
            if (c->coef_bits[ci][k] != 0) return 0;
    return 1;
}

// At the end of the image: a file that ran out without the decoder missing any data lacks only its end marker,
// unless some scans are missing (`complete` false).
void finish_checks(fr_jpeg_reader *r, int complete) {
    error_mgr *e = &r->err;
    if (!e->eof || e->insufficient) return;
    r->cinfo.err->msg_code = JWRN_JPEG_EOF;
    if (!complete) e->insufficient = 1;
    warn((j_common_ptr)&r->cinfo, complete ? FR_FAIL_WARNING : FR_FAIL_TRUNCATED);
}

fr_jpeg_reader *fr_jpeg_reader_open(int fd, const fr_jpeg_limits *limits, fr_jpeg_header *header, char *err,
                                    size_t errlen) {
    fr_jpeg_reader *r = calloc(1, sizeof *r);
    if (!r) { close(fd); copy_error(err, errlen, "out of memory"); return NULL; }
    r->file = fdopen(fd, "rb");
    if (!r->file) { close(fd); free(r); copy_error(err, errlen, "cannot open file"); return NULL; }
    r->limits = *limits;
    install_errors(&r->err);
    r->err.fail_on = limits->fail_on;
    r->cinfo.err = &r->err.pub;
    if (setjmp(r->err.jump)) {
        copy_error(err, errlen, r->err.message);
        header->truncated = r->err.truncated || r->err.eof;  // the header itself ran out
        int code = r->err.pub.msg_code;
        header->code = code == JERR_IMAGE_TOO_BIG ? FR_OPEN_DIMENSION : code == JERR_BAD_PRECISION ? FR_OPEN_PRECISION
            : code == JERR_SOF_UNSUPPORTED ? FR_OPEN_PROCESS : 0;
        header->code_param = r->err.pub.msg_parm.i[0];
        header->width = r->cinfo.image_width;
        header->height = r->cinfo.image_height;
        fr_jpeg_reader_close(r);
        return NULL;
    }
    jpeg_create_decompress(&r->cinfo);
    r->created = 1;
    r->cinfo.client_data = r;
    r->progress.progress_monitor = on_progress;
    r->cinfo.progress = &r->progress;
    r->cinfo.mem->max_memory_to_use = (long)(limits->max_memory > (size_t)LONG_MAX ? LONG_MAX : limits->max_memory);
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
    r->multiple_scans = jpeg_has_multiple_scans(c);
    if (c->image_width > limits->max_width || c->image_height > limits->max_height) {
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
    // Exif and XMP: the first APP1 that says each. The ICC profile's APP2 segments are reassembled by the caller.
    static const char xmp_name[] = "http://ns.adobe.com/xap/1.0/";
    for (jpeg_saved_marker_ptr m = c->marker_list; m; m = m->next) {
        if (m->marker != JPEG_APP0 + 1) continue;
        if (!r->exif && m->data_length > 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            r->exif = m->data + 6;
            r->exif_length = m->data_length - 6;
        } else if (!r->xmp && m->data_length > sizeof xmp_name && memcmp(m->data, xmp_name, sizeof xmp_name) == 0) {
            r->xmp = m->data + sizeof xmp_name;
            r->xmp_length = m->data_length - sizeof xmp_name;
        }
    }
    return r;
}

double fr_jpeg_reader_coefficient_bytes(const fr_jpeg_reader *r) {
    const struct jpeg_decompress_struct *c = &r->cinfo;
    if (!r->multiple_scans) return 0;
    double bytes = 0;
    for (int ci = 0; ci < c->num_components; ci++) {
        const jpeg_component_info *comp = &c->comp_info[ci];
        // libjpeg rounds each component's blocks up to whole MCUs (its sampling factors).
        double w = (double)((comp->width_in_blocks + comp->h_samp_factor - 1) / comp->h_samp_factor) * comp->h_samp_factor;
        double h = (double)((comp->height_in_blocks + comp->v_samp_factor - 1) / comp->v_samp_factor) * comp->v_samp_factor;
        bytes += w * h * DCTSIZE2 * sizeof(JCOEF);
    }
    return bytes;
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

// The next `count` rows into dst (rows `stride` apart), or passed over when dst is NULL; the file is finished and
// checked after its last row.
static int next_rows(fr_jpeg_reader *r, uint8_t *dst, size_t stride, uint32_t count) {
    if (setjmp(r->err.jump)) return 1;
    if (!r->started) {
        jpeg_start_decompress(&r->cinfo);
        r->started = 1;
    }
    uint32_t done = 0;
    while (done < count) {
        JDIMENSION got;
        if (dst) {
            JSAMPROW rows[16];
            uint32_t n = count - done < 16 ? count - done : 16;
            for (uint32_t i = 0; i < n; i++) rows[i] = dst + (size_t)(done + i) * stride;
            got = jpeg_read_scanlines(&r->cinfo, rows, n);
        } else {
            // 128 rows a call (whole iMCU rows at every subsampling and scale), so that a damaged file's message
            // says about where its data ended; 16 a call cost as much as decoding the rows.
            got = jpeg_skip_scanlines(&r->cinfo, count - done < 128 ? count - done : 128);
        }
        if (got == 0) { snprintf(r->err.message, sizeof r->err.message, "no more rows"); return 1; }
        done += got;
        r->rows += got;
    }
    if (r->rows == r->cinfo.output_height) {
        int complete = progression_complete(r);
        jpeg_finish_decompress(&r->cinfo);
        finish_checks(r, complete);
    }
    return 0;
}

int fr_jpeg_reader_rows(fr_jpeg_reader *r, uint8_t *dst, size_t stride, uint32_t count) {
    return next_rows(r, dst, stride, count);
}

int fr_jpeg_reader_skip(fr_jpeg_reader *r, uint32_t count) { return next_rows(r, NULL, 0, count); }

const uint8_t *fr_jpeg_reader_app2(fr_jpeg_reader *r, int index, size_t *length) {
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m; m = m->next) {
        if (m->marker != JPEG_APP0 + 2 || index-- > 0) continue;
        *length = m->data_length;
        return m->data;
    }
    *length = 0;
    return NULL;
}

const uint8_t *fr_jpeg_reader_exif(fr_jpeg_reader *r, size_t *length) {
    *length = r->exif_length;
    return r->exif;
}

const uint8_t *fr_jpeg_reader_xmp(fr_jpeg_reader *r, size_t *length) {
    *length = r->xmp_length;
    return r->xmp;
}

int fr_jpeg_reader_app1(fr_jpeg_reader *r, int index, const uint8_t **data, size_t *length) {
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m; m = m->next) {
        if (m->marker != JPEG_APP0 + 1 || index-- > 0) continue;
        *data = m->data;
        *length = m->data_length;
        return 1;
    }
    return 0;
}

const char *fr_jpeg_reader_error(const fr_jpeg_reader *r) { return r->err.message; }
int fr_jpeg_reader_failure_class(const fr_jpeg_reader *r) { return r->err.failure_class; }
int fr_jpeg_reader_over_limit(const fr_jpeg_reader *r) { return r->over_limit; }
uint32_t fr_jpeg_reader_rows_done(const fr_jpeg_reader *r) { return r->rows; }

int fr_jpeg_reader_warnings(const fr_jpeg_reader *r, const char **first, int *first_class) {
    *first = r->err.first;
    *first_class = r->err.first_class;
    return r->err.warnings;
}

void fr_jpeg_reader_close(fr_jpeg_reader *r) {
    if (!r) return;
    if (r->created) jpeg_destroy_decompress(&r->cinfo);
    if (r->file) fclose(r->file);
    free(r);
}

// MARK: - Writing


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

// `planes`: the writer takes Y, Cb, Cr planes (jpeg_write_raw_data) instead of rows.
static fr_jpeg_writer *open_writer(int fd, uint32_t width, uint32_t height, int components, int quality,
                                   int h_samp, int v_samp, int progressive, int optimize_coding,
                                   const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                                   const uint8_t *xmp, size_t xmp_length, int planes, char *err, size_t errlen) {
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
    w->cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : planes ? JCS_YCbCr : JCS_RGB;
    jpeg_set_defaults(&w->cinfo);
    w->cinfo.raw_data_in = planes && components == 3 ? TRUE : FALSE;
    jpeg_set_quality(&w->cinfo, quality, TRUE);
    if (components == 3) {
        w->cinfo.comp_info[0].h_samp_factor = h_samp;
        w->cinfo.comp_info[0].v_samp_factor = v_samp;
    }
    w->cinfo.optimize_coding = optimize_coding ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&w->cinfo);
    jpeg_start_compress(&w->cinfo, TRUE);
    // Exif and XMP each fit one APP1 (the caller checks: 65 533 bytes with its name), before the profile.
    if (exif && exif_length && exif_length <= 65533 - 6) {
        jpeg_write_m_header(&w->cinfo, JPEG_APP0 + 1, (unsigned)(exif_length + 6));
        for (size_t i = 0; i < 6; i++) jpeg_write_m_byte(&w->cinfo, "Exif\0\0"[i]);
        for (size_t i = 0; i < exif_length; i++) jpeg_write_m_byte(&w->cinfo, exif[i]);
    }
    static const char xmp_name[] = "http://ns.adobe.com/xap/1.0/";
    if (xmp && xmp_length && xmp_length <= 65533 - sizeof xmp_name) {
        jpeg_write_m_header(&w->cinfo, JPEG_APP0 + 1, (unsigned)(xmp_length + sizeof xmp_name));
        for (size_t i = 0; i < sizeof xmp_name; i++) jpeg_write_m_byte(&w->cinfo, xmp_name[i]);
        for (size_t i = 0; i < xmp_length; i++) jpeg_write_m_byte(&w->cinfo, xmp[i]);
    }
    if (icc && icc_length) jpeg_write_icc_profile(&w->cinfo, icc, (unsigned)icc_length);
    return w;
}

fr_jpeg_writer *fr_jpeg_writer_open(int fd, uint32_t width, uint32_t height, int components, int quality,
                                    int subsampling, int progressive, int optimize_coding,
                                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                                    const uint8_t *xmp, size_t xmp_length, char *err, size_t errlen) {
    return open_writer(fd, width, height, components, quality, subsampling == 444 ? 1 : 2, subsampling == 420 ? 2 : 1,
                       progressive, optimize_coding, icc,
                       icc_length, exif, exif_length, xmp, xmp_length, 0, err, errlen);
}

fr_jpeg_writer *fr_jpeg_writer_open_planes(int fd, uint32_t width, uint32_t height, int quality, int h_samp, int v_samp,
                                           int progressive, int optimize_coding, const uint8_t *icc, size_t icc_length,
                                           const uint8_t *exif, size_t exif_length, const uint8_t *xmp,
                                           size_t xmp_length, char *err, size_t errlen) {
    return open_writer(fd, width, height, 3, quality, h_samp, v_samp, progressive, optimize_coding, icc, icc_length,
                       exif, exif_length, xmp, xmp_length, 1, err, errlen);
}

int fr_jpeg_writer_rows(fr_jpeg_writer *w, const uint8_t *src, size_t stride, uint32_t count) {
    if (setjmp(w->err.jump)) return 1;
    for (uint32_t i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(src + (size_t)i * stride);
        jpeg_write_scanlines(&w->cinfo, &row, 1);
    }
    return 0;
}

int fr_jpeg_writer_marker(fr_jpeg_writer *w, int marker, const uint8_t *data, size_t length) {
    if (length > 65533) return 1;
    if (setjmp(w->err.jump)) return 1;
    jpeg_write_marker(&w->cinfo, marker, data, (unsigned)length);
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
