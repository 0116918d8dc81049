// PNG row filtering and deflate of one run of rows, on whichever thread calls it: the pieces of one image are
// compressed in parallel and concatenate into a single zlib stream (each piece after the first is primed with the
// previous piece's last 32 KiB as dictionary and the non-final ones end on a sync flush), as pigz does for gzip.
#include "png_shim.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// Signed-byte magnitude of a filtered byte, the cost libpng's adaptive heuristic minimises.
static inline unsigned cost(uint8_t v) { return v < 128 ? v : 256u - v; }

static inline uint8_t paeth(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

// Filters row `x` (prior row `b`, zeros above the image) with PNG filter `type` (0–4) into `out`; returns its cost.
static size_t filter_row(int type, const uint8_t *restrict x, const uint8_t *restrict b, size_t n, size_t bpp,
                         uint8_t *restrict out) {
    size_t sum = 0;
    size_t i = 0;
    switch (type) {
    case 0:
        for (; i < n; i++) { out[i] = x[i]; sum += cost(x[i]); }
        break;
    case 1:
        for (; i < bpp && i < n; i++) { out[i] = x[i]; sum += cost(out[i]); }
        for (; i < n; i++) { out[i] = (uint8_t)(x[i] - x[i - bpp]); sum += cost(out[i]); }
        break;
    case 2:
        for (; i < n; i++) { out[i] = (uint8_t)(x[i] - b[i]); sum += cost(out[i]); }
        break;
    case 3:
        for (; i < bpp && i < n; i++) { out[i] = (uint8_t)(x[i] - (b[i] >> 1)); sum += cost(out[i]); }
        for (; i < n; i++) { out[i] = (uint8_t)(x[i] - ((x[i - bpp] + b[i]) >> 1)); sum += cost(out[i]); }
        break;
    default:
        for (; i < bpp && i < n; i++) { out[i] = (uint8_t)(x[i] - b[i]); sum += cost(out[i]); }
        for (; i < n; i++) { out[i] = (uint8_t)(x[i] - paeth(x[i - bpp], b[i], b[i - bpp])); sum += cost(out[i]); }
        break;
    }
    return sum;
}

// Writes the filter byte and the filtered row to `out` (n + 1 bytes). With several filters allowed, the one with
// the smallest cost wins, ties going to the lower type (libpng's order). `scratch` holds 2 × n bytes.
static void filter_best(int filters, const uint8_t *x, const uint8_t *b, size_t n, size_t bpp, uint8_t *out,
                        uint8_t *scratch) {
    static const int masks[5] = {FR_PNG_FILTER_NONE, FR_PNG_FILTER_SUB, FR_PNG_FILTER_UP, FR_PNG_FILTER_AVG,
                                 FR_PNG_FILTER_PAETH};
    int allowed[5], count = 0;
    for (int t = 0; t < 5; t++) if (filters & masks[t]) allowed[count++] = t;
    if (count == 0) allowed[count++] = 0;
    if (count == 1) {
        out[0] = (uint8_t)allowed[0];
        filter_row(allowed[0], x, b, n, bpp, out + 1);
        return;
    }
    uint8_t *best = scratch, *trial = scratch + n;
    int best_type = allowed[0];
    size_t best_cost = filter_row(best_type, x, b, n, bpp, best);
    for (int k = 1; k < count; k++) {
        size_t c = filter_row(allowed[k], x, b, n, bpp, trial);
        if (c < best_cost) {
            uint8_t *swap = best; best = trial; trial = swap;
            best_cost = c;
            best_type = allowed[k];
        }
    }
    out[0] = (uint8_t)best_type;
    memcpy(out + 1, best, n);
}

// Filters raw rows [from, to) (each with its prior row; row 0 of `raw` has none when `top`) into `out`.
static void filter_rows(const uint8_t *raw, size_t n, size_t bpp, uint32_t from, uint32_t to, int top,
                        const uint8_t *zeros, int filters, uint8_t *out, uint8_t *scratch) {
    for (uint32_t y = from; y < to; y++) {
        const uint8_t *prior = (y == 0 && top) ? zeros : raw + (size_t)(y - 1) * n;
        filter_best(filters, raw + (size_t)y * n, prior, n, bpp, out + (size_t)(y - from) * (n + 1), scratch);
    }
}

static void zlib_header(uint8_t out[2], int level) {
    // CMF: deflate with a 32 KiB window; FLG: the level class, and check bits making CMF·256 + FLG a multiple of 31.
    int cmf = 0x78, flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
    int flg = flevel << 6;
    flg += 31 - (cmf * 256 + flg) % 31;
    out[0] = (uint8_t)cmf;
    out[1] = (uint8_t)flg;
}

int fr_png_deflate_chunk(const uint8_t *raw, size_t row_bytes, int bpp, uint32_t context, uint32_t rows,
                         int filters, int level, int last, fr_png_chunk *chunk) {
    memset(chunk, 0, sizeof *chunk);
    size_t n = row_bytes, filtered = (size_t)rows * (n + 1);
    size_t dict_rows = context > 1 ? context - 1 : 0;
    uint8_t *scratch = malloc(2 * n + 1);
    uint8_t *zeros = calloc(n + 1, 1);
    uint8_t *input = malloc(filtered + dict_rows * (n + 1) + 1);
    int failed = !scratch || !zeros || !input;
    z_stream z;
    memset(&z, 0, sizeof z);
    // libpng's choice: Z_FILTERED whenever rows are filtered.
    int strategy = filters == FR_PNG_FILTER_NONE ? Z_DEFAULT_STRATEGY : Z_FILTERED;
    if (!failed && deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) { failed = 1; z.state = NULL; }
    if (!failed) {
        // Dictionary rows first (raw rows 1 … context−1), then the chunk's own rows.
        uint8_t *body = input + dict_rows * (n + 1);
        if (dict_rows) {
            filter_rows(raw, n, (size_t)bpp, 1, context, 0, zeros, filters, input, scratch);
            size_t length = dict_rows * (n + 1), keep = length < 32768 ? length : 32768;
            if (deflateSetDictionary(&z, input + length - keep, (uInt)keep) != Z_OK) failed = 1;
        }
        filter_rows(raw, n, (size_t)bpp, context, context + rows, context == 0, zeros, filters, body, scratch);
        size_t header = context == 0 ? 2 : 0;
        size_t capacity = header + deflateBound(&z, filtered) + 64;
        chunk->data = failed ? NULL : malloc(capacity);
        if (!chunk->data) failed = 1;
        if (!failed) {
            if (header) zlib_header(chunk->data, level);
            z.next_in = body;
            z.avail_in = (uInt)filtered;
            z.next_out = chunk->data + header;
            z.avail_out = (uInt)(capacity - header);
            int status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
            if (last ? status != Z_STREAM_END : (status != Z_OK || z.avail_in != 0 || z.avail_out == 0)) failed = 1;
            chunk->length = capacity - z.avail_out;
            chunk->adler = (uint32_t)adler32(adler32(0, NULL, 0), body, (uInt)filtered);
            chunk->filtered_length = filtered;
        }
    }
    if (z.state) deflateEnd(&z);
    free(scratch);
    free(zeros);
    free(input);
    if (failed) { fr_png_chunk_free(chunk); return 1; }
    return 0;
}

void fr_png_chunk_free(fr_png_chunk *chunk) {
    free(chunk->data);
    chunk->data = NULL;
    chunk->length = 0;
}

uint32_t fr_png_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}
