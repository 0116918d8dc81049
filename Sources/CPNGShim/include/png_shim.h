// Every libpng call of the project goes through these functions: libpng reports errors with longjmp,
// which must not cross Swift frames, so each entry point sets its own jump buffer and returns a status.
#ifndef FR_PNG_SHIM_H
#define FR_PNG_SHIM_H
#include <stddef.h>
#include <stdint.h>

typedef struct fr_png_reader fr_png_reader;
typedef struct fr_png_writer fr_png_writer;

typedef struct {
    uint32_t width, height;
    int color_type;      // as stored in the file (PNG_COLOR_TYPE_*)
    int bit_depth;       // as stored in the file
    int interlaced;      // 1 for Adam7
    int has_trns;
    int out_channels;    // after expansion: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
    int out_depth;       // after expansion: 8 or 16 (16-bit samples in host byte order)
    int truncated;       // set when open failed because the file ended early
} fr_png_header;

/// Opens `fd` (owned by the reader from now on) and reads the header, refusing images wider or taller than the
/// limits; returns NULL with `err` filled on failure.
fr_png_reader *fr_png_reader_open(int fd, uint32_t max_width, uint32_t max_height, fr_png_header *header,
                                  char *err, size_t errlen);
/// Reads the next `count` rows into `dst` (rows `stride` bytes apart). Non-interlaced images only. 0 on success.
int fr_png_reader_rows(fr_png_reader *r, uint8_t *dst, size_t stride, uint32_t count);
/// Reads the whole image (any interlace) into `dst`. 0 on success.
int fr_png_reader_image(fr_png_reader *r, uint8_t *dst, size_t stride);
/// Reads and checks the chunks after the image data. 0 on success.
int fr_png_reader_finish(fr_png_reader *r);
/// The eXIf chunk's data (if it came before the image data), or NULL; valid until close.
const uint8_t *fr_png_reader_exif(fr_png_reader *r, size_t *length);
/// The XMP packet of the first iTXt chunk keyed "XML:com.adobe.xmp" before the image data (inflated), or NULL;
/// valid until close.
const uint8_t *fr_png_reader_xmp(fr_png_reader *r, size_t *length);
/// The first iCCP chunk's profile, inflated by `fr_png_reader_colour`, or NULL; valid until close.
const uint8_t *fr_png_reader_icc(fr_png_reader *r, size_t *length);
/// Which colour chunks came before the image data, read raw (the first of each kind): 1 sRGB, 2 gAMA (into
/// `gamma`), 4 cHRM (white, red, green, blue x and y into `chromaticities`), 8 an iCCP that could not be
/// inflated, or'd. Call once, before `fr_png_reader_icc`.
int fr_png_reader_colour(fr_png_reader *r, double *gamma, double chromaticities[8]);
const char *fr_png_reader_error(const fr_png_reader *r);
/// Non-zero when the last failure was the file ending early.
int fr_png_reader_truncated(const fr_png_reader *r);
/// The errno of a failed read, or 0.
int fr_png_reader_errno(const fr_png_reader *r);
/// Rows returned so far.
uint32_t fr_png_reader_rows_done(const fr_png_reader *r);
void fr_png_reader_close(fr_png_reader *r);

/// `channels` 1–4, `depth` 8 or 16, `level` 0–9, `filters` a mask of PNG_FILTER_* (0 lets libpng choose).
/// Tags the file with `icc` (an iCCP chunk) when given, else with an sRGB chunk when `srgb` is non-zero.
fr_png_writer *fr_png_writer_open(int fd, uint32_t width, uint32_t height, int channels, int depth,
                                  int level, int filters, const uint8_t *icc, size_t icc_length, int srgb,
                                  const uint8_t *exif, size_t exif_length, const uint8_t *xmp, size_t xmp_length,
                                  char *err, size_t errlen);
/// Writes `count` rows from `src` (rows `stride` bytes apart; 16-bit samples in host byte order). 0 on success.
int fr_png_writer_rows(fr_png_writer *w, const uint8_t *src, size_t stride, uint32_t count);
/// Writes the end of the file and flushes it to the descriptor (the caller syncs and publishes). 0 on success.
int fr_png_writer_finish(fr_png_writer *w);
const char *fr_png_writer_error(const fr_png_writer *w);
/// The errno of a failed write, or 0.
int fr_png_writer_errno(const fr_png_writer *w);
void fr_png_writer_close(fr_png_writer *w);

// Parallel compression: the caller filters and deflates row chunks itself (fr_png_deflate_chunk, on any thread)
// and hands the compressed bytes to the writer in order; libpng still writes the signature, header and colour
// chunks (fr_png_writer_open) and the chunk framing and CRCs.

/// Writes `length` bytes of the zlib stream as one IDAT chunk. 0 on success.
int fr_png_writer_idat(fr_png_writer *w, const uint8_t *data, size_t length);
/// Writes IEND and flushes (the end of a file whose IDATs came from fr_png_writer_idat). 0 on success.
int fr_png_writer_finish_idat(fr_png_writer *w);

/// One compressed piece of the zlib stream, allocated by fr_png_deflate_chunk and released with
/// fr_png_chunk_free.
typedef struct {
    uint8_t *data;
    size_t length;
    uint32_t adler;          // Adler-32 of the chunk's filtered bytes
    size_t filtered_length;  // the filtered bytes it holds (for adler32_combine)
} fr_png_chunk;

/// Filters and deflates one run of rows as part of a single zlib stream. `raw` holds `context + rows` rows of
/// `row_bytes` bytes in PNG byte order (16-bit samples big-endian), `bpp` bytes a pixel (at least 1). The first
/// `context` rows precede the chunk in the image: the last of them is the first row's prior row, and the others,
/// filtered, are the deflate dictionary (the previous chunk's last bytes), so compression does not restart from
/// nothing. `context` 0 means the chunk starts at the image's top row; that chunk also gets the zlib header.
/// `filters` is a mask of FR_PNG_FILTER_* (several: the row with the smallest sum of absolute values, libpng's
/// heuristic). `last` ends the deflate stream; other chunks end with a sync flush on a byte boundary, so the
/// pieces concatenate. Returns 0, or 1 when memory or zlib failed.
int fr_png_deflate_chunk(const uint8_t *raw, size_t row_bytes, int bpp, uint32_t context, uint32_t rows,
                         int filters, int level, int last, fr_png_chunk *chunk);
void fr_png_chunk_free(fr_png_chunk *chunk);
/// The Adler-32 of two pieces from theirs (zlib's adler32_combine).
uint32_t fr_png_adler32_combine(uint32_t first, uint32_t second, size_t second_length);

/// Filter mask values, so Swift does not need libpng's macros.
enum {
    FR_PNG_FILTER_NONE = 0x08, FR_PNG_FILTER_SUB = 0x10, FR_PNG_FILTER_UP = 0x20,
    FR_PNG_FILTER_AVG = 0x40, FR_PNG_FILTER_PAETH = 0x80, FR_PNG_ALL_FILTERS = 0xF8
};
#endif
