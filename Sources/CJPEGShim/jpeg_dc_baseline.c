// A baseline JPEG's DC coefficients, for its 1/8 image, read faster than libjpeg reads the whole scan.
//
// A baseline scan interleaves every coefficient of every block in one Huffman-coded stream, so the DC values cannot be
// reached without passing over each AC code: the time is the entropy decoder's, each code's table lookup waiting on
// the shift of the one before. Three things shorten it here.
//  - The stuffed zeros are taken out first (one memchr pass), so a code is read with one unaligned load at its bit
//    position, with no check for markers.
//  - AC codes are passed over without their values: one table entry consumes up to LOOK bits' worth of codes and
//    their extra bits at once. Only where each block begins is kept; its DC value is read from there at the end.
//  - The stream is decoded from LANES places at once, interleaved in one loop, so that the core overlaps the lanes'
//    dependency chains. Only the first lane starts where the scan starts; the others start at a byte part way
//    through, in a guessed state (the first block of an MCU), and decode what may be garbage until their codes fall
//    into step with the stream's, which a Huffman code does within a few codes. Once lane i has decoded to where
//    lane i + 1 began, it goes on until it reaches a block start that lane i + 1 also began, in the same place of
//    the MCU: from there the two decode the same bits in the same state, so lane i + 1's blocks on are the stream's.
//    A lane that never falls into step is decoded through by the lane before it. A scan with restart markers needs
//    none of that: its segments begin on known bytes with the predictions reset, so the lanes start there
//    (`run_segments`).
// DC values are differences from the previous block of the component, so they are read and summed once every block's
// place is known. At 1/8 libjpeg makes 4:2:0 chroma from 2 × 2 of each chroma block's coefficients (no upsampling
// after); with `libjpeg_chroma` the chroma blocks are decoded again, values and all, from where they begin and put
// through libjpeg's own 2 × 2 transform, so the image is libjpeg's exactly. Anything irregular in the blocks that count — a code the table does not have, data ending early,
// more than padding after the last block (or a segment's), a restart marker missing or out of order, a marker other
// than the end — returns nonzero, and libjpeg decodes the file with its own messages.
#include "jpeg_dc_internal.h"
#include <stdlib.h>
#include <string.h>

enum {
    LOOK = 12,        // bits looked up at once
    LANES = 3,        // the gain levels off past three on the cores measured (BENCHMARKS.md)
    PADDING = 1024,   // zero bytes after the data: a lane finishing its last block may read past the end
};

static _Atomic size_t lane_bytes = 96 * 1024;

void fr_jpeg_dc_set_lane_bytes(size_t bytes) { lane_bytes = bytes; }
size_t fr_jpeg_dc_lane_bytes_now(void) { return lane_bytes; }

// A table entry (0: look the code up the slow way). An AC entry holds one code and, where more whole codes with their
// extra bits fit in LOOK bits, the run of them: bits 0-4 the run's bits, 5-11 how far it moves along the block (64
// where it ends it), 12-17 how far the run moves before its last code (the run is taken only where that stays inside
// the block), 18-22 and 23-29 the first code's bits and move alone. A DC entry: bits and move (1) in both places, the
// size of the difference's value in bits 12-17.
#define ENTRY(ctot, cadv, cneed, stot, sadv) \
    ((uint32_t)(ctot) | (uint32_t)(cadv) << 5 | (uint32_t)(cneed) << 12 | (uint32_t)(stot) << 18 |             \
     (uint32_t)(sadv) << 23 | 1u << 30)

typedef struct {
    uint32_t fast[1 << LOOK];
    uint16_t code[1 << LOOK];  // each LOOK-bit pattern's first code: length << 8 | symbol; 0 for a longer code
    huffman_code huffman;
    int ac;
} lane_table;

typedef struct {
    uint64_t pos;          // bit position in the unstuffed data
    int k;                 // 0 before a block's DC code, then the coefficient reached
    int blk;               // the block's place in the MCU
    uint32_t n;            // blocks begun
    int64_t last_error;    // the block of the lane's last undecodable code, -1 for none
    uint32_t *start;       // each block's first bit (its DC code's), `n` of them and one spare
    // In a scan with restart markers: the segment being decoded and the one after the lane's last, the blocks begun
    // when the segment is complete, and where its data ends (bits).
    uint32_t seg, seg_last, nend;
    uint64_t limit;
} lane;

typedef struct {
    const lane_table *table[2 * 10];  // a block place's AC table, then its DC table
    uint8_t next[10];                 // the place after each
    uint8_t component[10];
    uint8_t row[10], column[10];      // the place's block within its component's part of the MCU
    int places;
    uint32_t capacity;
} lane_plan;

static int lane_table_from(lane_table *t, const JHUFF_TBL *h, int ac) {
    memset(t->fast, 0, sizeof t->fast);
    t->ac = ac;
    if (huffman_code_from(&t->huffman, h->bits + 1, h->huffval, 256, !ac, t->code, LOOK)) return 1;
    const uint16_t *single = t->code;
    for (uint32_t bits = 0; bits < (1u << LOOK); bits++) {
        if (!single[bits]) continue;
        int l = single[bits] >> 8, symbol = single[bits] & 0xFF, s = symbol & 15, r = symbol >> 4;
        if (l + s > LOOK) continue;
        if (!ac) {
            t->fast[bits] = ENTRY(l + s, 1, s, l + s, 1);
            continue;
        }
        int move = s ? r + 1 : (r == 15 ? 16 : 64);
        int total = l + s, moved = move, before = 0;
        while (moved < 64) {
            int left = LOOK - total;
            uint16_t next = single[(bits << total) & ((1u << LOOK) - 1)];
            if (!next || (next >> 8) > left) break;
            int l2 = next >> 8, s2 = next & 15, r2 = (next & 0xFF) >> 4;
            if (l2 + s2 > left) break;
            int move2 = s2 ? r2 + 1 : (r2 == 15 ? 16 : 64);
            before = moved;
            total += l2 + s2;
            moved = move2 == 64 ? 64 : moved + move2;
            if (moved > 64) moved = 64;
        }
        // `before` < 64 always: a run is taken only where the block is still open before its last code.
        t->fast[bits] = ENTRY(total, moved, before, l + s, move);
    }
    return 0;
}

// The entry for a code longer than LOOK bits (or whose extra bits run past them), or 0 for a code the table lacks.
static uint32_t slow_entry(const lane_table *t, uint64_t w) {
    int l, symbol = huffman_symbol(&t->huffman, w, &l);
    if (symbol < 0) return 0;
    int s = symbol & 15, r = symbol >> 4;
    if (!t->ac) return ENTRY(l + s, 1, s, l + s, 1);  // a DC size is at most 15: the table was refused otherwise
    int move = s ? r + 1 : (r == 15 ? 16 : 64);
    return ENTRY(l + s, move, 0, l + s, move);
}

static inline uint64_t peek(const uint8_t *data, uint64_t pos) {
    uint64_t w;
    memcpy(&w, data + (pos >> 3), 8);
    return __builtin_bswap64(w) << (pos & 7);
}

// One code (or a run of AC codes) of one lane, with no branch but for codes the table does not hold whole and runs
// that would cross the block's end. Only where each block begins is kept (its DC value is read from there once the
// blocks are lined up): every step writes the next block's start, and a DC step moves on past it.
#define STEP(pos, k, blk, n, start, lane_)                                                                     \
    do {                                                                                                       \
        uint64_t w_ = peek(data, pos);                                                                          \
        int dc_ = (k) == 0;                                                                                    \
        const lane_table *t_ = plan->table[(blk) * 2 + dc_];                                                   \
        uint32_t e_ = t_->fast[w_ >> (64 - LOOK)];                                                             \
        if (__builtin_expect(!e_, 0)) {                                                                        \
            e_ = slow_entry(t_, w_);                                                                           \
            if (!e_) { (lane_)->last_error = (n); e_ = ENTRY(1, 64, 0, 1, 64); }                               \
        }                                                                                                      \
        int tot_ = (int)(e_ & 31), adv_ = (int)(e_ >> 5) & 127;                                                \
        if (__builtin_expect((k) + (int)((e_ >> 12) & 63) >= 64, 0)) {                                         \
            tot_ = (int)(e_ >> 18) & 31;                                                                       \
            adv_ = (int)(e_ >> 23) & 127;                                                                      \
        }                                                                                                      \
        start[n] = (uint32_t)(pos);                                                                            \
        (n) += (uint32_t)dc_;                                                                                  \
        (pos) += (uint64_t)tot_;                                                                               \
        int moved_ = (k) + adv_;                                                                               \
        int open_ = -(moved_ < 64);                                                                            \
        int next_ = plan->next[blk];                                                                           \
        (k) = moved_ & open_;                                                                                  \
        (blk) = ((blk) & open_) | (next_ & ~open_);                                                            \
    } while (0)

#define LANE_IN(i)                                                                                             \
    uint64_t pos##i = L[i].pos;                                                                                \
    int k##i = L[i].k, blk##i = L[i].blk;                                                                      \
    uint32_t n##i = L[i].n;                                                                                    \
    uint32_t *start##i = L[i].start;
#define LANE_OUT(i) L[i].pos = pos##i; L[i].k = k##i; L[i].blk = blk##i; L[i].n = n##i;
#define LANE_STEP(i) STEP(pos##i, k##i, blk##i, n##i, start##i, &L[i])

// One lane, on to the first block start at or past `stop` (or until it holds `capacity` blocks).
static void run_one(lane *L, const uint8_t *data, const lane_plan *plan, uint64_t stop) {
    LANE_IN(0)
    uint32_t capacity = plan->capacity;
    while ((pos0 < stop || k0) && n0 < capacity) LANE_STEP(0);
    LANE_OUT(0)
}

// Three lanes in step, until the first of them reaches its stop; each is then finished alone (`run_one`). A step
// begins at most one block a lane, so the capacity is checked once for as many steps as it has room for.
__attribute__((noinline)) static void run_three(lane *L, const uint8_t *data, const lane_plan *plan, const uint64_t *stop) {
    LANE_IN(0) LANE_IN(1) LANE_IN(2)
    uint64_t stop0 = stop[0], stop1 = stop[1], stop2 = stop[2];
    for (;;) {
        uint32_t most = n0 > n1 ? n0 : n1;
        most = most > n2 ? most : n2;
        if (most >= plan->capacity) break;
        uint32_t room = plan->capacity - most;
        while (room-- && pos0 < stop0 && pos1 < stop1 && pos2 < stop2) {
            LANE_STEP(0);
            LANE_STEP(1);
            LANE_STEP(2);
        }
        if (pos0 >= stop0 || pos1 >= stop1 || pos2 >= stop2) break;
    }
    LANE_OUT(0) LANE_OUT(1) LANE_OUT(2)
}

// A block's DC difference, from its DC code at `pos` (which the scan decoded: the entry exists). Without a branch on
// the size: a zero difference (size 0) is common and unpredictable.
static inline int dc_difference(const lane_table *t, const uint8_t *data, uint64_t pos) {
    uint64_t w = peek(data, pos);
    uint32_t e = t->fast[w >> (64 - LOOK)];
    if (__builtin_expect(!e, 0)) e = slow_entry(t, w);
    unsigned s = (e >> 12) & 15, l = (e & 31) - s;
    // The s bits after the code (none for size 0: shifted in two steps, never by 64).
    int v = (int)(((w << l) >> 1) >> (63 - s));
    // Values under half the size's range are negative (JPEG's extension).
    int half = (1 << s) >> 1;
    return v < half ? v - (1 << s) + 1 : v;
}

// Lane `t`, which holds the stream's blocks, decodes on until it reaches a block start lane `s` also began, in the same
// place of the MCU (`s` began in the first place): the index of that block in `s`, or -1 where `t` passed `stop`
// first.
static int64_t line_up(lane *t, const lane *s, const uint8_t *data, const lane_plan *plan, uint64_t stop) {
    uint32_t j = 0;
    lane *L = t;
    LANE_IN(0)
    int64_t found = -1;
    while (n0 < plan->capacity) {
        if (k0 == 0) {
            while (j < s->n && s->start[j] < pos0) j++;
            if (j < s->n && s->start[j] == pos0 && (int)(j % (uint32_t)plan->places) == blk0) { found = j; break; }
            if (pos0 >= stop) break;
        }
        LANE_STEP(0);
    }
    LANE_OUT(0)
    return found;
}

// libjpeg's 2 × 2 inverse DCT (its scaled decode's for 4:2:0 chroma at 1/8), exported by libjpeg-turbo though not
// declared in its public headers; it reads the multipliers from `compptr->dct_table` (16-bit where the library is
// built with SIMD, as Debian's is) and the output range from `cinfo->sample_range_limit`.
extern void jpeg_idct_2x2(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                          JSAMPARRAY output_buf, JDIMENSION output_col);
extern const int jpeg_natural_order[];

// The block's coefficients in natural order, decoded with their values from its DC code at `pos` (the scan decoded
// these codes: every one is in the tables). The DC term is left to the caller. Returns whether any AC term is set.
static int block_values(const lane_table *dc, const lane_table *ac, const uint8_t *data, uint64_t pos, JCOEF *coef,
                        const short *q, int64_t *sum) {
    uint64_t w = peek(data, pos);
    uint32_t e = dc->fast[w >> (64 - LOOK)];
    if (!e) e = slow_entry(dc, w);
    pos += e & 31;
    int any = 0;
    for (int k = 1; k < 64;) {
        w = peek(data, pos);
        int l, symbol;
        uint16_t hit = ac->code[w >> (64 - LOOK)];
        if (hit) {
            l = hit >> 8;
            symbol = hit & 0xFF;
        } else {
            symbol = huffman_symbol(&ac->huffman, w, &l);
            if (symbol < 0) return any;  // not reached: the scan refused undecodable codes
        }
        int r = symbol >> 4, s = symbol & 15;
        if (s) {
            k += r;
            int v = (int)((w << l) >> (64 - s));
            if (v < (1 << (s - 1))) v += 1 - (1 << s);
            // A run past the block's end lands on its last coefficient, as in libjpeg (its order table's spare entries).
            int at = jpeg_natural_order[k > 63 ? 63 : k];
            coef[at] = (JCOEF)v;
            any = 1;
            *sum += (int64_t)(v < 0 ? -v : v) * q[at];
            pos += (uint64_t)(l + s);
            k++;
        } else if (r == 15) {
            k += 16;
            pos += (uint64_t)l;
        } else {
            break;
        }
    }
    return any;
}

// libjpeg's range-limiting table for its inverse DCTs (jdmaster.c's layout, rebuilt): indexed from `CENTERJSAMPLE`
// past its start by an output value masked to 10 bits, it gives the value plus 128 clamped to 0…255, values from
// 512 up wrapping round as negatives.
static void range_table(JSAMPLE *table /* 5 * 256 + 128 entries */) {
    memset(table, 0, 256);
    JSAMPLE *t = table + 256;
    for (int i = 0; i < 256; i++) t[i] = (JSAMPLE)i;
    t += 128;
    for (int i = 128; i < 512; i++) t[i] = 255;
    memset(t + 512, 0, 384);
    for (int i = 0; i < 128; i++) t[896 + i] = (JSAMPLE)i;
}

// 4:2:0 chroma as libjpeg makes it at 1/8: each chroma block's 2 × 2 inverse DCT into `d->fine`. A block with no AC
// term gives four equal samples, a function of its DC value alone, kept in `memo` (2 × 65536 bytes) as it is met.
static int fine_chroma(const lane_plan *plan, int place, const uint8_t *data, uint64_t pos, int dc, dc_component *d,
                       int x, int y, j_decompress_ptr fake, jpeg_component_info *multipliers, uint8_t *memo) {
    JCOEF coef[64];
    memset(coef, 0, sizeof coef);
    coef[0] = (JCOEF)dc;
    const short *q = multipliers->dct_table;
    int64_t sum = (int64_t)(dc < 0 ? -dc : dc) * q[0];
    int any = block_values(plan->table[2 * place + 1], plan->table[2 * place], data, pos, coef, q, &sum);
    // libjpeg-turbo decodes with its SIMD 2 × 2 transform, whose products and first pass are held in 16 bits; the C
    // one here matches it while the block's dequantised terms stay small. Real photos' chroma blocks sum to under
    // 1000 (BENCHMARKS.md); a block past 4096 (a damaged file's) leaves the file to libjpeg.
    if (sum > 4096) return 1;
    size_t stride = (size_t)d->wb * 2;
    uint8_t *top = d->fine + (size_t)(2 * y) * stride + (size_t)(2 * x), *bottom = top + stride;
    if (!any) {
        uint16_t key = (uint16_t)dc;
        if (!memo[65536 + key]) {
            JSAMPLE out[2][2];
            JSAMPROW rows[2] = {out[0], out[1]};
            jpeg_idct_2x2(fake, multipliers, coef, rows, 0);
            if (out[0][0] != out[0][1] || out[0][0] != out[1][0] || out[0][0] != out[1][1]) return 1;
            memo[key] = out[0][0];
            memo[65536 + key] = 1;
        }
        top[0] = top[1] = bottom[0] = bottom[1] = memo[key];
        return 0;
    }
    JSAMPROW rows[2] = {top, bottom};
    jpeg_idct_2x2(fake, multipliers, coef, rows, 0);
    return 0;
}

// Where a place of the MCU puts its block's DC value.
typedef struct {
    const lane_table *dc;
    dc_component *d;
    int ci, row, column;
    size_t offset;  // from the MCU's corner in the component's plane: row * pw + column
} place_out;

// The walk over the MCUs in the sums: each component's MCU corner in its plane, the MCU's place in the image, and the
// MCUs left in the restart segment (the predictions start again after it).
typedef struct {
    size_t corner[4], line[4], across[4], down[4];
    int mx, my, mcux;
    uint64_t interval, left;
} mcu_walk;

static inline void next_mcu(mcu_walk *w, int *pred) {
    if (w->interval && --w->left == 0) {
        w->left = w->interval;
        pred[0] = pred[1] = pred[2] = pred[3] = 0;
    }
    for (int ci = 0; ci < 4; ci++) w->corner[ci] += w->across[ci];
    if (++w->mx == w->mcux) {
        w->mx = 0;
        w->my++;
        for (int ci = 0; ci < 4; ci++) w->corner[ci] = w->line[ci] += w->down[ci];
    }
}

// The DC differences read from where each block begins (lane `order[i]`'s blocks from `first[i]` on) and summed in
// block order into each component's plane; where a component has `fine`, its chroma made as libjpeg makes it too.
// The MCU's corner in each plane is carried from block to block rather than worked out from its coordinates, and the
// usual layout — 4:2:0 without libjpeg's chroma, a thumbnail's — is summed a whole MCU at a time with its six places
// fixed. 0 when all `total` blocks were there and every value fits 16 bits.
static int sum_blocks(const lane_plan *plan, const lane *L, const int *order, const uint32_t *first, int held,
                      uint64_t total, const uint8_t *data, dc_component *comp, int components, int mcux, int single,
                      uint64_t interval, j_decompress_ptr fake, jpeg_component_info *info, uint8_t **memo) {
    place_out out[10];
    for (int p = 0; p < plan->places; p++) {
        int ci = plan->component[p];
        out[p] = (place_out){plan->table[2 * p + 1], &comp[ci], ci, plan->row[p], plan->column[p],
                             (size_t)plan->row[p] * (size_t)comp[ci].pw + plan->column[p]};
    }
    mcu_walk w;
    memset(&w, 0, sizeof w);
    w.mcux = mcux;
    w.interval = w.left = interval;
    for (int ci = 0; ci < components && ci < 4; ci++) {
        w.across[ci] = single ? 1 : (size_t)comp[ci].h;
        w.down[ci] = (single ? 1 : (size_t)comp[ci].v) * (size_t)comp[ci].pw;
    }
    size_t pw0 = (size_t)comp[0].pw;
    int quad = !single && plan->places == 6 && components == 3 && !comp[1].fine && !comp[2].fine &&
               out[0].ci == 0 && out[0].offset == 0 && out[1].ci == 0 && out[1].offset == 1 && out[2].ci == 0 &&
               out[2].offset == pw0 && out[3].ci == 0 && out[3].offset == pw0 + 1 && out[4].ci == 1 &&
               out[4].offset == 0 && out[5].ci == 2 && out[5].offset == 0;
    const lane_table *ty = out[0].dc, *tb = quad ? out[4].dc : NULL, *tr = quad ? out[5].dc : NULL;
    int pred[4] = {0, 0, 0, 0};
    int place = 0;
    uint64_t b = 0;
    for (int i = 0; i < held && b < total; i++) {
        const lane *l = &L[order[i]];
        uint32_t r = first[i], end = l->n;
        if (end - r > total - b) end = r + (uint32_t)(total - b);
        b += end - r;
        for (; r < end; r++) {
            if (quad && place == 0) {
                for (; end - r >= 6; r += 6) {
                    const uint32_t *at = l->start + r;
                    int y0 = pred[0] + dc_difference(ty, data, at[0]);
                    int y1 = y0 + dc_difference(ty, data, at[1]);
                    int y2 = y1 + dc_difference(ty, data, at[2]);
                    int y3 = y2 + dc_difference(ty, data, at[3]);
                    int cb = pred[1] + dc_difference(tb, data, at[4]);
                    int cr = pred[2] + dc_difference(tr, data, at[5]);
                    if (((unsigned)(y0 + 32768) | (unsigned)(y1 + 32768) | (unsigned)(y2 + 32768) |
                         (unsigned)(y3 + 32768) | (unsigned)(cb + 32768) | (unsigned)(cr + 32768)) > 65535u)
                        return 1;
                    int16_t *luma = comp[0].dc + w.corner[0];
                    luma[0] = (int16_t)y0;
                    luma[1] = (int16_t)y1;
                    luma[pw0] = (int16_t)y2;
                    luma[pw0 + 1] = (int16_t)y3;
                    comp[1].dc[w.corner[1]] = (int16_t)cb;
                    comp[2].dc[w.corner[2]] = (int16_t)cr;
                    pred[0] = y3;
                    pred[1] = cb;
                    pred[2] = cr;
                    next_mcu(&w, pred);
                }
                if (r == end) break;
            }
            const place_out *o = &out[place];
            int v = pred[o->ci] + dc_difference(o->dc, data, l->start[r]);
            if ((unsigned)(v + 32768) > 65535u) return 1;
            pred[o->ci] = v;
            o->d->dc[w.corner[o->ci] + o->offset] = (int16_t)v;
            if (o->d->fine) {
                int x = w.mx * (int)w.across[o->ci] + o->column, y = w.my * (single ? 1 : o->d->v) + o->row;
                if (x < o->d->wb && y < o->d->hb &&
                    fine_chroma(plan, place, data, l->start[r], v, o->d, x, y, fake, &info[o->ci], memo[o->ci]))
                    return 1;
            }
            if (++place == plan->places) {
                place = 0;
                next_mcu(&w, pred);
            }
        }
    }
    return b != total;
}

// The data up to the first marker, its stuffed zeros taken out, PADDING zero bytes after; *marker the marker's code
// (0 where the data reaches `end` without one). With `starts`, restart markers in their order (RST0, RST1, … RST7,
// RST0…) are taken out too, and where each segment begins in the result is kept: `starts[0]` is 0, and `*count`
// segments at most `most` are found (a marker out of order ends the data there, as any other marker does).
static uint8_t *unstuffed(const uint8_t *p, const uint8_t *end, size_t *size, int *marker, uint32_t *starts,
                          uint32_t most, uint32_t *count) {
    uint8_t *out = malloc((size_t)(end - p) + PADDING);
    if (!out) return NULL;
    size_t m = 0;
    *marker = 0;
    if (starts) {
        starts[0] = 0;
        *count = 1;
    }
    while (p < end) {
        const uint8_t *ff = memchr(p, 0xFF, (size_t)(end - p));
        size_t run = ff ? (size_t)(ff - p) : (size_t)(end - p);
        memcpy(out + m, p, run);
        m += run;
        p += run;
        if (!ff) break;
        if (p + 1 < end && p[1] == 0) {
            out[m++] = 0xFF;
            p += 2;
            continue;
        }
        while (p + 1 < end && p[1] == 0xFF) p++;  // fill bytes before a marker
        *marker = p + 1 < end ? p[1] : 0;
        if (starts && *count < most && *marker == 0xD0 + (int)((*count - 1) & 7)) {
            starts[(*count)++] = (uint32_t)m;
            p += 2;
            *marker = 0;
            continue;
        }
        break;
    }
    memset(out + m, 0, PADDING);
    *size = m;
    return out;
}

// A scan with restart markers is cut into segments of `interval` MCUs (the last may hold fewer), each beginning on a
// byte with its DC predictions reset. So lanes start exactly where segments begin — no guessed state, nothing to line
// up — and lane i decodes its run of whole segments in order.
typedef struct {
    const uint32_t *start;  // each segment's first byte in the unstuffed data; after the last, the data's length
    uint64_t blocks;        // blocks in a whole segment
    uint64_t total;         // blocks in the scan
} segments;

static uint32_t segment_blocks(const segments *g, uint32_t s) {
    uint64_t left = g->total - (uint64_t)s * g->blocks;
    return (uint32_t)(left < g->blocks ? left : g->blocks);
}

// Lane `l`, stopped, on to its next segment (or done: `seg == seg_last`). Nonzero where the segment did not end as
// it should: its last block complete, nothing left of its data but the last byte's padding.
static int next_segment(lane *l, const segments *g) {
    if (l->k != 0 || l->n != l->nend || l->pos > l->limit || l->limit - l->pos >= 8) return 1;
    if (++l->seg == l->seg_last) return 0;
    l->pos = (uint64_t)g->start[l->seg] * 8;
    l->limit = (uint64_t)g->start[l->seg + 1] * 8;
    l->nend += segment_blocks(g, l->seg);
    l->blk = 0;
    return 0;
}

// Whether lane i's segment is still open: a block unfinished or one more to begin, and data left.
#define SEGMENT_OPEN(i) ((n##i != nend##i || k##i != 0) && pos##i < limit##i)

// The lanes over their segments: three in step while each has one open, then each alone. Nonzero where a segment
// did not end as it should.
static int run_segments(lane *lanes, int count, const uint8_t *data, const lane_plan *plan, const segments *g) {
    while (count == LANES && lanes[0].seg < lanes[0].seg_last && lanes[1].seg < lanes[1].seg_last &&
           lanes[2].seg < lanes[2].seg_last) {
        lane *L = lanes;
        LANE_IN(0) LANE_IN(1) LANE_IN(2)
        uint32_t nend0 = L[0].nend, nend1 = L[1].nend, nend2 = L[2].nend;
        uint64_t limit0 = L[0].limit, limit1 = L[1].limit, limit2 = L[2].limit;
        while (SEGMENT_OPEN(0) && SEGMENT_OPEN(1) && SEGMENT_OPEN(2)) {
            LANE_STEP(0);
            LANE_STEP(1);
            LANE_STEP(2);
        }
        int open0 = SEGMENT_OPEN(0), open1 = SEGMENT_OPEN(1), open2 = SEGMENT_OPEN(2);
        LANE_OUT(0) LANE_OUT(1) LANE_OUT(2)
        if ((!open0 && next_segment(&L[0], g)) || (!open1 && next_segment(&L[1], g)) ||
            (!open2 && next_segment(&L[2], g)))
            return 1;
    }
    for (int i = 0; i < count; i++) {
        lane *L = &lanes[i];
        while (L->seg < L->seg_last) {
            LANE_IN(0)
            uint32_t nend0 = L->nend;
            uint64_t limit0 = L->limit;
            while (SEGMENT_OPEN(0)) LANE_STEP(0);
            LANE_OUT(0)
            if (next_segment(L, g)) return 1;
        }
    }
    return 0;
}

int baseline_dc_scan(j_decompress_ptr c, dc_component *comp, int mcux, int mcuy, const uint8_t *data0, const uint8_t *end,
                     int libjpeg_chroma) {
    if (c->comps_in_scan != c->num_components || c->Ss != 0 || c->Se != 63 || c->Ah || c->Al) return 1;
    lane_plan plan;
    memset(&plan, 0, sizeof plan);
    lane_table *tables = malloc(sizeof(lane_table) * 2 * (size_t)c->comps_in_scan);
    if (!tables) return 1;
    int status = 1;
    uint8_t *data = NULL;
    lane L[LANES];
    memset(L, 0, sizeof L);
    struct jpeg_decompress_struct *fake = NULL;
    JSAMPLE *range = NULL;
    jpeg_component_info info[3];
    short multipliers[3][64];
    uint8_t *memo[3] = {NULL, NULL, NULL};
    uint32_t *starts = NULL;
    int single = c->comps_in_scan == 1;
    for (int i = 0; i < c->comps_in_scan; i++) {
        jpeg_component_info *ci = c->cur_comp_info[i];
        JHUFF_TBL *dc = ci->dc_tbl_no >= 0 && ci->dc_tbl_no < NUM_HUFF_TBLS ? c->dc_huff_tbl_ptrs[ci->dc_tbl_no] : NULL;
        JHUFF_TBL *ac = ci->ac_tbl_no >= 0 && ci->ac_tbl_no < NUM_HUFF_TBLS ? c->ac_huff_tbl_ptrs[ci->ac_tbl_no] : NULL;
        if (!dc || !ac || lane_table_from(&tables[2 * i], ac, 1) || lane_table_from(&tables[2 * i + 1], dc, 0)) goto done;
        int index = ci->component_index;
        if (index < 0 || index >= c->num_components) goto done;
        // Interleaved, an MCU holds h × v blocks of each component, row by row; a scan of one component runs
        // over its own blocks one at a time, whatever its sampling.
        int across = single ? 1 : ci->h_samp_factor, down = single ? 1 : ci->v_samp_factor;
        for (int b = 0; b < across * down; b++) {
            if (plan.places == 10) goto done;
            plan.table[2 * plan.places] = &tables[2 * i];
            plan.table[2 * plan.places + 1] = &tables[2 * i + 1];
            plan.component[plan.places] = (uint8_t)index;
            plan.row[plan.places] = (uint8_t)(b / across);
            plan.column[plan.places] = (uint8_t)(b % across);
            plan.places++;
        }
    }
    if (single) {
        const dc_component *only = &comp[c->cur_comp_info[0]->component_index];
        mcux = only->wb;
        mcuy = only->hb;
    }
    for (int b = 0; b < plan.places; b++) plan.next[b] = (uint8_t)(b + 1 == plan.places ? 0 : b + 1);
    uint64_t total = (uint64_t)mcux * (uint64_t)mcuy * (uint64_t)plan.places;
    if (total == 0 || total > 0x7FFFFFF0u - 64) goto done;
    plan.capacity = (uint32_t)total + 64;

    // Every block takes at least two bits (a DC code and an end of block): a file declaring more blocks than its data
    // can hold is cut short, libjpeg's to report, and is refused before the block records below are allocated.
    if (total > (uint64_t)(end - data0) * 4) goto done;
    // With restart markers: the segments' count, each `interval` MCUs.
    uint64_t interval = c->restart_interval, mcus = (uint64_t)mcux * (uint64_t)mcuy;
    uint32_t segs = interval ? (uint32_t)((mcus + interval - 1) / interval) : 0, found = 0;
    if (interval) {
        starts = malloc(sizeof(uint32_t) * ((size_t)segs + 1));
        if (!starts) goto done;
    }
    size_t size;
    int marker;
    data = unstuffed(data0, end, &size, &marker, starts, segs, &found);
    // One scan, then the end; block starts are kept as 32-bit bit positions.
    if (!data || marker != 0xD9 || size > (1u << 29) - PADDING) goto done;
    uint64_t bits = (uint64_t)size * 8;

    // One segment (an interval past the image's MCUs) holds no marker: a scan like any other.
    int segmented = interval && segs > 1;
    int lanes = size >= lane_bytes && (!segmented || segs >= LANES) ? LANES : 1;
    for (int i = 0; i < lanes; i++) {
        L[i].start = malloc(sizeof(uint32_t) * ((size_t)plan.capacity + 1));
        if (!L[i].start) goto done;
        L[i].last_error = -1;
    }
    int held = 0, order[LANES];
    uint32_t first[LANES];
    if (segmented) {
        if (found != segs) goto done;  // a restart marker missing, or one out of its order
        starts[segs] = (uint32_t)size;
        segments g = {starts, interval * (uint64_t)plan.places, total};
        uint64_t blocks = 0;
        for (int i = 0; i < lanes; i++) {
            L[i].seg = (uint32_t)((uint64_t)segs * (uint64_t)i / (uint64_t)lanes);
            L[i].seg_last = (uint32_t)((uint64_t)segs * (uint64_t)(i + 1) / (uint64_t)lanes);
            L[i].pos = (uint64_t)starts[L[i].seg] * 8;
            L[i].limit = (uint64_t)starts[L[i].seg + 1] * 8;
            L[i].nend = segment_blocks(&g, L[i].seg);
            order[i] = i;
            first[i] = 0;
        }
        if (run_segments(L, lanes, data, &plan, &g)) goto done;
        for (int i = 0; i < lanes; i++) {
            if (L[i].last_error >= 0) goto done;  // an undecodable code
            blocks += L[i].n;
        }
        if (blocks != total) goto done;
        held = lanes;
        goto decoded;
    }
    uint64_t stop[LANES];
    for (int i = 0; i < lanes; i++) L[i].pos = (uint64_t)(size / (size_t)lanes * (size_t)i) * 8;
    for (int i = 0; i < lanes; i++) stop[i] = i + 1 < lanes ? L[i + 1].pos : bits;

    if (lanes == LANES) run_three(L, data, &plan, stop);
    for (int i = 0; i < lanes; i++) run_one(&L[i], data, &plan, stop[i]);

    // Which blocks are the stream's: lane `order[i]`'s from its block `first[i]` on, in order.
    order[0] = 0;
    first[0] = 0;
    held = 1;
    for (int next = 1; next < lanes; next++) {
        lane *t = &L[order[held - 1]];
        int64_t j = line_up(t, &L[next], data, &plan, stop[next]);
        if (j < 0) {
            // Never in step: the lane before decodes through this one's part too.
            run_one(t, data, &plan, stop[next]);
            continue;
        }
        order[held] = next;
        first[held] = (uint32_t)j;
        held++;
    }
    uint64_t blocks = 0;
    for (int i = 0; i < held; i++) {
        const lane *l = &L[order[i]];
        if (l->n >= plan.capacity) goto done;
        if (l->last_error >= (int64_t)first[i]) goto done;  // an undecodable code among the stream's blocks
        // A lane that has been lined up with the next one ends where that one's records begin.
        blocks += l->n - first[i];
    }
    // The scan's data ends with its last block, but for the last byte's padding (decoded, it starts a block more).
    const lane *last = &L[order[held - 1]];
    if (blocks == total) {
        if (last->pos != bits) goto done;
    } else if (blocks == total + 1) {
        uint64_t began = last->start[last->n - 1];
        if (bits - began >= 8 || began > bits) goto done;
    } else {
        goto done;
    }

decoded:;
    // With `libjpeg_chroma`, 4:2:0 chroma is made as libjpeg makes it at 1/8, from 2 × 2 of each block's coefficients
    // (read again from where the block begins); otherwise, and for other layouts, one value a
    // block (grey and 4:4:4 are libjpeg's exactly that way).
    int fine = libjpeg_chroma && !single && c->num_components == 3 && comp[0].h == 2 && comp[0].v == 2 &&
               comp[1].h == 1 && comp[1].v == 1 && comp[2].h == 1 && comp[2].v == 1;
    if (fine) {
        fake = calloc(1, sizeof *fake);
        range = malloc(5 * 256 + 128);
        if (!fake || !range) goto done;
        range_table(range);
        fake->sample_range_limit = range + 256;
        for (int ci = 1; ci < 3; ci++) {
            int slot = c->comp_info[ci].quant_tbl_no;
            JQUANT_TBL *q = slot >= 0 && slot < NUM_QUANT_TBLS ? c->quant_tbl_ptrs[slot] : NULL;
            if (!q) goto done;
            for (int i = 0; i < 64; i++) {
                if (q->quantval[i] > 32767) goto done;  // not a 16-bit multiplier, as libjpeg's transform takes them
                multipliers[ci][i] = (short)q->quantval[i];
            }
            memset(&info[ci], 0, sizeof info[ci]);
            info[ci].dct_table = multipliers[ci];
            comp[ci].fine = malloc((size_t)comp[ci].wb * comp[ci].hb * 4);
            memo[ci] = calloc(2, 65536);
            if (!comp[ci].fine || !memo[ci]) goto done;
        }
    }

    // The DC differences read and summed in block order, into each component's plane.
    if (sum_blocks(&plan, L, order, first, held, total, data, comp, c->num_components, mcux, single, interval, fake,
                   info, memo))
        goto done;
    status = 0;
done:
    for (int i = 0; i < LANES; i++) free(L[i].start);
    free(starts);
    for (int i = 0; i < 3; i++) free(memo[i]);
    free(fake);
    free(range);
    free(data);
    free(tables);
    return status;
}
