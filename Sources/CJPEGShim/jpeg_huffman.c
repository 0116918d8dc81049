// The canonical Huffman code of a JPEG DHT segment, as libjpeg builds and checks it, with a lookup of its short
// codes: shared by the progressive (jpeg_dc.c) and baseline (jpeg_dc_baseline.c) 1/8 paths.
#include "jpeg_dc_internal.h"
#include <string.h>

int huffman_code_from(huffman_code *h, const uint8_t *bits16, const uint8_t *vals, int count, int dc, uint16_t *look,
                      int look_bits) {
    memset(h, 0, sizeof *h);
    memset(look, 0, sizeof(uint16_t) << look_bits);
    int code = 0, k = 0;
    for (int l = 1; l <= 16; l++) {
        int n = bits16[l - 1];
        h->valoff[l] = k - code;
        code += n;
        k += n;
        if (code >= (1 << l)) return 1;  // more codes of this length than fit, or the all-ones code: libjpeg refuses
        h->maxcode[l] = n ? code - 1 : -1;
        code <<= 1;
    }
    if (k > count || k > 256) return 1;
    h->maxcode[17] = 0x7fffffff;
    memcpy(h->vals, vals, (size_t)k);
    if (dc)
        for (int i = 0; i < k; i++)
            if (h->vals[i] > 15) return 1;  // no such DC size: libjpeg refuses the table whether it is used or not
    code = 0;
    k = 0;
    for (int l = 1; l <= 16; l++) {
        for (int i = 0; i < bits16[l - 1]; i++, code++, k++) {
            if (l > look_bits) continue;
            int spare = look_bits - l;
            for (int j = 0; j < (1 << spare); j++) look[(code << spare) | j] = (uint16_t)(l << 8 | h->vals[k]);
        }
        code <<= 1;
    }
    return 0;
}
