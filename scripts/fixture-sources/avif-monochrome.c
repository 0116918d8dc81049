#include <avif/avif.h>
#include <stdio.h>
#include <string.h>
// Writes a lossless monochrome (4:0:0) AVIF of a grey ramp, limited or full range, 8 or 10 bits.
int main(int argc, char **argv) {
    int limited = argv[2][0] == 'l', depth = argc > 3 ? 10 : 8;
    int w = 64, h = 48;
    avifImage *image = avifImageCreate(w, h, depth, AVIF_PIXEL_FORMAT_YUV400);
    image->yuvRange = limited ? AVIF_RANGE_LIMITED : AVIF_RANGE_FULL;
    image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
    image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
    avifImageAllocatePlanes(image, AVIF_PLANES_YUV);
    int top = (1 << depth) - 1;
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) {
        int v = ((x + y * w) * top) / (w * h - 1);   // full-range value
        int code = limited ? (int)((16 << (depth - 8)) + (double)v * (219 << (depth - 8)) / top + 0.5) : v;
        if (depth == 8) image->yuvPlanes[0][y * image->yuvRowBytes[0] + x] = (uint8_t)code;
        else ((uint16_t *)(image->yuvPlanes[0] + y * image->yuvRowBytes[0]))[x] = (uint16_t)code;
    }
    avifEncoder *encoder = avifEncoderCreate();
    encoder->minQuantizer = 0; encoder->maxQuantizer = 0; encoder->speed = 6;
    avifRWData out = AVIF_DATA_EMPTY;
    avifResult r = avifEncoderWrite(encoder, image, &out);
    if (r != AVIF_RESULT_OK) { fprintf(stderr, "%s\n", avifResultToString(r)); return 1; }
    FILE *f = fopen(argv[1], "wb"); fwrite(out.data, 1, out.size, f); fclose(f);
    return 0;
}
