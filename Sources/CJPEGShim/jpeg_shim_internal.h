// The reader's and writer's state, shared by the files of the shim (jpeg_shim.c, jpeg_planes.c).
#ifndef FR_JPEG_SHIM_INTERNAL_H
#define FR_JPEG_SHIM_INTERNAL_H
#include "jpeg_shim.h"
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 64];
    int truncated;
    // Reading only: the warning policy and what was seen.
    int fail_on;
    int failure_class;       // the class of the warning that stopped decoding
    int eof;                 // the source ran out (libjpeg inserted an end marker)
    int insufficient;        // the entropy decoder needed bits past a marker
    int warnings, first_class;
    char first[JMSG_LENGTH_MAX + 64];
} error_mgr;

struct fr_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    error_mgr err;
    struct jpeg_progress_mgr progress;
    fr_jpeg_limits limits;
    int over_limit;
    int multiple_scans;      // the file has several scans (progressive, or components in scans of their own)
    int counted_scan;        // the last scan whose work was counted
    double work;             // samples the entropy decoder visits, summed over the scans so far
    FILE *file;
    int created, started;
    uint32_t rows;
    const uint8_t *exif;
    size_t exif_length;
    const uint8_t *xmp;
    size_t xmp_length;
};

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

/// Whether every coefficient of a progressive file got its last refinement (before the last row is finished).
int progression_complete(fr_jpeg_reader *r);
/// At the end of the image: classes an early end of the file (see jpeg_shim.c).
void finish_checks(fr_jpeg_reader *r, int complete);
#endif
