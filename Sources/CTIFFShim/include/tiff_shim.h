#ifndef FR_TIFF_SHIM_H
#define FR_TIFF_SHIM_H
#include <stddef.h>
#include <stdint.h>

/// A TIFF opened for reading or writing, with libtiff's messages caught per file (never printed, never global).
typedef struct fr_tiff fr_tiff;

/// What a directory (page) says about its pixels.
typedef struct {
    uint32_t width, height;
    uint16_t bits_per_sample, samples_per_pixel, sample_format, photometric, planar, compression, orientation, ink_set;
    /// EXTRASAMPLE_* of the first extra sample (alpha), or -1 when there is none.
    int32_t extra_sample;
    int32_t tiled;
    uint32_t tile_width, tile_height, rows_per_strip;
    const uint8_t *icc;
    uint32_t icc_length;
    /// The XMP packet (XMLPacket tag, 700), or NULL.
    const uint8_t *xmp;
    uint32_t xmp_length;
    int32_t pages;
} fr_tiff_info;

/// Opens `fd` (owned from now on) for reading; NULL with `message` filled when it is not a TIFF libtiff reads.
fr_tiff *fr_tiff_open_read(int fd, const char *name, char *message, size_t message_size);
/// The number of directories (pages) in the file.
int fr_tiff_pages(fr_tiff *t);
/// Reads directory `page` (from 0); 0 on success.
int fr_tiff_select(fr_tiff *t, int page, fr_tiff_info *info);
/// A reduced-resolution copy of a page (a pyramid level): where its directory starts, and its size.
typedef struct {
    uint64_t offset;
    uint32_t width, height;
    /// 1 for a page of the main chain, 0 for a SubIFD.
    int32_t is_page;
} fr_tiff_level;
/// Lists up to `capacity` reduced-resolution copies of `page`: its SubIFDs marked reduced (NewSubfileType bit 0),
/// or else the pages following it so marked. Returns how many; the current directory is `page` again afterwards.
int fr_tiff_levels(fr_tiff *t, int page, fr_tiff_level *levels, int capacity);
/// Reads the directory at `offset` (a level from fr_tiff_levels); 0 on success. `info->pages` is kept.
int fr_tiff_select_level(fr_tiff *t, uint64_t offset, fr_tiff_info *info);
/// Where the current directory starts, whether the file is big-endian and whether it is a BigTIFF (8-byte counts
/// and offsets, 20-byte entries), for reading its Exif and GPS directories as a TIFF structure; 0.
int fr_tiff_exif_layout(fr_tiff *t, uint64_t *ifd, int *big_endian, int *big_tiff);
/// Reads up to `length` bytes of the file at `offset` (without moving libtiff's position); the bytes read, or -1.
long fr_tiff_read_bytes(fr_tiff *t, uint64_t offset, void *buffer, size_t length);
/// Decodes `rows` rows of the current directory from `row` through libtiff's RGBA interface: 4 bytes a pixel, top
/// row first, rows as stored (no orientation applied), alpha unassociated. 0 on success.
int fr_tiff_read_rgba_rows(fr_tiff *t, uint32_t row, uint32_t rows, uint8_t *raster);
/// Strip or tile `index` decoded into `buffer` (`size` bytes); returns the bytes decoded or -1.
long fr_tiff_read_chunk(fr_tiff *t, uint32_t index, void *buffer, long size);
long fr_tiff_chunk_size(fr_tiff *t);
uint32_t fr_tiff_chunk_index(fr_tiff *t, uint32_t x, uint32_t y, uint16_t plane);

/// Opens `fd` for writing one directory of `width`×`height`, `samples` samples of `bits` bits (grey, grey+alpha,
/// RGB, RGBA; alpha unassociated; 32 bits are IEEE floats), `compression` a COMPRESSION_* value with the
/// horizontal (floating-point for floats) predictor where it helps, `icc` and `xmp` (XMLPacket) embedded when given. NULL with `message` filled on failure.
fr_tiff *fr_tiff_open_write(int fd, const char *name, uint32_t width, uint32_t height, int samples, int bits,
                            int compression, const uint8_t *icc, size_t icc_length, const uint8_t *xmp,
                            size_t xmp_length, char *message, size_t message_size);
/// Writes `count` rows; 0 on success.
int fr_tiff_write_rows(fr_tiff *t, const uint8_t *rows, size_t stride, uint32_t count);
/// Flushes and closes the file (the descriptor too); 0 on success.
int fr_tiff_finish(fr_tiff *t);

/// One Exif field for fr_tiff_finish_with_exif: its directory (0 the image's own, 1 Exif, 2 GPS), tag, TIFF type
/// (1 BYTE … 12 DOUBLE) and count, and its values as the Exif block stores them (`length` bytes).
typedef struct {
    int32_t directory;
    uint32_t tag;
    int32_t type;
    uint32_t count;
    const uint8_t *bytes;
    size_t length;
} fr_tiff_exif_field;

/// fr_tiff_finish after writing `fields` (values big-endian when `big_endian`): the image directory's descriptive
/// text (description, make, model, software, date, artist, copyright) into the image's directory, the Exif and GPS
/// fields libtiff defines into an Exif and a GPS directory linked from it. A field libtiff does not define, or whose
/// values do not fit its definition, is left out; `written` says how many were written. 0 on success.
int fr_tiff_finish_with_exif(fr_tiff *t, const fr_tiff_exif_field *fields, size_t count, int big_endian, size_t *written);

/// libtiff's last error for this file ("" when none), and the warnings it gave, joined by "; ".
const char *fr_tiff_error(fr_tiff *t);
const char *fr_tiff_warnings(fr_tiff *t);
/// Closes the file (the descriptor too) and frees everything; NULL is accepted.
void fr_tiff_close(fr_tiff *t);
#endif
