#include "line_blur.h"
#include <math.h>
#include <string.h>

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void fr_zoom_blur_row(float *out, const float *const *rows, int first, int width, int height, int y, float cx, float cy,
                      float s) {
    const float fy0 = (float)y;
    for (int x = 0; x < width; x++) {
        const float ux = (float)x - cx, uy = fy0 - cy;
        const int count = 1 + (int)ceilf(s * sqrtf(ux * ux + uy * uy));
        const float inverse = count > 1 ? -s / (float)(count - 1) : 0.0f;
        const float stepX = ux * inverse, stepY = uy * inverse;
        float sum[4] = {0, 0, 0, 0};
        for (int k = 0; k < count; k++) {
            const float qx = (float)x + stepX * (float)k, qy = fy0 + stepY * (float)k;
            const float fx = floorf(qx), fy = floorf(qy), tx = qx - fx, ty = qy - fy;
            const int ix = (int)fx, iy = (int)fy;
            const int x0 = clampi(ix, 0, width - 1), x1 = clampi(ix + 1, 0, width - 1);
            const float *top = rows[clampi(iy, 0, height - 1) - first], *bottom = rows[clampi(iy + 1, 0, height - 1) - first];
            for (int c = 0; c < 4; c++) {
                const float upper = top[4 * x0 + c] * (1 - tx) + top[4 * x1 + c] * tx;
                const float lower = bottom[4 * x0 + c] * (1 - tx) + bottom[4 * x1 + c] * tx;
                sum[c] += upper * (1 - ty) + lower * ty;
            }
        }
        for (int c = 0; c < 4; c++) out[4 * x + c] = sum[c] / (float)count;
    }
}
