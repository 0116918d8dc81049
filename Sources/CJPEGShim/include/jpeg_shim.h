// Every libjpeg call of the project goes through these functions: libjpeg reports errors by calling error_exit,
// which must not return, so each entry point sets a jump buffer, and longjmp never crosses a Swift frame.
#ifndef FR_JPEG_SHIM_H
#define FR_JPEG_SHIM_H
#include <stddef.h>
#include <stdint.h>

typedef struct fr_jpeg_reader fr_jpeg_reader;
typedef struct fr_jpeg_writer fr_jpeg_writer;

typedef struct {
    uint32_t width, height;   // as stored
    int components;           // in the file: 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK
    int color_space;          // 1 grey, 3 RGB (from YCbCr or RGB), 4 CMYK (from CMYK or YCCK)
    int adobe_inverted;       // CMYK written by Adobe software: values stored inverted
    int progressive;
    int h_samp, v_samp;       // the luma sampling factors (2, 2 for 4:2:0)
    int truncated;            // set when open failed because the file ended early
} fr_jpeg_header;

/// Opens `fd` (owned by the reader from now on), reads the header and the APP1/APP2 markers. Refuses images wider
/// or taller than the limits before any pixel memory exists. `max_memory` caps libjpeg's own buffers (a
/// progressive file holds every coefficient). NULL with `err` filled on failure.
fr_jpeg_reader *fr_jpeg_reader_open(int fd, uint32_t max_width, uint32_t max_height, size_t max_memory,
                                    fr_jpeg_header *header, char *err, size_t errlen);
/// Decodes at `num`/8 of the stored size (1…8), in the DCT; before the first row only. Returns the output size.
int fr_jpeg_reader_scale(fr_jpeg_reader *r, int num, uint32_t *width, uint32_t *height);
/// Reads the next `count` rows (1 or 3 or 4 bytes a pixel per color_space) into `dst`. 0 on success.
int fr_jpeg_reader_rows(fr_jpeg_reader *r, uint8_t *dst, size_t stride, uint32_t count);
/// The embedded ICC profile (APP2 segments joined), or NULL; valid until close.
const uint8_t *fr_jpeg_reader_icc(fr_jpeg_reader *r, size_t *length);
/// The Exif block (APP1 after "Exif\0\0"), or NULL; valid until close.
const uint8_t *fr_jpeg_reader_exif(fr_jpeg_reader *r, size_t *length);
const char *fr_jpeg_reader_error(const fr_jpeg_reader *r);
int fr_jpeg_reader_truncated(const fr_jpeg_reader *r);
uint32_t fr_jpeg_reader_rows_done(const fr_jpeg_reader *r);
void fr_jpeg_reader_close(fr_jpeg_reader *r);

/// `components` 1 (grey) or 3 (RGB); `quality` 1–100; `subsampling` 444, 422 or 420; `icc` may be NULL.
fr_jpeg_writer *fr_jpeg_writer_open(int fd, uint32_t width, uint32_t height, int components, int quality,
                                    int subsampling, int progressive, int optimize_coding,
                                    const uint8_t *icc, size_t icc_length, char *err, size_t errlen);
int fr_jpeg_writer_rows(fr_jpeg_writer *w, const uint8_t *src, size_t stride, uint32_t count);
/// Writes the end of the file and flushes it to the descriptor. 0 on success.
int fr_jpeg_writer_finish(fr_jpeg_writer *w);
const char *fr_jpeg_writer_error(const fr_jpeg_writer *w);
int fr_jpeg_writer_errno(const fr_jpeg_writer *w);
void fr_jpeg_writer_close(fr_jpeg_writer *w);
#endif
