// A progressive JPEG read at 1/8 from its DC scans alone. At 1/8 each 8×8 block becomes one pixel, its DC value;
// libjpeg still decodes every AC scan into a buffer of all the coefficients first (four times a baseline file's
// time). Here the DC scans (the first, and the refinements of its low bits) are decoded and the AC scans' data is
// passed over to the next marker, unread. Luma is libjpeg's 1/8 exactly (its 1×1 inverse DCT is the DC value); chroma
// comes from each chroma block's DC too and is upsampled (libjpeg's scaled decode makes subsampled chroma from 2×2
// of its coefficients). Anything this path does not take — another process, a table or restart it cannot follow,
// data that ends or breaks before the end marker — returns nonzero with the reader untouched, and libjpeg decodes
// the file as before, with its messages.
#include "jpeg_dc_internal.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { LOOKAHEAD = 9 };

typedef struct {
    int defined;
    huffman_code code;
    uint16_t look[1 << LOOKAHEAD];  // the next LOOKAHEAD bits: the code's length << 8 | its symbol; 0 for a longer code
} dc_table;

typedef struct {
    const uint8_t *p, *end;
    uint64_t buf;   // bits from the top
    int bits;
    int marker;     // a marker (or the end) was reached: zeros are fed from there
    int fake;       // how many of the buffer's lowest bits are those zeros
} bit_reader;


// A DC table (a DC size over 15 refused as libjpeg refuses it).
static int table_from(dc_table *t, const uint8_t *bits16, const uint8_t *vals, int count) {
    t->defined = !huffman_code_from(&t->code, bits16, vals, count, 1, t->look, LOOKAHEAD);
    return !t->defined;
}

static void fill(bit_reader *b) {
    while (b->bits <= 56) {
        uint32_t c = 0;
        if (!b->marker && b->p < b->end) {
            c = *b->p;
            if (c == 0xFF) {
                if (b->p + 1 < b->end && b->p[1] == 0) {
                    b->p += 2;
                } else {
                    b->marker = 1;  // left at the marker's 0xFF
                    c = 0;
                }
            } else {
                b->p++;
            }
        } else {
            b->marker = 1;
        }
        if (b->marker) b->fake += 8;
        b->buf |= (uint64_t)c << (56 - b->bits);
        b->bits += 8;
    }
}

// Whether bits past the scan's data (the zeros fed after its marker) were taken: the data ended early.
static int overran(const bit_reader *b) { return b->bits < b->fake; }

// One symbol, or -1 for a code the table does not have (or one made of the zeros after a marker).
static int decode(bit_reader *b, const dc_table *t) {
    if (b->bits < 32) fill(b);
    uint16_t hit = t->look[b->buf >> (64 - LOOKAHEAD)];
    if (hit) {
        int l = hit >> 8;
        b->buf <<= l;
        b->bits -= l;
        return hit & 0xFF;
    }
    int l, symbol = huffman_symbol(&t->code, b->buf, &l);
    if (symbol < 0) return -1;
    b->buf <<= l;
    b->bits -= l;
    return symbol;
}

static int bits_of(bit_reader *b, int n) {
    if (n == 0) return 0;
    if (b->bits < 32) fill(b);
    int v = (int)(b->buf >> (64 - n));
    b->buf <<= n;
    b->bits -= n;
    return v;
}

// Starts reading scan data at p.
static void reader_at(bit_reader *b, const uint8_t *p, const uint8_t *end) {
    b->p = p; b->end = end; b->buf = 0; b->bits = 0; b->marker = 0; b->fake = 0;
}

// Where the data after the bits taken continues: the next marker, or NULL where the scan overran its data or more
// than the last byte's padding is left (libjpeg would warn of extraneous bytes).
static const uint8_t *marker_after(const bit_reader *b) {
    if (overran(b)) return NULL;
    int unread = (b->bits - b->fake) / 8;  // whole data bytes fetched and not taken
    if (unread > 0) return NULL;
    const uint8_t *p = b->p;
    if (p + 1 < b->end && p[0] == 0xFF && p[1] != 0) return p;
    return NULL;
}

// The next marker at or after p in AC scan data (stuffed zeros and restarts are part of the data), or NULL.
static const uint8_t *skip_scan(const uint8_t *p, const uint8_t *end) {
    while (p + 1 < end) {
        const uint8_t *ff = memchr(p, 0xFF, (size_t)(end - p - 1));
        if (!ff) return NULL;
        uint8_t m = ff[1];
        if (m == 0 || (m >= 0xD0 && m <= 0xD7) || m == 0xFF) { p = ff + 1; continue; }
        return ff;
    }
    return NULL;
}

typedef struct {
    dc_component comp[4];
    int ncomp, hmax, vmax, mcux, mcuy;
    dc_table tables[4];
    int restart;
} dc_state;

// Decodes one DC scan (first pass or refinement) starting at p; returns where its marker is, or NULL.
static const uint8_t *dc_scan(dc_state *s, const uint8_t *p, const uint8_t *end, int n, const int *which,
                              const int *td, int ah, int al) {
    bit_reader b;
    reader_at(&b, p, end);
    for (int i = 0; i < n; i++) s->comp[which[i]].pred = 0;
    // A scan of one component runs over its own blocks; one of several over whole MCUs.
    int rows = n == 1 ? s->comp[which[0]].hb : s->mcuy, cols = n == 1 ? s->comp[which[0]].wb : s->mcux;
    int expected_rst = 0, left = s->restart;
    for (int my = 0; my < rows; my++) {
        for (int mx = 0; mx < cols; mx++) {
            if (s->restart) {
                if (left == 0) {
                    // The restart marker: the bits left in the byte are padding.
                    const uint8_t *at = marker_after(&b);
                    if (!at || at[1] != 0xD0 + expected_rst) return NULL;
                    expected_rst = (expected_rst + 1) & 7;
                    reader_at(&b, at + 2, end);
                    for (int i = 0; i < n; i++) s->comp[which[i]].pred = 0;
                    left = s->restart;
                }
                left--;
            }
            for (int i = 0; i < n; i++) {
                dc_component *c = &s->comp[which[i]];
                int bw = n == 1 ? 1 : c->h, bh = n == 1 ? 1 : c->v;
                int bx0 = n == 1 ? mx : mx * c->h, by0 = n == 1 ? my : my * c->v;
                const dc_table *table = &s->tables[td[i]];
                for (int by = 0; by < bh; by++) {
                    int16_t *dc = &c->dc[(size_t)(by0 + by) * c->pw + bx0];
                    for (int bx = 0; bx < bw; bx++) {
                        if (ah == 0) {
                            int t = decode(&b, table);
                            if (t < 0 || t > 11) return NULL;
                            int diff = bits_of(&b, t);
                            if (t && diff < (1 << (t - 1))) diff += (-1 << t) + 1;
                            c->pred += diff;
                            if (c->pred < -32768 || c->pred > 32767) return NULL;
                            int v = c->pred * (1 << al);
                            if (v < -32768 || v > 32767) return NULL;
                            dc[bx] = (int16_t)v;
                        } else {
                            // The next bit of the value, unconditionally (a branch on it mispredicts half the time).
                            dc[bx] = (int16_t)(dc[bx] | (bits_of(&b, 1) << al));
                        }
                    }
                }
            }
            if (overran(&b)) return NULL;
        }
    }
    return marker_after(&b);
}

static int u16(const uint8_t *p) { return p[0] << 8 | p[1]; }

static uint8_t clamp255(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

// A component's 1/8 samples: each block's DC through libjpeg's 1×1 inverse DCT (dequantised, descaled by 8, then
// limited as its range table limits: the value masked to 10 bits, 512 and up taken as negative, plus 128 and clamped —
// so that the out-of-range values of a damaged file wrap round as libjpeg's do).
static uint8_t *samples_of(const dc_component *c) {
    uint8_t *plane = malloc((size_t)c->wb * c->hb);
    if (!plane) return NULL;
    for (int y = 0; y < c->hb; y++)
        for (int x = 0; x < c->wb; x++) {
            int v = ((c->dc[(size_t)y * c->pw + x] * c->quant + 4) >> 3) & 1023;
            plane[(size_t)y * c->wb + x] = clamp255((v >= 512 ? v - 1024 : v) + 128);
        }
    return plane;
}

// A plane `rx`, `ry` (1 or 2) times coarser than the output, brought to the output's `w` × `h`: libjpeg's fancy
// upsampling weights where coarser (3/4 of the nearer sample and 1/4 of the other on each axis, the edges repeated),
// the samples themselves where not. Separable: each output row blends two plane rows (`blend`, 4 × the samples),
// then neighbouring columns; the loops are plain enough for the compiler's vectors. `blend` holds pw + 2 ints.
static void upsample(const uint8_t *plane, int pw, int ph, int rx, int ry, uint8_t *out, int w, int h, int *blend) {
    int *t = blend + 1;  // t[-1] and t[pw] repeat the edges
    for (int y = 0; y < h; y++) {
        int y0 = y / ry < ph ? y / ry : ph - 1, y1 = y0;
        if (ry == 2) y1 = (y & 1) ? (y0 + 1 < ph ? y0 + 1 : y0) : (y0 > 0 ? y0 - 1 : 0);
        int wy = ry == 2 ? 3 : 4;
        const uint8_t *near = plane + (size_t)y0 * pw, *far = plane + (size_t)y1 * pw;
        for (int i = 0; i < pw; i++) t[i] = wy * near[i] + (4 - wy) * far[i];
        t[-1] = t[0];
        t[pw] = t[pw - 1];
        uint8_t *row = out + (size_t)y * w;
        if (rx == 1) {
            for (int x = 0; x < w; x++) row[x] = (uint8_t)((4 * t[x < pw ? x : pw - 1] + 8) >> 4);
        } else {
            // Output column 2i takes 3/4 of column i and 1/4 of column i − 1; 2i + 1 the same with column i + 1.
            int pairs = w / 2;
            for (int i = 0; i < pairs; i++) {
                int j = i < pw ? i : pw - 1;
                row[2 * i] = (uint8_t)((3 * t[j] + t[j - 1] + 8) >> 4);
                row[2 * i + 1] = (uint8_t)((3 * t[j] + (j + 1 < pw ? t[j + 1] : t[j]) + 8) >> 4);
            }
            if (w & 1) {
                int j = pairs < pw ? pairs : pw - 1;
                row[w - 1] = (uint8_t)((3 * t[j] + t[j - 1] + 8) >> 4);
            }
        }
    }
}

int fr_jpeg_reader_dc_image(fr_jpeg_reader *r, uint8_t *out, size_t stride, int libjpeg_chroma) {
    j_decompress_ptr c = &r->cinfo;
    if (r->started || c->arith_code || c->data_precision != 8) return 1;
    if (c->scale_num != 1 || c->scale_denom != 8 || r->limits.fail_on >= FR_FAIL_WARNING) return 1;
    int grey = c->jpeg_color_space == JCS_GRAYSCALE && c->num_components == 1;
    if (!grey && !(c->jpeg_color_space == JCS_YCbCr && c->num_components == 3)) return 1;
    if (c->output_width != (c->image_width + 7) / 8 || c->output_height != (c->image_height + 7) / 8) return 1;

    dc_state s;
    memset(&s, 0, sizeof s);
    s.ncomp = c->num_components;
    s.hmax = c->max_h_samp_factor;
    s.vmax = c->max_v_samp_factor;
    s.mcux = (int)((c->image_width + 8 * s.hmax - 1) / (8 * s.hmax));
    s.mcuy = (int)((c->image_height + 8 * s.vmax - 1) / (8 * s.vmax));
    s.restart = (int)c->restart_interval;
    for (int i = 0; i < s.ncomp; i++) {
        jpeg_component_info *ci = &c->comp_info[i];
        dc_component *d = &s.comp[i];
        d->id = ci->component_id;
        d->h = ci->h_samp_factor;
        d->v = ci->v_samp_factor;
        // Luma at full resolution; chroma at it or half of it on each axis.
        int rx = s.hmax / d->h, ry = s.vmax / d->v;
        if (s.hmax % d->h || s.vmax % d->v || rx > 2 || ry > 2 || (i == 0 && (rx != 1 || ry != 1))) return 1;
        JQUANT_TBL *q = ci->quant_tbl_no >= 0 && ci->quant_tbl_no < NUM_QUANT_TBLS ? c->quant_tbl_ptrs[ci->quant_tbl_no] : NULL;
        if (!q) return 1;
        d->quant = q->quantval[0];
        long cw = ((long)c->image_width * d->h + s.hmax - 1) / s.hmax, ch = ((long)c->image_height * d->v + s.vmax - 1) / s.vmax;
        d->wb = (int)((cw + 7) / 8);
        d->hb = (int)((ch + 7) / 8);
        d->pw = s.mcux * d->h;
        d->ph = s.mcuy * d->v;
        d->al = -1;
    }
    for (int t = 0; t < 4; t++) {
        JHUFF_TBL *h = c->dc_huff_tbl_ptrs[t];
        if (h && table_from(&s.tables[t], h->bits + 1, h->huffval, 256)) return 1;
    }

    // The rest of the file from the first scan's data: what libjpeg's source holds, then the file after it.
    struct stat info;
    long position = ftell(r->file);
    if (position < 0 || fstat(fileno(r->file), &info) != 0 || !S_ISREG(info.st_mode) || info.st_size < position) return 1;
    size_t held = c->src->bytes_in_buffer, rest = (size_t)(info.st_size - position);
    // The rest is read whole: no more than the samples it codes (a megabyte spare), and the memory limit; a larger
    // file (junk after the image, say) is libjpeg's, which reads only up to the end marker.
    size_t samples = (size_t)c->image_width * c->image_height * (size_t)c->num_components + ((size_t)1 << 20);
    if (rest > samples || rest > r->limits.max_memory) return 1;
    uint8_t *data = malloc(held + rest + 2);
    int status = 1;
    uint8_t *planes[4] = {0};
    for (int i = 0; i < s.ncomp; i++) {
        s.comp[i].dc = calloc((size_t)s.comp[i].pw * s.comp[i].ph, sizeof(int16_t));
        if (!s.comp[i].dc) goto done;
    }
    if (!data) goto done;
    memcpy(data, c->src->next_input_byte, held);
    if (fread(data + held, 1, rest, r->file) != rest) goto done;
    const uint8_t *p = data, *end = data + held + rest;

    if (!c->progressive_mode) {
        // A baseline file's one scan: every AC code is passed over (jpeg_dc_baseline.c).
        if (baseline_dc_scan(c, s.comp, s.mcux, s.mcuy, p, end, libjpeg_chroma)) goto done;
        for (int i = 0; i < s.ncomp; i++) s.comp[i].al = 0;
        goto finished;
    }

    // The first scan's header was read by libjpeg.
    int n = c->comps_in_scan, which[4], td[4];
    for (int i = 0; i < n; i++) {
        which[i] = c->cur_comp_info[i]->component_index;
        td[i] = c->cur_comp_info[i]->dc_tbl_no;
    }
    int ss = c->Ss, se = c->Se, ah = c->Ah, al = c->Al, scans = 1;
    while (1) {
        if (ss == 0) {
            if (se != 0 || al > 13) goto done;
            for (int i = 0; i < n; i++) {
                dc_component *d = &s.comp[which[i]];
                // A first pass once; each refinement takes the next low bit.
                if (ah == 0 ? d->al != -1 : (d->al != ah || al != ah - 1)) goto done;
                if (ah == 0 && (td[i] < 0 || td[i] > 3 || !s.tables[td[i]].defined)) goto done;
            }
            p = dc_scan(&s, p, end, n, which, td, ah, al);
            if (!p) goto done;
            for (int i = 0; i < n; i++) s.comp[which[i]].al = al;
        } else {
            p = skip_scan(p, end);
            if (!p) goto done;
        }
        // Markers up to the next scan or the end.
        while (1) {
            while (p + 1 < end && p[0] == 0xFF && p[1] == 0xFF) p++;
            if (p + 1 >= end || p[0] != 0xFF) goto done;
            int m = p[1];
            p += 2;
            if (m == 0xD9) goto finished;
            if (p + 2 > end) goto done;
            int length = u16(p);
            if (length < 2 || p + length > end) goto done;
            const uint8_t *seg = p + 2, *segend = p + length;
            p = segend;
            if (m == 0xC4) {  // DHT: DC tables are kept, AC tables are not needed
                while (seg < segend) {
                    if (segend - seg < 17) goto done;
                    int cls = seg[0] >> 4, slot = seg[0] & 15, count = 0;
                    for (int l = 0; l < 16; l++) count += seg[1 + l];
                    if (cls > 1 || slot > 3 || segend - seg < 17 + count) goto done;
                    if (cls == 0 && table_from(&s.tables[slot], seg + 1, seg + 17, count)) goto done;
                    seg += 17 + count;
                }
            } else if (m == 0xDD) {  // DRI
                if (length != 4) goto done;
                s.restart = u16(seg);
            } else if (m == 0xDA) {  // SOS
                if (++scans > r->limits.max_scans && r->limits.max_scans > 0) goto done;
                if (segend - seg < 1) goto done;
                n = seg[0];
                if (n < 1 || n > s.ncomp || segend - seg != 1 + 2 * n + 3) goto done;
                for (int i = 0; i < n; i++) {
                    int id = seg[1 + 2 * i], found = -1;
                    for (int k = 0; k < s.ncomp; k++) if (s.comp[k].id == id) found = k;
                    if (found < 0) goto done;
                    which[i] = found;
                    td[i] = seg[2 + 2 * i] >> 4;
                }
                const uint8_t *tail = seg + 1 + 2 * n;
                ss = tail[0]; se = tail[1]; ah = tail[2] >> 4; al = tail[2] & 15;
                if (ss > 63 || se > 63 || (ss > 0 && n != 1)) goto done;
                break;
            } else if (m == 0xFE || (m >= 0xE0 && m <= 0xEF)) {
                // comments and application data
            } else {
                goto done;  // DQT, DNL, a second frame…: libjpeg's to handle
            }
        }
    }
finished:
    for (int i = 0; i < s.ncomp; i++) if (s.comp[i].al != 0) goto done;  // a DC bit never came
    for (int i = 0; i < s.ncomp; i++) if (!(planes[i] = samples_of(&s.comp[i]))) goto done;
    {
        int w = (int)c->output_width, h = (int)c->output_height;
        if (grey) {
            for (int y = 0; y < h; y++) memcpy(out + (size_t)y * stride, planes[0] + (size_t)y * s.comp[0].wb, (size_t)w);
        } else {
            uint8_t *full = malloc((size_t)w * h * 2);
            int *columns = malloc(sizeof(int) * (2 * ((size_t)s.comp[1].wb + (size_t)s.comp[2].wb) + 4));
            if (!full || !columns) { free(full); free(columns); goto done; }
            for (int i = 1; i < 3; i++) {
                if (s.comp[i].fine)  // already at the output's resolution
                    upsample(s.comp[i].fine, 2 * s.comp[i].wb, 2 * s.comp[i].hb, 1, 1, full + (size_t)(i - 1) * w * h, w, h,
                             columns);
                else
                    upsample(planes[i], s.comp[i].wb, s.comp[i].hb, s.hmax / s.comp[i].h, s.vmax / s.comp[i].v,
                             full + (size_t)(i - 1) * w * h, w, h, columns);
            }
            for (int y = 0; y < h; y++) {
                const uint8_t *luma = planes[0] + (size_t)y * s.comp[0].wb;
                const uint8_t *blue = full + (size_t)y * w, *red = full + (size_t)w * h + (size_t)y * w;
                uint8_t *row = out + (size_t)y * stride;
                for (int x = 0; x < w; x++) {
                    int yy = luma[x], cb = blue[x] - 128, cr = red[x] - 128;
                    // JFIF's Y'CbCr to R'G'B' in 16-bit fixed point, rounded as libjpeg rounds (jdcolor.c's tables:
                    // the green term's half added before the shift), so full-resolution chroma gives its pixels exactly.
                    int r = yy + ((91881 * cr + 32768) >> 16);
                    int g = yy + ((32768 - 22554 * cb - 46802 * cr) >> 16);
                    int b = yy + ((116130 * cb + 32768) >> 16);
                    row[3 * x] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
                    row[3 * x + 1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
                    row[3 * x + 2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
                }
            }
            free(full);
            free(columns);
        }
    }
    status = 0;
done:
    for (int i = 0; i < s.ncomp; i++) { free(s.comp[i].dc); free(s.comp[i].fine); free(planes[i]); }
    free(data);
    if (status) fseek(r->file, position, SEEK_SET);  // libjpeg reads on from where it was
    return status;
}
