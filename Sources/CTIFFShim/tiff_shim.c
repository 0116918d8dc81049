// Every libtiff call that is variadic (TIFFGetField, TIFFSetField) or reports through handlers lives here: Swift
// cannot call C variadic functions, and libtiff's default handlers print to stderr from any thread.
#include "tiff_shim.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tiffio.h>

struct fr_tiff {
    TIFF *tiff;
    int writing;
    uint32_t row;
    uint8_t *scratch;
    size_t scratch_size;
    char error[512];
    char warnings[1024];
};

static int on_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff; (void)module;
    fr_tiff *t = user;
    vsnprintf(t->error, sizeof t->error, format, args);
    return 1;
}

static int on_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff; (void)module;
    fr_tiff *t = user;
    size_t used = strlen(t->warnings);
    if (used + 3 >= sizeof t->warnings) return 1;
    if (used > 0) { strcpy(t->warnings + used, "; "); used += 2; }
    vsnprintf(t->warnings + used, sizeof t->warnings - used, format, args);
    return 1;
}

static fr_tiff *open_with(int fd, const char *name, const char *mode, char *message, size_t message_size) {
    fr_tiff *t = calloc(1, sizeof *t);
    if (!t) { snprintf(message, message_size, "out of memory"); close(fd); return NULL; }
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, t);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, t);
    t->tiff = TIFFFdOpenExt(fd, name, mode, options);
    TIFFOpenOptionsFree(options);
    if (!t->tiff) {
        snprintf(message, message_size, "%s", t->error[0] ? t->error : "not a TIFF file libtiff reads");
        free(t);
        close(fd);
        return NULL;
    }
    return t;
}

fr_tiff *fr_tiff_open_read(int fd, const char *name, char *message, size_t message_size) {
    return open_with(fd, name, "rm", message, message_size);
}

int fr_tiff_pages(fr_tiff *t) { return (int)TIFFNumberOfDirectories(t->tiff); }

// Fills `info` from the current directory.
static void describe(fr_tiff *t, fr_tiff_info *info) {
    TIFF *tif = t->tiff;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &info->width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &info->height);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &info->bits_per_sample);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &info->samples_per_pixel);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &info->sample_format);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &info->photometric)) info->photometric = 0xFFFF;
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &info->planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &info->compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &info->orientation);
    TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &info->ink_set);
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    info->extra_sample = -1;
    if (TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra) && extra_count > 0) info->extra_sample = extra[0];
    info->tiled = TIFFIsTiled(tif);
    if (info->tiled) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &info->tile_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &info->tile_height);
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &info->rows_per_strip);
    }
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_length, &icc)) {
        info->icc = icc;
        info->icc_length = icc_length;
    }
    uint32_t xmp_length = 0;
    void *xmp = NULL;
    if (TIFFGetField(tif, TIFFTAG_XMLPACKET, &xmp_length, &xmp) && xmp_length > 0) {
        info->xmp = xmp;
        info->xmp_length = xmp_length;
    }
}

int fr_tiff_select(fr_tiff *t, int page, fr_tiff_info *info) {
    memset(info, 0, sizeof *info);
    info->pages = TIFFNumberOfDirectories(t->tiff);
    if (!TIFFSetDirectory(t->tiff, (tdir_t)page)) return -1;
    describe(t, info);
    return 0;
}

// Whether the current directory says it is a reduced-resolution copy (NewSubfileType bit 0).
static int is_reduced(TIFF *tif) {
    uint32_t type = 0;
    return TIFFGetField(tif, TIFFTAG_SUBFILETYPE, &type) && (type & FILETYPE_REDUCEDIMAGE);
}

static int add_level(TIFF *tif, fr_tiff_level *levels, int count, int capacity, uint64_t offset, int is_page) {
    if (count >= capacity) return count;
    levels[count].offset = offset;
    levels[count].is_page = is_page;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &levels[count].width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &levels[count].height);
    return count + 1;
}

int fr_tiff_levels(fr_tiff *t, int page, fr_tiff_level *levels, int capacity) {
    TIFF *tif = t->tiff;
    int count = 0;
    if (!TIFFSetDirectory(tif, (tdir_t)page)) return 0;
    // SubIFDs that are reduced copies (libvips --subifd, OME-TIFF).
    uint16_t subs = 0;
    uint64_t *offsets = NULL;
    if (TIFFGetField(tif, TIFFTAG_SUBIFD, &subs, &offsets) && subs > 0 && offsets) {
        uint64_t copy[64];
        int n = subs < 64 ? subs : 64;
        memcpy(copy, offsets, (size_t)n * sizeof copy[0]);  // the field's storage goes with the directory
        for (int i = 0; i < n; i++) {
            if (TIFFSetSubDirectory(tif, copy[i]) && is_reduced(tif)) count = add_level(tif, levels, count, capacity, copy[i], 0);
        }
    }
    // Pages after it that are reduced copies, up to the next full-resolution page (libvips --pyramid).
    if (count == 0) {
        for (tdir_t next = (tdir_t)page + 1; count < capacity && TIFFSetDirectory(tif, next) && is_reduced(tif); next++) {
            count = add_level(tif, levels, count, capacity, TIFFCurrentDirOffset(tif), 1);
        }
    }
    TIFFSetDirectory(tif, (tdir_t)page);
    return count;
}

int fr_tiff_select_level(fr_tiff *t, uint64_t offset, fr_tiff_info *info) {
    int pages = info->pages;
    memset(info, 0, sizeof *info);
    info->pages = pages;
    if (!TIFFSetSubDirectory(t->tiff, offset)) return -1;
    describe(t, info);
    return 0;
}

int fr_tiff_read_rgba(fr_tiff *t, uint8_t *raster) {
    uint32_t width = 0, height = 0;
    TIFFGetField(t->tiff, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(t->tiff, TIFFTAG_IMAGELENGTH, &height);
    // ORIENTATION_TOPLEFT as requested orientation with the file's own orientation ignored: rows as stored.
    TIFFRGBAImage image;
    char message[1024] = "";
    if (!TIFFRGBAImageOK(t->tiff, message) || !TIFFRGBAImageBegin(&image, t->tiff, 0, message)) {
        if (!t->error[0]) snprintf(t->error, sizeof t->error, "%s", message);
        return -1;
    }
    image.req_orientation = ORIENTATION_TOPLEFT;
    image.orientation = ORIENTATION_TOPLEFT;
    int ok = TIFFRGBAImageGet(&image, (uint32_t *)raster, width, height);
    TIFFRGBAImageEnd(&image);
    return ok ? 0 : -1;
}

long fr_tiff_read_chunk(fr_tiff *t, uint32_t index, void *buffer, long size) {
    tmsize_t n = TIFFIsTiled(t->tiff) ? TIFFReadEncodedTile(t->tiff, index, buffer, size)
                                      : TIFFReadEncodedStrip(t->tiff, index, buffer, size);
    return (long)n;
}

long fr_tiff_chunk_size(fr_tiff *t) {
    return (long)(TIFFIsTiled(t->tiff) ? TIFFTileSize(t->tiff) : TIFFStripSize(t->tiff));
}

uint32_t fr_tiff_chunk_index(fr_tiff *t, uint32_t x, uint32_t y, uint16_t plane) {
    return TIFFIsTiled(t->tiff) ? TIFFComputeTile(t->tiff, x, y, 0, plane) : TIFFComputeStrip(t->tiff, y, plane);
}

fr_tiff *fr_tiff_open_write(int fd, const char *name, uint32_t width, uint32_t height, int samples, int bits,
                            int compression, const uint8_t *icc, size_t icc_length, const uint8_t *xmp,
                            size_t xmp_length, char *message, size_t message_size) {
    fr_tiff *t = open_with(fd, name, "w", message, message_size);
    if (!t) return NULL;
    t->writing = 1;
    TIFF *tif = t->tiff;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)samples);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, (uint16_t)bits);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, bits == 32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, samples <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    if (samples == 2 || samples == 4) {
        uint16_t alpha = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, (uint16_t)1, &alpha);
    }
    TIFFSetField(tif, TIFFTAG_COMPRESSION, (uint16_t)compression);
    if (compression == COMPRESSION_ADOBE_DEFLATE || compression == COMPRESSION_LZW) {
        TIFFSetField(tif, TIFFTAG_PREDICTOR, bits == 32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL);
    }
    // Strips of about 64 KiB: small enough to stream, large enough to compress well.
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
    if (icc && icc_length > 0) TIFFSetField(tif, TIFFTAG_ICCPROFILE, (uint32_t)icc_length, icc);
    if (xmp && xmp_length > 0) TIFFSetField(tif, TIFFTAG_XMLPACKET, (uint32_t)xmp_length, xmp);
    if (t->error[0]) {
        snprintf(message, message_size, "%s", t->error);
        fr_tiff_close(t);
        return NULL;
    }
    return t;
}

int fr_tiff_write_rows(fr_tiff *t, const uint8_t *rows, size_t stride, uint32_t count) {
    // libtiff's predictors difference a scanline in place: each row goes through a copy, so the caller's is kept.
    size_t bytes = (size_t)TIFFScanlineSize(t->tiff);
    if (t->scratch_size < bytes) {
        free(t->scratch);
        t->scratch = malloc(bytes);
        t->scratch_size = t->scratch ? bytes : 0;
        if (!t->scratch) { snprintf(t->error, sizeof t->error, "out of memory"); return -1; }
    }
    for (uint32_t i = 0; i < count; i++) {
        memcpy(t->scratch, rows + i * stride, bytes);
        if (TIFFWriteScanline(t->tiff, t->scratch, t->row, 0) < 0) return -1;
        t->row++;
    }
    return 0;
}

int fr_tiff_finish(fr_tiff *t) {
    int ok = TIFFWriteDirectory(t->tiff);
    TIFFClose(t->tiff);
    t->tiff = NULL;
    return ok ? 0 : -1;
}

const char *fr_tiff_error(fr_tiff *t) { return t->error; }
const char *fr_tiff_warnings(fr_tiff *t) { return t->warnings; }

void fr_tiff_close(fr_tiff *t) {
    if (!t) return;
    if (t->tiff) TIFFClose(t->tiff);
    free(t->scratch);
    free(t);
}
