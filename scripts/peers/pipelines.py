#!/usr/bin/env python3
"""The peer tools running the pipelines that bench/p1-colour.json, p2-gaussian.json, p3-resize.json, p4-unsharp.json,
p5-chain.json and p6-sobel.json define (../shared/peers/params.py), on 8-bit sRGB values as the recipes do
("workingSpace": "srgb"), writing PNG at zlib 6 with adaptive filters.

usage: pipelines.py TOOL PIPELINE IN OUT      TOOL: pillow | opencv | pyvips;  PIPELINE: P1 … P6
       pipelines.py psnr A.png B.png          PSNR in dB of B against A (8-bit, all channels)
Prints one JSON line to stderr: {"decode": s, "filter": s, "encode": s} (perf_counter; pyvips runs lazily, so its
whole pipeline is in "encode" and "filter" is null)."""
import json
import sys
import time

SIGMA_BLUR, SCALE, SIGMA_SHARPEN = 3.0, 0.25, 2.0
W601 = (0.299, 0.587, 0.114)


def r8(x):
    return max(0, min(255, int(x + 0.5)))


# P1 as the peers define it: 8-bit steps, each rounded and clamped.
BC = [r8(1.2 * r8(1.1 * v) - 25.5) for v in range(256)]
GAMMA = [r8(255.0 * (v / 255.0) ** (1 / 1.2)) for v in range(256)]
SAT = [[(1 - 1.3) * W601[j] + (1.3 if i == j else 0.0) for j in range(3)] for i in range(3)]
# P5's saturation 1.2 and tone curve c(x) = x/2 + (3x² − 2x³)/2.
SAT12 = [[(1 - 1.2) * W601[j] + (1.2 if i == j else 0.0) for j in range(3)] for i in range(3)]
CURVE = [r8(255.0 * (0.5 * x + 0.5 * (3 * x * x - 2 * x ** 3))) for x in (v / 255.0 for v in range(256))]


def half(w, h):
    return int(w * 0.5 + 0.5), int(h * 0.5 + 0.5)


def sobel_numpy(grey):
    """P6 on an 8-bit grey array: 3×3 Sobel (edges replicated), r(min(255, |∇| / 4))."""
    import numpy as np
    g = np.pad(grey.astype(np.float32), 1, mode="edge")
    gx = (g[:-2, 2:] + 2 * g[1:-1, 2:] + g[2:, 2:]) - (g[:-2, :-2] + 2 * g[1:-1, :-2] + g[2:, :-2])
    gy = (g[2:, :-2] + 2 * g[2:, 1:-1] + g[2:, 2:]) - (g[:-2, :-2] + 2 * g[:-2, 1:-1] + g[:-2, 2:])
    return np.minimum(255, np.floor(np.sqrt(gx * gx + gy * gy) / 4 + 0.5)).astype(np.uint8)


def out_size(w, h):
    return int(w * SCALE + 0.5), int(h * SCALE + 0.5)


def pillow(pipeline, src, dst):
    from PIL import Image, ImageFilter
    t0 = time.perf_counter()
    im = Image.open(src)
    im.load()
    t1 = time.perf_counter()
    if pipeline == "P1":
        im = im.point(BC * 3).convert("RGB", tuple(v for row in SAT for v in row + [0.0])).point(GAMMA * 3)
    elif pipeline == "P2":
        im = im.filter(ImageFilter.GaussianBlur(SIGMA_BLUR))
    elif pipeline == "P3":
        im = im.resize(out_size(*im.size), Image.Resampling.LANCZOS)
    elif pipeline == "P4":
        im = im.filter(ImageFilter.UnsharpMask(radius=SIGMA_SHARPEN, percent=100, threshold=0))
    elif pipeline == "P5":
        im = im.resize(half(*im.size), Image.Resampling.LANCZOS).filter(ImageFilter.GaussianBlur(1))
        im = im.filter(ImageFilter.UnsharpMask(radius=1, percent=50, threshold=0))
        im = im.convert("RGB", tuple(v for row in SAT12 for v in row + [0.0])).point(CURVE * 3)
    else:
        import numpy as np
        im = Image.fromarray(sobel_numpy(np.asarray(im.convert("L"))))
    t2 = time.perf_counter()
    im.save(dst, compress_level=6)
    return t1 - t0, t2 - t1, time.perf_counter() - t2


def opencv(pipeline, src, dst):
    import cv2
    t0 = time.perf_counter()
    im = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    t1 = time.perf_counter()
    if pipeline == "P1":
        import numpy as np
        bgr = np.array(SAT, np.float32)[::-1, ::-1].copy()  # the RGB matrix for BGR in and out
        im = cv2.LUT(cv2.transform(cv2.LUT(im, np.array(BC, np.uint8)), bgr), np.array(GAMMA, np.uint8))
    elif pipeline == "P2":
        im = cv2.GaussianBlur(im, (0, 0), SIGMA_BLUR)
    elif pipeline == "P3":
        im = cv2.resize(im, out_size(im.shape[1], im.shape[0]), interpolation=cv2.INTER_LANCZOS4)
    elif pipeline == "P4":
        blurred = cv2.GaussianBlur(im, (0, 0), SIGMA_SHARPEN)
        im = cv2.addWeighted(im, 2.0, blurred, -1.0, 0)
    elif pipeline == "P5":
        import numpy as np
        im = cv2.resize(im, half(im.shape[1], im.shape[0]), interpolation=cv2.INTER_AREA)
        im = cv2.GaussianBlur(im, (0, 0), 1)
        im = cv2.addWeighted(im, 1.5, cv2.GaussianBlur(im, (0, 0), 1), -0.5, 0)
        im = cv2.LUT(cv2.transform(im, np.array(SAT12, np.float32)[::-1, ::-1].copy()), np.array(CURVE, np.uint8))
    else:
        g = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        im = cv2.convertScaleAbs(cv2.magnitude(gx, gy), alpha=0.25)
    t2 = time.perf_counter()
    cv2.imwrite(dst, im, [cv2.IMWRITE_PNG_COMPRESSION, 6])
    return t1 - t0, t2 - t1, time.perf_counter() - t2


def pyvips(pipeline, src, dst):
    import pyvips as v
    t0 = time.perf_counter()
    im = v.Image.new_from_file(src, access="sequential")
    if pipeline == "P1":
        im = im.maplut(v.Image.new_from_list([BC])).recomb(v.Image.new_from_list(SAT)).cast("uchar")
        im = im.maplut(v.Image.new_from_list([GAMMA]))
    elif pipeline == "P2":
        im = im.gaussblur(SIGMA_BLUR, min_ampl=0.01)
    elif pipeline == "P3":
        im = im.resize(SCALE, kernel="lanczos3")
    elif pipeline == "P4":
        im = (im * 2 - im.gaussblur(SIGMA_SHARPEN, min_ampl=0.01)).cast("uchar")
    elif pipeline == "P5":
        im = im.resize(0.5, kernel="lanczos3").gaussblur(1, min_ampl=0.01)
        im = (im * 1.5 - im.gaussblur(1, min_ampl=0.01) * 0.5 + 0.5).cast("uchar")
        im = (im.recomb(v.Image.new_from_list(SAT12)) + 0.5).cast("uchar").maplut(v.Image.new_from_list([CURVE]))
    else:
        grey = (im.recomb(v.Image.new_from_list([list(W601)])) + 0.5).cast("uchar")
        sx = v.Image.new_from_list([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]])
        gx = grey.conv(sx, precision="float")
        gy = grey.conv(sx.rot90(), precision="float")
        im = ((gx * gx + gy * gy) ** 0.5 * 0.25 + 0.5).cast("uchar")
    im.pngsave(dst, compression=6, filter="all")
    return 0.0, None, time.perf_counter() - t0


def psnr(a, b):
    import numpy as np
    from PIL import Image
    x = np.asarray(Image.open(a).convert("RGB"), dtype=np.float64)
    y = np.asarray(Image.open(b).convert("RGB"), dtype=np.float64)
    if x.shape != y.shape:
        return None
    mse = float(np.mean((x - y) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


if __name__ == "__main__":
    if sys.argv[1] == "psnr":
        print(json.dumps(psnr(sys.argv[2], sys.argv[3])))
        sys.exit(0)
    tool, pipeline, src, dst = sys.argv[1:5]
    decode, filtering, encode = {"pillow": pillow, "opencv": opencv, "pyvips": pyvips}[tool](pipeline, src, dst)
    print(json.dumps({"decode": decode, "filter": filtering, "encode": encode}), file=sys.stderr)
