// What the two 1/8 paths share: a component's DC coefficients, read by the progressive path (jpeg_dc.c) from its DC
// scans and by the baseline path (jpeg_dc_baseline.c) from its one scan.
#ifndef JPEG_DC_INTERNAL_H
#define JPEG_DC_INTERNAL_H
#include "jpeg_shim_internal.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int id, h, v, quant;
    int wb, hb;     // the component's blocks
    int pw, ph;     // blocks stored (whole MCUs)
    int16_t *dc;
    uint8_t *fine;  // where not NULL: the component's samples at 2 × 2 a block (4:2:0 chroma as libjpeg makes it at
                    // 1/8), `2 wb` × `2 hb`, used in place of `dc`
    int pred;
    int al;         // the low bits still missing (-1 before the first DC scan)
} dc_component;

/// The DC coefficients of a baseline file's one scan, all components interleaved, into `comp[i].dc` (and with
/// `libjpeg_chroma`, 4:2:0 chroma as libjpeg makes it at 1/8 into `comp[i].fine`); `data` is the scan's entropy-coded
/// data up to the end of the file (held bytes then the rest), `end` its end. 0 where the scan was read to its end
/// marker with no irregularity; nonzero leaves libjpeg to decode the file.
int baseline_dc_scan(j_decompress_ptr c, dc_component *comp, int mcux, int mcuy, const uint8_t *data, const uint8_t *end,
                     int libjpeg_chroma);
#endif
