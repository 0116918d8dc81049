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
    int code;                 // why open failed, when it is one of FR_OPEN_* (0 otherwise)
    int code_param;           // the precision, or the SOF marker of the unsupported process
} fr_jpeg_header;

/// Valid files the library cannot read: wider than libjpeg's 65500 pixels, not 8-bit, a lossless or
/// hierarchical process.
enum { FR_OPEN_DIMENSION = 1, FR_OPEN_PRECISION = 2, FR_OPEN_PROCESS = 3 };

/// What the reader does with libjpeg's warnings, libvips's `fail-on` levels: each warning has a class (truncated
/// data, corrupt data, or a harmless irregularity) and stops decoding when its class is at or below the level.
enum { FR_FAIL_NONE = 0, FR_FAIL_TRUNCATED = 1, FR_FAIL_ERROR = 2, FR_FAIL_WARNING = 3 };

typedef struct {
    uint32_t max_width, max_height; // larger images are refused before any pixel memory exists
    size_t max_memory;              // caps libjpeg's own buffers (a progressive file holds every coefficient)
    int fail_on;                    // FR_FAIL_*
    int max_scans;                  // more scans than this is an error (real files have at most a few dozen)
    double max_work;                // most samples the entropy decoder may visit, summed over scans; 0 = no limit
} fr_jpeg_limits;

/// Opens `fd` (owned by the reader from now on), reads the header and the APP1/APP2 markers, within `limits`.
/// NULL with `err` filled on failure.
fr_jpeg_reader *fr_jpeg_reader_open(int fd, const fr_jpeg_limits *limits, fr_jpeg_header *header, char *err,
                                    size_t errlen);
/// Bytes the coefficient buffers of a multi-scan (progressive) file take, from each component's own sampling; 0
/// for a single-scan file, which holds only a few rows of blocks.
double fr_jpeg_reader_coefficient_bytes(const fr_jpeg_reader *r);
/// Decodes at `num`/8 of the stored size (1…8), in the DCT; before the first row only. Returns the output size.
int fr_jpeg_reader_scale(fr_jpeg_reader *r, int num, uint32_t *width, uint32_t *height);
/// Reads the next `count` rows (1 or 3 or 4 bytes a pixel per color_space) into `dst`. 0 on success.
int fr_jpeg_reader_rows(fr_jpeg_reader *r, uint8_t *dst, size_t stride, uint32_t count);
/// A file set to 1/8 (`fr_jpeg_reader_scale` with 1), before any row: its whole 1/8 image (grey, or RGB) from its DC
/// coefficients alone — a progressive file's DC scans, the AC scans passed over unread; a baseline file's one scan,
/// its AC codes passed over without their values — into `out` (rows `stride` apart). With `libjpeg_chroma` a baseline
/// 4:2:0 file's chroma is libjpeg's own 1/8 (from 2 × 2 of each chroma block's coefficients); without, and in a
/// progressive file, from each chroma block's DC. 0 on success; nonzero where the file is not one this path takes,
/// with the reader as it was (then read rows as usual). See jpeg_dc.c and jpeg_dc_baseline.c.
int fr_jpeg_reader_dc_image(fr_jpeg_reader *r, uint8_t *out, size_t stride, int libjpeg_chroma);
/// Baseline scans smaller than this many bytes are read in one pass at 1/8, larger ones from three places at once;
/// tests lower it to take the second way on small files.
void fr_jpeg_dc_set_lane_bytes(size_t bytes);
size_t fr_jpeg_dc_lane_bytes_now(void);
/// Passes over the next `count` output rows without making them (libjpeg-turbo's jpeg_skip_scanlines: their data is
/// entropy-decoded, but not transformed, upsampled or converted); 0 on success.
int fr_jpeg_reader_skip(fr_jpeg_reader *r, uint32_t count);
/// The `index`th APP2 segment (ICC profiles come split across them), or NULL past the last; valid until close.
const uint8_t *fr_jpeg_reader_app2(fr_jpeg_reader *r, int index, size_t *length);
/// The Exif block (APP1 after "Exif\0\0"), or NULL; valid until close.
const uint8_t *fr_jpeg_reader_exif(fr_jpeg_reader *r, size_t *length);
/// The XMP packet (APP1 after "http://ns.adobe.com/xap/1.0/\0"), or NULL; valid until close.
const uint8_t *fr_jpeg_reader_xmp(fr_jpeg_reader *r, size_t *length);
/// The `index`-th APP1 segment (Exif, XMP, extended XMP chunks…) after its marker and length: 1 and its bytes, or 0
/// when there are fewer. Valid while the reader lives.
int fr_jpeg_reader_app1(fr_jpeg_reader *r, int index, const uint8_t **data, size_t *length);
const char *fr_jpeg_reader_error(const fr_jpeg_reader *r);
/// The class (FR_FAIL_TRUNCATED, FR_FAIL_ERROR, FR_FAIL_WARNING) of what stopped the last call, 0 for a plain error.
int fr_jpeg_reader_failure_class(const fr_jpeg_reader *r);
/// 1 when the scan or work limit stopped decoding.
int fr_jpeg_reader_over_limit(const fr_jpeg_reader *r);
/// Warnings seen and let pass (their class above the fail-on level), and the first one's text and class.
int fr_jpeg_reader_warnings(const fr_jpeg_reader *r, const char **first, int *first_class);
uint32_t fr_jpeg_reader_rows_done(const fr_jpeg_reader *r);
void fr_jpeg_reader_close(fr_jpeg_reader *r);

/// `components` 1 (grey) or 3 (RGB); `quality` 1–100; `subsampling` 444, 422 or 420; `icc` may be NULL.
fr_jpeg_writer *fr_jpeg_writer_open(int fd, uint32_t width, uint32_t height, int components, int quality,
                                    int subsampling, int progressive, int optimize_coding,
                                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                                    const uint8_t *xmp, size_t xmp_length, char *err, size_t errlen);
int fr_jpeg_writer_rows(fr_jpeg_writer *w, const uint8_t *src, size_t stride, uint32_t count);
/// Writes the end of the file and flushes it to the descriptor. 0 on success.
/// Writes an application segment `marker` holding `length` bytes (at most 65 533) before the first row; 0 on success.
int fr_jpeg_writer_marker(fr_jpeg_writer *w, int marker, const uint8_t *data, size_t length);
int fr_jpeg_writer_finish(fr_jpeg_writer *w);
const char *fr_jpeg_writer_error(const fr_jpeg_writer *w);
int fr_jpeg_writer_errno(const fr_jpeg_writer *w);
void fr_jpeg_writer_close(fr_jpeg_writer *w);

// MARK: - Moving the stored planes (jpeg_planes.c)

/// A chain of sample moves (flips, quarter turns, transposes, crops) as one map on pixel positions: output pixel
/// (X, Y) copies input pixel (x0 + dx·X, y0 + dy·Y), or (x0 + dx·Y, y0 + dy·X) when `swap` (a transposing move).
typedef struct {
    int swap;
    long x0, y0;
    int dx, dy;           // ±1
    uint32_t width, height; // the output's size in pixels
} fr_jpeg_move;

/// The luma sampling factors (1 or 2 each) when the file is YCbCr with both chroma components at 1×1 — the layouts
/// whose planes `fr_jpeg_transcode_moved` moves — else 0.
int fr_jpeg_reader_plane_sampling(const fr_jpeg_reader *r, int *h, int *v);
/// Opens a writer that takes Y, Cb, Cr planes (`fr_jpeg_transcode_moved`) instead of RGB rows, its luma sampled
/// `h_samp` × `v_samp` (1 or 2 each; 1 × 2 is 4:4:0, which a turned 4:2:2 photo's planes hold) and chroma 1 × 1;
/// other arguments as `fr_jpeg_writer_open` with 3 components.
fr_jpeg_writer *fr_jpeg_writer_open_planes(int fd, uint32_t width, uint32_t height, int quality, int h_samp, int v_samp,
                                           int progressive, int optimize_coding, const uint8_t *icc, size_t icc_length,
                                           const uint8_t *exif, size_t exif_length, const uint8_t *xmp,
                                           size_t xmp_length, char *err, size_t errlen);
/// Asked between rows of MCUs while a transcode decodes and between bands while it encodes: nonzero stops it
/// (status 4), so a cancelled render does not run to its end.
typedef struct {
    int (*stop)(void *context);
    void *context;
} fr_jpeg_stop;

/// Where a transcode's workers run: `run(body, arg, context)` starts body(arg) on one of the caller's threads (the
/// process's kept stage threads) and returns at once; the transcode waits for every body to return.
typedef struct {
    void (*run)(void (*body)(void *), void *arg, void *context);
    void *context;
} fr_jpeg_threads;

/// Decodes the whole file as its stored Y, Cb, Cr planes (no upsampling, no colour conversion), moves them by
/// `move` and encodes them into `w` (opened by `fr_jpeg_writer_open_planes` at the moved size, its chroma at the
/// input's sampling with the axes swapped when the move swaps them). Chroma samples of a move that does not keep
/// their alignment (an odd crop offset, a flip of an odd length) are the mean of the two they fall between.
/// 0 on success; 1 when reading failed (the reader's error), 2 when writing failed (the writer's), 3 when the
/// layouts do not match or memory ran out (`err`), 4 when `stop` asked (may be NULL). `seconds`: the time spent
/// reading, moving and writing. The planes are moved a band at a time by a worker on `threads` while this thread
/// encodes the bands before (by this thread between bands when `threads` is NULL).
int fr_jpeg_transcode_moved(fr_jpeg_reader *r, fr_jpeg_writer *w, const fr_jpeg_move *move,
                            const fr_jpeg_threads *threads, const fr_jpeg_stop *stop, double seconds[3], char *err,
                            size_t errlen);

/// An affine resampling (a rotation by any angle, a shear, an enlargement): the output pixel centred at (X, Y)
/// (corner origin) reads the input around (m[0]·X + m[1]·Y + m[2], m[3]·X + m[4]·Y + m[5]) with `taps` per axis
/// (2 bilinear, 4 Keys' bicubic); taps outside the input read `background` (R, G, B codes, 0–255).
typedef struct {
    double m[6];
    int taps;
    float background[3];
    uint32_t width, height; // the output's size in pixels
} fr_jpeg_warp;

/// As `fr_jpeg_transcode_moved`, each plane resampled on its own by `warp` at its own sampling (chroma at its
/// sample centres) into an output of the input's sampling, by `workers` workers on `threads` while this thread
/// encodes (by this thread alone, band after band, when `threads` is NULL).
int fr_jpeg_transcode_warped(fr_jpeg_reader *r, fr_jpeg_writer *w, const fr_jpeg_warp *warp, int workers,
                             const fr_jpeg_threads *threads, const fr_jpeg_stop *stop, double seconds[3], char *err,
                             size_t errlen);
#endif
