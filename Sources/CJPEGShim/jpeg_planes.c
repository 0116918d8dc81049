// Flips, quarter turns, transposes and affine resamplings (rotations by any angle) of a JPEG written as a JPEG,
// done on the file's own Y, Cb and Cr planes: no chroma upsampling, no colour conversion either way, and the photo
// held at its stored size (1.5 bytes a pixel for 4:2:0) instead of as RGB rows (3).
#include "jpeg_shim_internal.h"
#include "plane_warp.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

// A whole plane in transparent huge pages where the kernel gives them: a 20 MP photo's planes are 7 500 faults of
// 4 KiB pages otherwise. The length is kept before the plane for plane_free.
static void *plane_alloc(size_t size) {
    const size_t length = size + 64;
    unsigned char *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    if (length >= (2u << 20)) madvise(base, length, MADV_HUGEPAGE);
#endif
    memcpy(base, &length, sizeof length);
    return base + 64;
}

static void plane_free(void *plane) {
    if (!plane) return;
    unsigned char *base = (unsigned char *)plane - 64;
    size_t length;
    memcpy(&length, base, sizeof length);
    munmap(base, length);
}

int fr_jpeg_reader_plane_sampling(const fr_jpeg_reader *r, int *h, int *v) {
    const struct jpeg_decompress_struct *c = &r->cinfo;
    if (c->jpeg_color_space != JCS_YCbCr || c->num_components != 3 || r->started) return 0;
    for (int ci = 1; ci < 3; ci++)
        if (c->comp_info[ci].h_samp_factor != 1 || c->comp_info[ci].v_samp_factor != 1) return 0;
    *h = c->comp_info[0].h_samp_factor;
    *v = c->comp_info[0].v_samp_factor;
    return (*h == 1 || *h == 2) && (*v == 1 || *v == 2);
}

// For each output sample j along one axis (`count` of them, each covering `r` output pixels of `pixels`): the
// lowest and highest input sample its pixels fall in, along the input axis the output axis walks (input pixel
// a + d·P for output pixel P; the input has `n` samples of `r` pixels there). Equal when the move keeps the
// alignment; neighbours when it does not (an odd offset or an odd length mirrored), and the caller averages them.
static void axis_samples(uint32_t *lo, uint32_t *hi, uint32_t first, uint32_t count, uint32_t pixels, int r, long a,
                         int d, uint32_t n) {
    for (uint32_t k = 0; k < count; k++) {
        const long j = (long)(first + k);
        long p0 = (long)r * j, p1 = (long)r * j + r - 1;
        if (p0 > (long)pixels - 1) p0 = (long)pixels - 1;
        if (p1 > (long)pixels - 1) p1 = (long)pixels - 1;
        long q0 = a + d * p0, q1 = a + d * p1;
        if (q0 > q1) { const long t = q0; q0 = q1; q1 = t; }
        long i0 = q0 < 0 ? 0 : q0 / r, i1 = q1 < 0 ? 0 : q1 / r;
        if (i0 > (long)n - 1) i0 = (long)n - 1;
        if (i1 > (long)n - 1) i1 = (long)n - 1;
        lo[k] = (uint32_t)i0;
        hi[k] = (uint32_t)i1;
    }
}

// One plane's move, its index tables made once: for each output column and each output row, the input samples it
// reads along the input axis that output axis walks (two neighbours where the move breaks the chroma alignment).
typedef struct {
    const uint8_t *src;
    size_t src_stride;
    int swap, dx;
    uint32_t out_width, out_height;  // the output plane's samples
    uint32_t *across, *across_hi;    // out_width entries each
    uint32_t *down, *down_hi;        // out_height entries each
    int across_paired;
} plane_move;

// Makes `p`'s tables for a plane of `src_width`×`src_height` samples of `rx`×`ry` pixels; 0 when out of memory.
static int plane_move_make(plane_move *p, const uint8_t *src, size_t src_stride, uint32_t src_width,
                           uint32_t src_height, int rx, int ry, const fr_jpeg_move *move, uint32_t out_width,
                           uint32_t out_height) {
    const int sw = move->swap;
    *p = (plane_move){.src = src, .src_stride = src_stride, .swap = sw, .dx = move->dx, .out_width = out_width,
                      .out_height = out_height};
    p->across = malloc(sizeof(uint32_t) * 2 * ((size_t)out_width + out_height));
    if (!p->across) return 0;
    p->across_hi = p->across + out_width;
    p->down = p->across_hi + out_width;
    p->down_hi = p->down + out_height;
    // The output's x axis walks the input's x (or y when swapped), at that axis's subsampling.
    axis_samples(p->across, p->across_hi, 0, out_width, move->width, sw ? ry : rx, sw ? move->y0 : move->x0,
                 sw ? move->dy : move->dx, sw ? src_height : src_width);
    axis_samples(p->down, p->down_hi, 0, out_height, move->height, sw ? rx : ry, sw ? move->x0 : move->y0,
                 sw ? move->dx : move->dy, sw ? src_width : src_height);
    for (uint32_t x = 0; x < out_width && !p->across_paired; x++) p->across_paired = p->across[x] != p->across_hi[x];
    return 1;
}

// Output rows `row0`..<`row0 + count` of the plane into `dst` (rows `dst_stride` apart), padded with the last
// column up to `padded_width`; rows past the output's last repeat it (the encoder reads whole blocks).
static void plane_move_rows(const plane_move *p, uint8_t *dst, size_t dst_stride, uint32_t padded_width,
                            uint32_t row0, uint32_t count) {
    const uint8_t *src = p->src;
    const size_t src_stride = p->src_stride;
    const uint32_t out_width = p->out_width, last = p->out_height - 1;
    const uint32_t *across = p->across, *across_hi = p->across_hi;
    int paired = p->across_paired;
    for (uint32_t k = 0; k < count && !paired; k++) {
        const uint32_t y = row0 + k < last ? row0 + k : last;
        paired = p->down[y] != p->down_hi[y];
    }
    if (p->swap && !paired) {
        // A band of output rows reads a few neighbouring input columns: walk the input rows once for the band.
        for (uint32_t x = 0; x < out_width; x++) {
            const uint8_t *line = src + (size_t)across[x] * src_stride;
            for (uint32_t k = 0; k < count; k++) {
                const uint32_t y = row0 + k < last ? row0 + k : last;
                dst[(size_t)k * dst_stride + x] = line[p->down[y]];
            }
        }
    }
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t y = row0 + k < last ? row0 + k : last;
        uint8_t *out = dst + (size_t)k * dst_stride;
        if (!p->swap) {
            const uint8_t *line = src + (size_t)p->down[y] * src_stride, *line2 = src + (size_t)p->down_hi[y] * src_stride;
            if (!paired && p->dx == 1) {
                memcpy(out, line + across[0], out_width);
            } else if (!paired) {
                for (uint32_t x = 0; x < out_width; x++) out[x] = line[across[x]];
            } else {
                for (uint32_t x = 0; x < out_width; x++)
                    out[x] = (uint8_t)((line[across[x]] + line[across_hi[x]] + line2[across[x]] + line2[across_hi[x]] + 2) >> 2);
            }
        } else if (paired) {
            // Output row y reads input column down[y], output column x input row across[x].
            const uint32_t c0 = p->down[y], c1 = p->down_hi[y];
            for (uint32_t x = 0; x < out_width; x++) {
                const uint8_t *l0 = src + (size_t)across[x] * src_stride, *l1 = src + (size_t)across_hi[x] * src_stride;
                out[x] = (uint8_t)((l0[c0] + l0[c1] + l1[c0] + l1[c1] + 2) >> 2);
            }
        }
        if (padded_width > out_width) memset(out + out_width, out[out_width - 1], padded_width - out_width);
    }
}

// One plane's affine resampling: the input plane read as `source`, and the output plane's sample (i, j) reading
// around (u0 + i·du + j·eu, v0 + i·dv + j·ev) in input sample units (integers at sample centres).
typedef struct {
    fr_plane_source source;
    double u0, du, eu, v0, dv, ev;
} plane_warp;

// Makes `p` for an input plane of `rx_in`×`ry_in` pixels a sample and an output plane of `rx`×`ry`: output sample
// (i, j) centres on output pixel position (rx·(i + ½), ry·(j + ½)) (corner origin), which the map takes to the
// input, where input sample k centres on rx_in·(k + ½).
static void plane_warp_make(plane_warp *p, const uint8_t *src, size_t stride, uint32_t width, uint32_t height,
                            int rx_in, int ry_in, int rx, int ry, const fr_jpeg_warp *warp, float background) {
    const double *m = warp->m;
    p->source = (fr_plane_source){.base = src, .stride = (ptrdiff_t)stride, .width = (int)width, .height = (int)height,
                                  .taps = warp->taps, .background = background};
    const double x0 = 0.5 * rx, y0 = 0.5 * ry;
    p->u0 = (m[0] * x0 + m[1] * y0 + m[2]) / rx_in - 0.5;
    p->v0 = (m[3] * x0 + m[4] * y0 + m[5]) / ry_in - 0.5;
    p->du = m[0] * rx / rx_in;
    p->eu = m[1] * ry / rx_in;
    p->dv = m[3] * rx / ry_in;
    p->ev = m[4] * ry / ry_in;
}

// Output rows `row0`..<`row0 + count` of the plane into `dst`, `padded_width` samples each (the padding the encoder
// reads is resampled like the rest).
static void plane_warp_rows(const plane_warp *p, uint8_t *dst, size_t dst_stride, uint32_t padded_width, uint32_t row0,
                            uint32_t count) {
    for (uint32_t k = 0; k < count; k++) {
        const double j = (double)(row0 + k);
        fr_plane_warp_row(dst + (size_t)k * dst_stride, padded_width, p->u0 + j * p->eu, p->v0 + j * p->ev, p->du,
                          p->dv, &p->source);
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Bands of output that worker threads fill while the encoder compresses the ones before: a move costs no time
// beside the encoder's on a second core, and a resampling's work is shared between the cores.
enum { SLOTS = 4, MAX_WORKERS = 8 };

typedef struct {
    // What the bands read: the input planes, and each output plane's move or resampling.
    uint8_t *plane[3];
    size_t stride[3];
    plane_move moves[3];
    plane_warp warps[3];
    int warped;
    int rows[3];
    uint8_t *band[SLOTS][3];
    size_t band_stride[3];
    uint32_t bands;
    // The hand-over: workers claim bands in order (`next`); band m goes to slot m % SLOTS once the encoder has
    // written band m − SLOTS (`encoded`); ready[s] is 1 + the band slot s holds. `stop` ends the workers early.
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint32_t next, encoded, ready[SLOTS];
    // `started` workers were handed to the caller's threads; `running` of them have not yet returned.
    int stop, started, running;
    double moving;
    JSAMPROW *rows_ptrs;
} transcode_state;

static void fill_band(transcode_state *t, uint32_t m) {
    const double began = now();
    for (int ci = 0; ci < 3; ci++) {
        uint8_t *dst = t->band[m % SLOTS][ci];
        const uint32_t width = (uint32_t)t->band_stride[ci], row0 = m * (uint32_t)t->rows[ci], count = (uint32_t)t->rows[ci];
        if (t->warped) plane_warp_rows(&t->warps[ci], dst, t->band_stride[ci], width, row0, count);
        else plane_move_rows(&t->moves[ci], dst, t->band_stride[ci], width, row0, count);
    }
    const double spent = now() - began;
    pthread_mutex_lock(&t->lock);
    t->moving += spent;
    pthread_mutex_unlock(&t->lock);
}

static void worker(void *arg) {
    transcode_state *t = arg;
    for (;;) {
        pthread_mutex_lock(&t->lock);
        const uint32_t m = t->next;
        if (m >= t->bands || t->stop) {
            pthread_mutex_unlock(&t->lock);
            break;
        }
        t->next++;
        while (m >= t->encoded + SLOTS && !t->stop) pthread_cond_wait(&t->changed, &t->lock);
        const int stop = t->stop;
        pthread_mutex_unlock(&t->lock);
        if (stop) break;
        fill_band(t, m);
        pthread_mutex_lock(&t->lock);
        t->ready[m % SLOTS] = m + 1;
        pthread_cond_broadcast(&t->changed);
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_lock(&t->lock);
    t->running--;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
}

// Stops the workers and waits for each to return, then frees everything: on every path out.
static void free_state(transcode_state *t) {
    if (!t) return;
    if (t->started) {
        pthread_mutex_lock(&t->lock);
        t->stop = 1;
        pthread_cond_broadcast(&t->changed);
        while (t->running > 0) pthread_cond_wait(&t->changed, &t->lock);
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->changed);
    for (int i = 0; i < 3; i++) {
        plane_free(t->plane[i]);
        free(t->moves[i].across);
        for (int s = 0; s < SLOTS; s++) free(t->band[s][i]);
    }
    free(t->rows_ptrs);
    free(t);
}

// The Y, Cb, Cr codes of an RGB colour (JFIF's conversion, as libjpeg makes it).
static void ycc(const float rgb[3], float out[3]) {
    const float r = rgb[0], g = rgb[1], b = rgb[2];
    out[0] = 0.299f * r + 0.587f * g + 0.114f * b;
    out[1] = -0.168735892f * r - 0.331264108f * g + 0.5f * b + 128;
    out[2] = 0.5f * r - 0.418687589f * g - 0.081312411f * b + 128;
}

// Decodes `r` whole as its planes, then writes each band of output planes — moved by `move` or resampled by
// `warp` — to `w` as workers fill them.
static int stopped(const fr_jpeg_stop *stop) { return stop && stop->stop && stop->stop(stop->context); }

static int transcode(fr_jpeg_reader *r, fr_jpeg_writer *w, const fr_jpeg_move *move, const fr_jpeg_warp *warp,
                     int workers, const fr_jpeg_threads *threads, const fr_jpeg_stop *stop, double seconds[3],
                     char *err, size_t errlen) {
    seconds[0] = seconds[1] = seconds[2] = 0;
    const double began = now();
    struct jpeg_decompress_struct *c = &r->cinfo;
    struct jpeg_compress_struct *o = &w->cinfo;
    const uint32_t out_width = move ? move->width : warp->width, out_height = move ? move->height : warp->height;
    const int swap = move ? move->swap : 0;
    int h = 0, v = 0;
    if (!fr_jpeg_reader_plane_sampling(r, &h, &v) || !o->raw_data_in || o->num_components != 3
        || o->image_width != out_width || o->image_height != out_height) {
        snprintf(err, errlen, "the planes of this file and this output do not match");
        return 3;
    }
    // The output's chroma must sit as the input's does, with the axes exchanged when the move swaps them.
    const int out_h = o->comp_info[0].h_samp_factor, out_v = o->comp_info[0].v_samp_factor;
    if ((swap ? v : h) != out_h || (swap ? h : v) != out_v || o->comp_info[1].h_samp_factor != 1
        || o->comp_info[1].v_samp_factor != 1 || o->comp_info[2].h_samp_factor != 1 || o->comp_info[2].v_samp_factor != 1) {
        snprintf(err, errlen, "the output's chroma sampling differs from the input's");
        return 3;
    }
    if (warp && warp->taps != 2 && warp->taps != 4) {
        snprintf(err, errlen, "a resampling of the planes takes 2 or 4 taps");
        return 3;
    }
    transcode_state *volatile t = calloc(1, sizeof(transcode_state));
    if (!t) { snprintf(err, errlen, "out of memory"); return 3; }
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->changed, NULL);
    if (setjmp(r->err.jump)) { free_state(t); return 1; }
    if (setjmp(w->err.jump)) { free_state(t); return 2; }

    c->raw_data_out = TRUE;
    c->out_color_space = JCS_YCbCr;
    jpeg_start_decompress(c);
    r->started = 1;
    const int in_rows = c->max_v_samp_factor * DCTSIZE;
    t->rows_ptrs = malloc(sizeof(JSAMPROW) * 3 * 2 * DCTSIZE);
    for (int ci = 0; ci < 3 && t->rows_ptrs; ci++) {
        const jpeg_component_info *comp = &c->comp_info[ci];
        // Whole MCUs: libjpeg writes every block of each iMCU row, the padding blocks at the edges included. The
        // 16 bytes past the end let a resampling's four-tap loads pass the last sample.
        t->stride[ci] = (size_t)((comp->width_in_blocks + comp->h_samp_factor - 1) / comp->h_samp_factor)
            * comp->h_samp_factor * DCTSIZE;
        t->plane[ci] = plane_alloc(t->stride[ci] * c->total_iMCU_rows * comp->v_samp_factor * DCTSIZE + 16);
        if (!t->plane[ci]) break;
    }
    if (!t->rows_ptrs || !t->plane[0] || !t->plane[1] || !t->plane[2]) {
        free_state(t);
        snprintf(err, errlen, "out of memory for the image's planes");
        return 3;
    }
    for (JDIMENSION m = 0; m < c->total_iMCU_rows; m++) {
        if (stopped(stop)) {
            free_state(t);
            snprintf(err, errlen, "cancelled");
            return 4;
        }
        JSAMPARRAY image[3];
        for (int ci = 0; ci < 3; ci++) {
            const int n = c->comp_info[ci].v_samp_factor * DCTSIZE;
            image[ci] = t->rows_ptrs + ci * 2 * DCTSIZE;
            for (int k = 0; k < n; k++) image[ci][k] = t->plane[ci] + ((size_t)m * n + k) * t->stride[ci];
        }
        if (jpeg_read_raw_data(c, image, (JDIMENSION)in_rows) == 0) {
            snprintf(r->err.message, sizeof r->err.message, "no more rows");
            free_state(t);
            return 1;
        }
        r->rows = r->rows + in_rows < c->output_height ? r->rows + in_rows : c->output_height;
    }
    // Each plane's move or resampling, made before finishing frees the component descriptions (libjpeg's image pool).
    float background[3] = {0, 128, 128};
    if (warp) ycc(warp->background, background);
    for (int ci = 0; ci < 3; ci++) {
        const jpeg_component_info *in = &c->comp_info[ci], *out = &o->comp_info[ci];
        const int orx = o->max_h_samp_factor / out->h_samp_factor, ory = o->max_v_samp_factor / out->v_samp_factor;
        const int rx = c->max_h_samp_factor / in->h_samp_factor, ry = c->max_v_samp_factor / in->v_samp_factor;
        if (warp) {
            t->warped = 1;
            plane_warp_make(&t->warps[ci], t->plane[ci], t->stride[ci], in->downsampled_width, in->downsampled_height,
                            rx, ry, orx, ory, warp, background[ci]);
        } else if (!plane_move_make(&t->moves[ci], t->plane[ci], t->stride[ci], in->downsampled_width,
                                    in->downsampled_height, rx, ry, move, (move->width + (uint32_t)orx - 1) / (uint32_t)orx,
                                    (move->height + (uint32_t)ory - 1) / (uint32_t)ory)) {
            free_state(t);
            snprintf(err, errlen, "out of memory");
            return 3;
        }
    }
    const int complete = progression_complete(r);
    jpeg_finish_decompress(c);
    finish_checks(r, complete);
    const double decoded = now();
    seconds[0] = decoded - began;

    const int out_rows = o->max_v_samp_factor * DCTSIZE;
    t->bands = (o->image_height + (uint32_t)out_rows - 1) / (uint32_t)out_rows;
    for (int ci = 0; ci < 3; ci++) {
        const jpeg_component_info *comp = &o->comp_info[ci];
        t->rows[ci] = comp->v_samp_factor * DCTSIZE;
        t->band_stride[ci] = (size_t)comp->width_in_blocks * DCTSIZE;
        for (int s = 0; s < SLOTS; s++) {
            t->band[s][ci] = malloc(t->band_stride[ci] * (size_t)t->rows[ci]);
            if (!t->band[s][ci]) { free_state(t); snprintf(err, errlen, "out of memory"); return 3; }
        }
    }
    // Without threads to run workers on, the bands are filled in turn.
    workers = workers < 1 ? 1 : workers > MAX_WORKERS ? MAX_WORKERS : workers;
    for (int i = 0; threads && i < workers; i++) {
        pthread_mutex_lock(&t->lock);
        t->running++;
        pthread_mutex_unlock(&t->lock);
        t->started++;
        threads->run(worker, t, threads->context);
    }
    double waiting = 0;
    for (uint32_t m = 0; m < t->bands; m++) {
        if (stopped(stop)) {
            free_state(t);  // stops the workers
            snprintf(err, errlen, "cancelled");
            return 4;
        }
        const int s = (int)(m % SLOTS);
        if (t->started) {
            const double wait = now();
            pthread_mutex_lock(&t->lock);
            while (t->ready[s] != m + 1) pthread_cond_wait(&t->changed, &t->lock);
            pthread_mutex_unlock(&t->lock);
            waiting += now() - wait;
        } else {
            fill_band(t, m);
        }
        JSAMPARRAY image[3];
        for (int ci = 0; ci < 3; ci++) {
            image[ci] = t->rows_ptrs + ci * 2 * DCTSIZE;
            for (int k = 0; k < t->rows[ci]; k++) image[ci][k] = t->band[s][ci] + (size_t)k * t->band_stride[ci];
        }
        jpeg_write_raw_data(o, image, (JDIMENSION)out_rows);
        pthread_mutex_lock(&t->lock);
        t->encoded = m + 1;
        pthread_cond_broadcast(&t->changed);
        pthread_mutex_unlock(&t->lock);
    }
    seconds[1] = t->moving;
    seconds[2] = now() - decoded - waiting - (t->started ? 0 : t->moving);
    free_state(t);
    return 0;
}

int fr_jpeg_transcode_moved(fr_jpeg_reader *r, fr_jpeg_writer *w, const fr_jpeg_move *move,
                            const fr_jpeg_threads *threads, const fr_jpeg_stop *stop, double seconds[3], char *err,
                            size_t errlen) {
    return transcode(r, w, move, NULL, 1, threads, stop, seconds, err, errlen);
}

int fr_jpeg_transcode_warped(fr_jpeg_reader *r, fr_jpeg_writer *w, const fr_jpeg_warp *warp, int workers,
                             const fr_jpeg_threads *threads, const fr_jpeg_stop *stop, double seconds[3], char *err,
                             size_t errlen) {
    return transcode(r, w, NULL, warp, workers, threads, stop, seconds, err, errlen);
}
