// Every libtiff call that is variadic (TIFFGetField, TIFFSetField) or reports through handlers lives here: Swift
// cannot call C variadic functions, and libtiff's default handlers print to stderr from any thread.
#include "tiff_shim.h"
#include "lazy_libraries.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tiffio.h>
#include <zlib.h>

// libtiff adds each tag it does not know to its field table and sorts the whole table again, so reading a
// directory costs the square of its unknown tags: 4000 of them (a 48 KB file) took 1.4 s, and a decoder reads a
// directory several times (the page, its pyramid's levels). Real files hold a few dozen tags (a DNG's first
// directory about 100); a directory declaring more than this is refused before libtiff reads it.
#define MAX_DIRECTORY_ENTRIES 512

// What the header says, read by us: byte order, classic or BigTIFF, where the first directory is.
typedef struct {
    int valid, big_endian, big_tiff;
    uint64_t first;
} tiff_header;

struct fr_tiff {
    TIFF *tiff;
    int fd;
    tiff_header header;
    /// libtiff's RGBA reader over the current directory, begun at the first band it reads.
    TIFFRGBAImage rgba;
    int rgba_open;
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

// `size` bytes at `offset` of `fd` as an unsigned number in the header's byte order, without moving the file's
// offset (libtiff's own reads are unaffected); 0 when they cannot be read.
static int read_number(int fd, int big_endian, uint64_t offset, int size, uint64_t *value) {
    uint8_t bytes[8];
    if (size > 8 || offset > (uint64_t)INT64_MAX || pread(fd, bytes, (size_t)size, (off_t)offset) != size) return 0;
    uint64_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint64_t)bytes[big_endian ? i : size - 1 - i] << (8 * (size - 1 - i));
    *value = v;
    return 1;
}

static tiff_header read_header(int fd) {
    tiff_header h = {0};
    uint8_t magic[4];
    if (pread(fd, magic, 4, 0) != 4) return h;
    if (magic[0] == 'I' && magic[1] == 'I') h.big_endian = 0;
    else if (magic[0] == 'M' && magic[1] == 'M') h.big_endian = 1;
    else return h;
    uint64_t version = 0;
    if (!read_number(fd, h.big_endian, 2, 2, &version) || (version != 42 && version != 43)) return h;
    h.big_tiff = version == 43;
    if (!read_number(fd, h.big_endian, h.big_tiff ? 8 : 4, h.big_tiff ? 8 : 4, &h.first)) return h;
    h.valid = 1;
    return h;
}

// The entries the directory at `offset` declares; -1 when they cannot be read.
static long long directory_entries(int fd, const tiff_header *h, uint64_t offset) {
    uint64_t count = 0;
    if (!h->valid || !read_number(fd, h->big_endian, offset, h->big_tiff ? 8 : 2, &count)) return -1;
    return count > (uint64_t)INT64_MAX ? INT64_MAX : (long long)count;
}

// Whether the directory at `offset` declares more entries than libtiff is let read; says so in `t->error`.
static int too_many_entries(fr_tiff *t, uint64_t offset) {
    if (offset == 0) return 0;  // no directory there: libtiff says so
    const long long entries = directory_entries(t->fd, &t->header, offset);
    if (entries <= MAX_DIRECTORY_ENTRIES) return 0;
    snprintf(t->error, sizeof t->error, "a directory of %lld entries, over the %d this reader takes (libtiff's cost "
             "grows with the square of a directory's unknown tags)", entries, MAX_DIRECTORY_ENTRIES);
    return 1;
}

// Where the directory after the one at `offset` starts (0 at the chain's end or where it cannot be read).
static uint64_t next_directory(fr_tiff *t, uint64_t offset) {
    const tiff_header *h = &t->header;
    const long long entries = offset ? directory_entries(t->fd, h, offset) : -1;
    uint64_t next = 0;
    if (entries < 0 || !read_number(t->fd, h->big_endian, offset + (h->big_tiff ? 8 + 20 * (uint64_t)entries
                                                                 : 2 + 12 * (uint64_t)entries),
                                    h->big_tiff ? 8 : 4, &next)) return 0;
    return next;
}

// Where page `page`'s directory starts, by the chain of next-directory offsets (0 when the chain is shorter).
static uint64_t page_offset(fr_tiff *t, int page) {
    uint64_t offset = t->header.first;
    for (int i = 0; i < page && offset; i++) offset = next_directory(t, offset);
    return offset;
}

// Every file opens here, so libtiff's first call is made here (CLazyLibraries loads it on first use: most renders
// read no TIFF). The codecs ask first (TIFFLibrary) and say what to install; this keeps an unloaded libtiff from
// being called by any other way in.
static fr_tiff *open_with(int fd, const char *name, const char *mode, char *message, size_t message_size) {
    if (!fr_lazy_load_tiff()) {
        snprintf(message, message_size, "%s", fr_lazy_tiff_error());
        close(fd);
        return NULL;
    }
    fr_tiff *t = calloc(1, sizeof *t);
    if (!t) { snprintf(message, message_size, "out of memory"); close(fd); return NULL; }
    t->fd = fd;
    if (mode[0] == 'r') {
        // libtiff reads the first directory while opening: its size is checked first.
        t->header = read_header(fd);
        if (t->header.valid && too_many_entries(t, t->header.first)) {
            snprintf(message, message_size, "%s", t->error);
            free(t);
            close(fd);
            return NULL;
        }
    }
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

// Ends the RGBA reader, before the directory changes or the file closes.
static void end_rgba(fr_tiff *t) {
    if (t->rgba_open) TIFFRGBAImageEnd(&t->rgba);
    t->rgba_open = 0;
}

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
    end_rgba(t);
    if (page > 0 && too_many_entries(t, page_offset(t, page))) return -1;
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
    end_rgba(t);
    int count = 0;
    if (!TIFFSetDirectory(tif, (tdir_t)page)) return 0;
    // SubIFDs that are reduced copies (libvips --subifd, OME-TIFF).
    uint16_t subs = 0;
    uint64_t *offsets = NULL;
    if (TIFFGetField(tif, TIFFTAG_SUBIFD, &subs, &offsets) && subs > 0 && offsets) {
        // As many as there may be levels: each is a directory read.
        uint64_t copy[64];
        int n = subs < capacity ? subs : capacity;
        n = n < 64 ? n : 64;
        memcpy(copy, offsets, (size_t)n * sizeof copy[0]);  // the field's storage goes with the directory
        for (int i = 0; i < n; i++) {
            if (too_many_entries(t, copy[i])) continue;
            if (TIFFSetSubDirectory(tif, copy[i]) && is_reduced(tif)) count = add_level(tif, levels, count, capacity, copy[i], 0);
        }
    }
    // Pages after it that are reduced copies, up to the next full-resolution page (libvips --pyramid).
    if (count == 0) {
        // Each page's directory is checked before libtiff reads it, walking on from the page's own.
        uint64_t offset = next_directory(t, page_offset(t, page));
        for (tdir_t next = (tdir_t)page + 1; count < capacity && !too_many_entries(t, offset)
             && TIFFSetDirectory(tif, next) && is_reduced(tif); next++) {
            count = add_level(tif, levels, count, capacity, TIFFCurrentDirOffset(tif), 1);
            offset = next_directory(t, offset);
        }
    }
    t->error[0] = 0;  // a level refused is no error of the page's
    TIFFSetDirectory(tif, (tdir_t)page);
    return count;
}

int fr_tiff_select_level(fr_tiff *t, uint64_t offset, fr_tiff_info *info) {
    int pages = info->pages;
    memset(info, 0, sizeof *info);
    info->pages = pages;
    end_rgba(t);
    if (too_many_entries(t, offset) || !TIFFSetSubDirectory(t->tiff, offset)) return -1;
    describe(t, info);
    return 0;
}

int fr_tiff_exif_layout(fr_tiff *t, uint64_t *ifd, int *big_endian, int *big_tiff) {
    *ifd = TIFFCurrentDirOffset(t->tiff);
    *big_endian = TIFFIsBigEndian(t->tiff) ? 1 : 0;
    *big_tiff = TIFFIsBigTIFF(t->tiff) ? 1 : 0;
    return 0;
}

long fr_tiff_read_bytes(fr_tiff *t, uint64_t offset, void *buffer, size_t length) {
    if (offset > (uint64_t)INT64_MAX) return -1;
    ssize_t n = pread(TIFFFileno(t->tiff), buffer, length, (off_t)offset);
    return n < 0 ? -1 : (long)n;
}

int fr_tiff_read_rgba_rows(fr_tiff *t, uint32_t row, uint32_t rows, uint8_t *raster) {
    if (!t->rgba_open) {
        char message[1024] = "";
        if (!TIFFRGBAImageOK(t->tiff, message) || !TIFFRGBAImageBegin(&t->rgba, t->tiff, 0, message)) {
            if (!t->error[0]) snprintf(t->error, sizeof t->error, "%s", message);
            return -1;
        }
        // Top row first, the file's own orientation ignored: rows as stored.
        t->rgba.req_orientation = ORIENTATION_TOPLEFT;
        t->rgba.orientation = ORIENTATION_TOPLEFT;
        t->rgba_open = 1;
    }
    if (row >= t->rgba.height || rows > t->rgba.height - row) return -1;
    t->rgba.row_offset = (int)row;
    t->rgba.col_offset = 0;
    return TIFFRGBAImageGet(&t->rgba, (uint32_t *)raster, t->rgba.width, rows) ? 0 : -1;
}

// FillOrder 2 stores each byte's bits reversed; libtiff reverses them before inflating, and so do we.
static void reverse_bits(uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint8_t b = bytes[i];
        b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
        b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
        bytes[i] = (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
    }
}

// Whether strip or tile `index`, deflate-compressed, is a whole zlib stream whose Adler-32 holds. libtiff inflates
// only until its buffer is full, so the checksum at the stream's end is never read and a flipped byte decodes to
// wrong pixels without an error; zlib inflating the raw bytes to the end tells. `scratch` takes `size` bytes.
static int deflate_intact(fr_tiff *t, uint32_t index, int tiled, uint8_t *scratch, long size) {
    uint64_t *counts = NULL;
    if (!TIFFGetField(t->tiff, tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS, &counts) || !counts) return 1;
    uint64_t declared = counts[index];
    // A count past the file's end reads what is there.
    off_t end = lseek(TIFFFileno(t->tiff), 0, SEEK_END);
    if (end > 0 && declared > (uint64_t)end) declared = (uint64_t)end;
    if (declared == 0) return 0;
    uint8_t *raw = malloc((size_t)declared);
    if (!raw) { snprintf(t->error, sizeof t->error, "out of memory"); return 0; }
    tmsize_t got = tiled ? TIFFReadRawTile(t->tiff, index, raw, (tmsize_t)declared)
                         : TIFFReadRawStrip(t->tiff, index, raw, (tmsize_t)declared);
    uint16_t fill = FILLORDER_MSB2LSB;
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_FILLORDER, &fill);
    if (fill == FILLORDER_LSB2MSB && got > 0) reverse_bits(raw, (size_t)got);
    int intact = 0;
    if (got > 0) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (inflateInit(&z) == Z_OK) {
            z.next_in = raw;
            z.avail_in = (uInt)got;
            int status = Z_OK;
            // The inflated bytes are not kept: the output buffer is reused until the stream ends.
            while (status == Z_OK) {
                z.next_out = scratch;
                z.avail_out = (uInt)size;
                status = inflate(&z, Z_NO_FLUSH);
                if (status == Z_BUF_ERROR && z.avail_in == 0) break;
            }
            intact = status == Z_STREAM_END;
            inflateEnd(&z);
        }
    }
    free(raw);
    if (!intact) snprintf(t->error, sizeof t->error, "its deflate data fails zlib's check (a damaged byte or a cut stream)");
    return intact;
}

// The same check without inflating again, where the decoded bytes give back what was inflated: the zlib stream's
// last four bytes are the Adler-32 of its output, which is `decoded` itself without a predictor, and its rows
// differenced again with the horizontal predictor at 8 bits (what libtiff writes). 1 when it holds, 0 when it does
// not (then the full check decides: a stream may carry bytes past the strip's), -1 where it does not apply.
static int deflate_trailer_holds(fr_tiff *t, uint32_t index, int tiled, const uint8_t *decoded, tmsize_t n) {
    uint16_t predictor = 1, bits = 8, samples = 1, planar = 1, fill = FILLORDER_MSB2LSB;
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_PREDICTOR, &predictor);
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_FILLORDER, &fill);
    if (!(predictor == 1 || (predictor == 2 && bits == 8)) || n <= 0) return -1;
    uint64_t *offsets = NULL, *counts = NULL;
    if (!TIFFGetField(t->tiff, tiled ? TIFFTAG_TILEOFFSETS : TIFFTAG_STRIPOFFSETS, &offsets) || !offsets) return -1;
    if (!TIFFGetField(t->tiff, tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS, &counts) || !counts) return -1;
    if (counts[index] < 6) return -1;
    uint8_t trailer[4];
    if (pread(TIFFFileno(t->tiff), trailer, 4, (off_t)(offsets[index] + counts[index] - 4)) != 4) return -1;
    if (fill == FILLORDER_LSB2MSB) reverse_bits(trailer, 4);
    uLong expected = (uLong)trailer[0] << 24 | (uLong)trailer[1] << 16 | (uLong)trailer[2] << 8 | trailer[3];
    uLong sum = adler32(0L, Z_NULL, 0);
    if (predictor == 1) {
        sum = adler32_z(sum, decoded, (z_size_t)n);
    } else {
        uint32_t across = 0;
        if (tiled) TIFFGetField(t->tiff, TIFFTAG_TILEWIDTH, &across); else TIFFGetField(t->tiff, TIFFTAG_IMAGEWIDTH, &across);
        size_t stride = planar == PLANARCONFIG_CONTIG ? samples : 1;
        size_t row = (size_t)across * stride;
        if (row == 0 || (size_t)n % row != 0) return -1;
        uint8_t *line = malloc(row);
        if (!line) return -1;
        for (size_t at = 0; at < (size_t)n; at += row) {
            const uint8_t *v = decoded + at;
            for (size_t i = 0; i < stride && i < row; i++) line[i] = v[i];
            for (size_t i = stride; i < row; i++) line[i] = (uint8_t)(v[i] - v[i - stride]);
            sum = adler32_z(sum, line, row);
        }
        free(line);
    }
    return sum == expected ? 1 : 0;
}

long fr_tiff_read_chunk(fr_tiff *t, uint32_t index, void *buffer, long size) {
    int tiled = TIFFIsTiled(t->tiff);
    tmsize_t n = tiled ? TIFFReadEncodedTile(t->tiff, index, buffer, size) : TIFFReadEncodedStrip(t->tiff, index, buffer, size);
    uint16_t compression = 1;
    TIFFGetFieldDefaulted(t->tiff, TIFFTAG_COMPRESSION, &compression);
    if (n >= 0 && (compression == COMPRESSION_ADOBE_DEFLATE || compression == COMPRESSION_DEFLATE)
        && deflate_trailer_holds(t, index, tiled, buffer, n) != 1) {
        // The decoded chunk is already in `buffer`; the check inflates into a scratch of the same size.
        uint8_t *scratch = malloc((size_t)(size > 0 ? size : 1));
        if (!scratch) return -1;
        int intact = deflate_intact(t, index, tiled, scratch, size > 0 ? size : 1);
        free(scratch);
        if (!intact) return -1;
    }
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

// Bytes a value of each TIFF field type takes (1 BYTE … 12 DOUBLE).
static const int exif_sizes[] = {0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8};

// The i-th value of an Exif field as a number (rationals divided out; a zero denominator reads as 0).
static double exif_value(const fr_tiff_exif_field *f, uint32_t i, int big) {
    const uint8_t *p = f->bytes + (size_t)i * (size_t)exif_sizes[f->type];
    uint64_t u = 0;
    int n = f->type == 5 || f->type == 10 ? 4 : exif_sizes[f->type];
    for (int k = 0; k < n; k++) u |= (uint64_t)p[big ? k : n - 1 - k] << (8 * (n - 1 - k));
    switch (f->type) {
    case 6: return (int8_t)u;
    case 8: return (int16_t)u;
    case 9: return (int32_t)u;
    case 5: case 10: {
        uint64_t d = 0;
        for (int k = 0; k < 4; k++) d |= (uint64_t)p[4 + (big ? k : 3 - k)] << (8 * (3 - k));
        if (d == 0) return 0;
        return f->type == 5 ? (double)u / (double)d : (double)(int32_t)u / (double)(int32_t)d;
    }
    case 11: { uint32_t b = (uint32_t)u; float v; memcpy(&v, &b, 4); return v; }
    case 12: { double v; memcpy(&v, &u, 8); return v; }
    default: return (double)u;
    }
}

// Sets one field of the current directory as libtiff defines it; 1 when set.
static int set_exif_field(TIFF *tif, const fr_tiff_exif_field *f, int big) {
    if (f->type < 1 || f->type > 12 || f->count == 0 || f->length != (size_t)f->count * (size_t)exif_sizes[f->type]) return 0;
    const TIFFField *field = TIFFFindField(tif, f->tag, TIFF_ANY);
    if (!field) return 0;
    TIFFDataType data = TIFFFieldDataType(field);
    if (data == TIFF_ASCII || f->type == 2) {
        if (data != TIFF_ASCII || f->type != 2) return 0;
        char *text = malloc(f->length + 1);
        if (!text) return 0;
        memcpy(text, f->bytes, f->length);
        text[f->length] = 0;
        int ok = TIFFSetField(tif, f->tag, text);
        free(text);
        return ok;
    }
    const int size = TIFFFieldSetGetSize(field), passcount = TIFFFieldPassCount(field), fixed = TIFFFieldWriteCount(field);
    const int floating = data == TIFF_RATIONAL || data == TIFF_SRATIONAL || data == TIFF_FLOAT || data == TIFF_DOUBLE;
    if (!passcount && fixed == 1) {
        if (f->count != 1) return 0;
        const double v = exif_value(f, 0, big);
        if (floating) return TIFFSetField(tif, f->tag, v);
        return size <= 2 ? TIFFSetField(tif, f->tag, (int)(int64_t)v) : TIFFSetField(tif, f->tag, (uint32_t)(int64_t)v);
    }
    if (!passcount && (fixed < 1 || (uint32_t)fixed != f->count)) return 0;
    if (passcount && TIFFFieldSetGetCountSize(field) == 2 && f->count > 65535) return 0;
    if (size != 1 && size != 2 && size != 4 && size != 8) return 0;
    uint8_t *values = malloc((size_t)f->count * (size_t)size);
    if (!values) return 0;
    for (uint32_t i = 0; i < f->count; i++) {
        const double v = exif_value(f, i, big);
        if (floating && size == 4) { float x = (float)v; memcpy(values + i * 4, &x, 4); }
        else if (floating) memcpy(values + i * 8, &v, 8);
        else if (size == 1) values[i] = (uint8_t)(int64_t)v;
        else if (size == 2) { uint16_t x = (uint16_t)(int64_t)v; memcpy(values + i * 2, &x, 2); }
        else if (size == 4) { uint32_t x = (uint32_t)(int64_t)v; memcpy(values + i * 4, &x, 4); }
        else { uint64_t x = (uint64_t)(int64_t)v; memcpy(values + i * 8, &x, 8); }
    }
    int ok = passcount ? TIFFSetField(tif, f->tag, (uint32_t)f->count, values) : TIFFSetField(tif, f->tag, values);
    free(values);
    return ok;
}

int fr_tiff_finish_with_exif(fr_tiff *t, const fr_tiff_exif_field *fields, size_t count, int big_endian, size_t *written) {
    static const uint32_t text_tags[] = {TIFFTAG_IMAGEDESCRIPTION, TIFFTAG_MAKE, TIFFTAG_MODEL, TIFFTAG_SOFTWARE,
                                         TIFFTAG_DATETIME, TIFFTAG_ARTIST, TIFFTAG_COPYRIGHT};
    TIFF *tif = t->tiff;
    size_t n = 0;
    int exif = 0, gps = 0;
    for (size_t i = 0; i < count; i++) {
        exif |= fields[i].directory == 1;
        gps |= fields[i].directory == 2;
        if (fields[i].directory != 0 || fields[i].type != 2) continue;
        for (size_t k = 0; k < sizeof text_tags / sizeof text_tags[0]; k++) {
            if (fields[i].tag == text_tags[k]) n += set_exif_field(tif, &fields[i], big_endian);
        }
    }
    // The image's directory is written with room for the links, each linked directory after it, then the image's
    // directory again with the links (libtiff's own sequence, in its custom_dir_EXIF_231 test).
    uint64_t offsets[3] = {0, 0, 0};
    if (exif || gps) {
        if (exif) TIFFSetField(tif, TIFFTAG_EXIFIFD, (uint64_t)0);
        if (gps) TIFFSetField(tif, TIFFTAG_GPSIFD, (uint64_t)0);
        if (!TIFFWriteDirectory(tif)) return -1;
        for (int directory = 1; directory <= 2; directory++) {
            if (directory == 1 ? !exif : !gps) continue;
            if ((directory == 1 ? TIFFCreateEXIFDirectory(tif) : TIFFCreateGPSDirectory(tif)) != 0) return -1;
            for (size_t i = 0; i < count; i++) {
                if (fields[i].directory == directory) n += set_exif_field(tif, &fields[i], big_endian);
            }
            if (!TIFFWriteCustomDirectory(tif, &offsets[directory])) return -1;
        }
        if (!TIFFSetDirectory(tif, 0)) return -1;
        if (exif) TIFFSetField(tif, TIFFTAG_EXIFIFD, offsets[1]);
        if (gps) TIFFSetField(tif, TIFFTAG_GPSIFD, offsets[2]);
    }
    if (written) *written = n;
    return fr_tiff_finish(t);
}

const char *fr_tiff_error(fr_tiff *t) { return t->error; }
const char *fr_tiff_warnings(fr_tiff *t) { return t->warnings; }

void fr_tiff_close(fr_tiff *t) {
    if (!t) return;
    end_rgba(t);
    if (t->tiff) TIFFClose(t->tiff);
    free(t->scratch);
    free(t);
}
