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

/// A canonical Huffman code as a JPEG DHT segment gives it (jpeg_huffman.c), shared by both 1/8 paths.
typedef struct {
    int32_t maxcode[18];  // largest code of each length, -1 where none
    int32_t valoff[17];   // index into vals of a code of that length, less the code
    uint8_t vals[256];
} huffman_code;

/// The code of the 16 counts `bits16` and their symbols `vals` (at most `count` of them), and in `look` (1 <<
/// `look_bits` entries) each `look_bits`-bit pattern's first code: its length << 8 | its symbol, 0 for a longer
/// one. Nonzero for a table libjpeg refuses: more codes of a length than fit, the all-ones code, or (`dc`) a DC
/// size over 15, whether a code uses it or not.
int huffman_code_from(huffman_code *h, const uint8_t *bits16, const uint8_t *vals, int count, int dc, uint16_t *look,
                      int look_bits);

/// The symbol of the code at the top of `w`, its length in `*length`; -1 for a code the table does not have.
static inline int huffman_symbol(const huffman_code *h, uint64_t w, int *length) {
    int l = 1;
    int32_t code = (int32_t)(w >> 63);
    while (l <= 16 && code > h->maxcode[l]) {
        l++;
        code = (int32_t)(w >> (64 - l));
    }
    if (l > 16) return -1;
    *length = l;
    return h->vals[(code + h->valoff[l]) & 0xFF];
}

/// The DC coefficients of a baseline file's one scan, all components interleaved, into `comp[i].dc` (and with
/// `libjpeg_chroma`, 4:2:0 chroma as libjpeg makes it at 1/8 into `comp[i].fine`); `data` is the scan's entropy-coded
/// data up to the end of the file (held bytes then the rest), `end` its end. 0 where the scan was read to its end
/// marker with no irregularity; nonzero leaves libjpeg to decode the file.
int baseline_dc_scan(j_decompress_ptr c, dc_component *comp, int mcux, int mcuy, const uint8_t *data, const uint8_t *end,
                     int libjpeg_chroma);
#endif
