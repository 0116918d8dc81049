#!/usr/bin/env python3
"""One catalogue operation per run, JPEG in → JPEG out (quality 90, 4:2:0, libjpeg-turbo for every tool), on 8-bit
sRGB values as the filterrun recipes do ("workingSpace": "srgb"). The peers are timed inside Python, from opening
the file to the written output (the interpreter's start and imports excluded); filterrun is timed as a whole process
by the calling script.

usage: ops.py list                      the operation names, one per line
       ops.py recipe OP W H             filterrun's recipe for OP on a W×H image (JSON)
       ops.py TOOL OP IN OUT            TOOL: opencv | pyvips; prints {"seconds": s} to stdout
"""
import json
import math
import sys
import time

W601 = (0.299, 0.587, 0.114)
SAT13 = [[(1 - 1.3) * W601[j] + (1.3 if i == j else 0.0) for j in range(3)] for i in range(3)]
SHARP3 = [[-1, -1, -1], [-1, 9, -1], [-1, -1, -1]]
BINOMIAL5 = [[a * b for b in (1, 4, 6, 4, 1)] for a in (1, 4, 6, 4, 1)]
BENCH_SHARPEN = [[-1, -1, -1], [-1, 16, -1], [-1, -1, -1]]


def flat(m):
    return [v for row in m for v in row]


def motion_kernel(radius, degrees):
    """filterrun's motionBlur as a dense kernel (its formula: 2⌈r⌉ + 1 bilinear samples along ±r·(cos θ, −sin θ)),
    so every tool convolves with the same weights."""
    count = 2 * math.ceil(radius) + 1
    hx, hy = radius * math.cos(math.radians(degrees)), -radius * math.sin(math.radians(degrees))
    reach = math.ceil(max(abs(hx), abs(hy))) + 1
    k = [[0.0] * (2 * reach + 1) for _ in range(2 * reach + 1)]
    for i in range(count):
        t = 2 * i / (count - 1) - 1
        qx, qy = hx * t, hy * t
        fx, fy = math.floor(qx), math.floor(qy)
        tx, ty = qx - fx, qy - fy
        for ox, oy, w in ((0, 0, (1 - tx) * (1 - ty)), (1, 0, tx * (1 - ty)), (0, 1, (1 - tx) * ty), (1, 1, tx * ty)):
            k[fy + oy + reach][fx + ox + reach] += w / count
    return k


# filterrun's tables for the per-channel steps above (its definitions: contrast about ½, levels with its midtone
# gamma, posterize to n evenly spaced values), so every tool maps the codes through the same table.
def table(op):
    def clamp(v):
        return min(1.0, max(0.0, v))
    if op == "contrast 1.2":
        f = lambda v: (v - 0.5) * 1.2 + 0.5
    elif op == "curves":
        f = monotone_cubic(CURVE)
    elif op == "clamp":
        f = lambda v: min(0.9, max(0.1, v))
    elif op == "levels":
        f = lambda v: clamp((v - 0.05) / (0.9 - 0.05)) ** (1 / 1.2)
    else:  # posterize 4
        f = lambda v: round(v * 3) / 3
    return [round(255 * clamp(f(c / 255))) for c in range(256)]


CURVE = [[0, 0], [0.25, 0.18], [0.75, 0.84], [1, 1]]  # a gentle S


def monotone_cubic(points):
    """filterrun's curves: the Fritsch–Carlson monotone cubic through the points, flat outside them."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    n = len(xs)
    d = [(ys[k + 1] - ys[k]) / (xs[k + 1] - xs[k]) for k in range(n - 1)]
    m = [d[0]] + [0 if d[k - 1] * d[k] <= 0 else (d[k - 1] + d[k]) / 2 for k in range(1, n - 1)] + [d[-1]]
    for k in range(n - 1):
        if d[k] == 0:
            m[k] = m[k + 1] = 0
            continue
        a, b = m[k] / d[k], m[k + 1] / d[k]
        if a * a + b * b > 9:
            t = 3 / math.sqrt(a * a + b * b)
            m[k], m[k + 1] = t * a * d[k], t * b * d[k]

    def f(x):
        if x <= xs[0]:
            return ys[0]
        if x >= xs[-1]:
            return ys[-1]
        k = max(i for i in range(n - 1) if xs[i] < x)
        h = xs[k + 1] - xs[k]
        t = (x - xs[k]) / h
        return ((2 * t ** 3 - 3 * t ** 2 + 1) * ys[k] + (t ** 3 - 2 * t ** 2 + t) * h * m[k]
                + (-2 * t ** 3 + 3 * t ** 2) * ys[k + 1] + (t ** 3 - t ** 2) * h * m[k + 1])
    return f


def hue_matrix(degrees):
    """The Filter Effects spec's feColorMatrix hueRotate, as filterrun's hueRotate."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return [[0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928],
            [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283],
            [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072]]


def inside_size(degrees, w, h, radius=2):
    """filterrun's straighten: the largest centred rectangle of the input's shape whose bicubic taps (radius 2)
    all lie in the turned image."""
    c, s = abs(math.cos(math.radians(degrees))), abs(math.sin(math.radians(degrees)))
    k = max(0, min((w - 2 * radius) / (w * c + h * s), (h - 2 * radius) / (w * s + h * c)))
    return max(1, math.floor(k * w + 1e-6)), max(1, math.floor(k * h + 1e-6))


SEPIA = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]


# A photographed façade's quadrilateral (top narrower than the bottom, a slight turn), as fractions of W and H.
KEYSTONE = ["W*0.12", "H*0.06", "W*0.9", "H*0.02", "W*0.99", "H*0.97", "W*0.02", "H*0.93"]


def keystone_corners(w, h):
    return [eval(v, {"W": w, "H": h}) for v in KEYSTONE]


def keystone_size(c):
    side = lambda j, k: math.hypot(c[2 * j] - c[2 * k], c[2 * j + 1] - c[2 * k + 1])
    return round((side(0, 1) + side(3, 2)) / 2), round((side(0, 3) + side(1, 2)) / 2)


# name → filterrun steps (each a dict; "W"/"H" in crop values are filled with the image size by recipe()).
OPS = {
    "crop 50 %": [{"op": "crop", "x": "W/4", "y": "H/4", "width": "W/2", "height": "H/2"}],
    "flip": [{"op": "flip", "direction": "horizontal"}],
    "flip vertical": [{"op": "flip", "direction": "vertical"}],
    "quarter turn": [{"op": "rotate", "degrees": 90}],
    "transpose": [{"op": "transpose"}],
    "pad 100": [{"op": "pad", "top": 100, "right": 100, "bottom": 100, "left": 100, "color": [0, 0, 0]}],
    "resize 0.5 lanczos3": [{"op": "resize", "scale": 0.5, "kernel": "lanczos3"}],
    "resize 1.5 bicubic": [{"op": "resize", "scale": 1.5, "kernel": "bicubic"}],
    "gaussian σ1": [{"op": "gaussianBlur", "sigma": 1}],
    "gaussian σ8": [{"op": "gaussianBlur", "sigma": 8}],
    "box r5": [{"op": "boxBlur", "radius": 5}],
    "median r2": [{"op": "median", "radius": 2}],
    "dilate r3": [{"op": "dilate", "radius": 3}],
    "erode r7": [{"op": "erode", "radius": 7}],
    "motion r10 30°": [{"op": "motionBlur", "radius": 10, "angle": 30}],
    "bilateral σs2": [{"op": "bilateral", "sigmaSpatial": 2, "sigmaRange": 0.1}],
    "convolve 3×3": [{"op": "convolve", "kernel": flat(SHARP3)}],
    "convolve 5×5": [{"op": "convolve", "kernel": flat(BINOMIAL5)}],
    "sobel": [{"op": "sobel"}],
    "unsharp σ2": [{"op": "unsharpMask", "sigma": 2, "amount": 1}],
    "saturation 1.3": [{"op": "colorControls", "saturation": 1.3}],
    "gamma 0.8": [{"op": "gamma", "power": 0.8}],
    "exposure +0.5": [{"op": "exposure", "ev": 0.5}],
    "invert": [{"op": "invert"}],
    "grayscale": [{"op": "grayscale"}],
    "threshold": [{"op": "threshold", "level": 0.5}],
    "contrast 1.2": [{"op": "colorControls", "contrast": 1.2}],
    "levels": [{"op": "levels", "inBlack": 0.05, "inWhite": 0.9, "gamma": 1.2}],
    "posterize 4": [{"op": "posterize", "levels": 4}],
    "curves": [{"op": "curves", "points": CURVE}],
    "clamp": [{"op": "clamp", "min": 0.1, "max": 0.9}],
    "hue rotate 30°": [{"op": "hueRotate", "degrees": 30}],
    "sepia": [{"op": "sepia"}],
    "sharpen": [{"op": "sharpen", "amount": 1}],
    "auto levels": [{"op": "autoLevels", "clipLow": 0, "clipHigh": 0, "perChannel": True}],
    "trim": [{"op": "trim"}],
    # Two inputs from one file: the photo blended over its own mirror image (opaque, so every tool's arithmetic is
    # the same: a·b/255 for multiply, 0.6·a + 0.4·b for normal at 60 %).
    "blend multiply": {"nodes": [{"id": "mirror", "op": "flip", "direction": "horizontal", "input": "main"},
                                 {"id": "out", "op": "blend", "mode": "multiply", "inputs": ["mirror", "main"]}]},
    "blend 60 %": {"nodes": [{"id": "mirror", "op": "flip", "direction": "horizontal", "input": "main"},
                             {"id": "out", "op": "blend", "mode": "normal", "opacity": 0.6, "inputs": ["mirror", "main"]}]},
    # The mirror mixed over the photo through the photo's own luminance (a luminosity mask).
    "blend with mask": {"nodes": [{"id": "mirror", "op": "flip", "direction": "horizontal", "input": "main"},
                                  {"id": "out", "op": "blendWithMask", "inputs": ["mirror", "main", "main"]}]},
    # A credit line over the bottom-right corner: em 4 % of the height, white at 75 %, 2 % of the shorter side in.
    "watermark": {"nodes": [{"id": "credit", "op": "text", "input": "main", "text": "FilterRecipe 2026",
                             "font": "DejaVu Sans", "weight": "semibold", "relativeSize": 0.04,
                             "color": [1, 1, 1, 0.75], "position": "southeast", "margin": 0.02},
                            {"id": "out", "op": "over", "inputs": ["credit", "main"]}]},
    "rotate 30° bicubic": [{"op": "rotate", "degrees": 30, "kernel": "bicubic", "background": [0, 0, 0]}],
    "straighten 5°": [{"op": "straighten", "degrees": 5, "kernel": "bicubic"}],
    "perspective bicubic": [{"op": "perspective", "corners": KEYSTONE, "kernel": "bicubic"}],
    "vips benchmark": [{"op": "crop", "x": 100, "y": 100, "width": "W-200", "height": "H-200"},
                       {"op": "resize", "scale": 0.9, "kernel": "bilinear"},
                       {"op": "convolve", "kernel": flat(BENCH_SHARPEN)}],
}


def recipe(op, width, height):
    def value(v):
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            return [eval(x, {"W": width, "H": height}) for x in v]
        return int(eval(v, {"W": width, "H": height})) if isinstance(v, str) and ("W" in v or "H" in v) else v
    if isinstance(OPS[op], dict):
        return json.dumps({"version": 1, "workingSpace": "srgb", "nodes": OPS[op]["nodes"], "output": "out"})
    steps = [{k: value(v) for k, v in step.items()} for step in OPS[op]]
    return json.dumps({"version": 1, "workingSpace": "srgb", "steps": steps})


def opencv(op, src, dst):
    import cv2
    import numpy as np
    cv2.setNumThreads(0)
    t0 = time.perf_counter()
    im = cv2.imread(src, cv2.IMREAD_COLOR)
    h, w = im.shape[:2]
    if op == "crop 50 %":
        im = im[h // 4:h // 4 + h // 2, w // 4:w // 4 + w // 2]
    elif op == "flip":
        im = cv2.flip(im, 1)
    elif op == "flip vertical":
        im = cv2.flip(im, 0)
    elif op == "quarter turn":
        im = cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE)
    elif op == "transpose":
        im = cv2.transpose(im)
    elif op == "pad 100":
        im = cv2.copyMakeBorder(im, 100, 100, 100, 100, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    elif op == "resize 0.5 lanczos3":
        im = cv2.resize(im, (round(w * 0.5), round(h * 0.5)), interpolation=cv2.INTER_LANCZOS4)
    elif op == "resize 1.5 bicubic":
        im = cv2.resize(im, (round(w * 1.5), round(h * 1.5)), interpolation=cv2.INTER_CUBIC)
    elif op == "gaussian σ1":
        im = cv2.GaussianBlur(im, (0, 0), 1)
    elif op == "gaussian σ8":
        im = cv2.GaussianBlur(im, (0, 0), 8)
    elif op == "box r5":
        im = cv2.blur(im, (11, 11))
    elif op == "median r2":
        im = cv2.medianBlur(im, 5)
    elif op == "dilate r3":
        im = cv2.dilate(im, np.ones((7, 7), np.uint8))
    elif op == "erode r7":
        im = cv2.erode(im, np.ones((15, 15), np.uint8))
    elif op == "bilateral σs2":  # a 9-pixel disc as filterrun's ⌈2σs⌉ = 4; σr 0.1 of 255 (OpenCV's distance is L1)
        im = cv2.bilateralFilter(im, 9, 25.5, 2)
    elif op == "motion r10 30°":
        im = cv2.filter2D(im, -1, np.array(motion_kernel(10, 30), np.float32), borderType=cv2.BORDER_REPLICATE)
    elif op == "convolve 3×3":
        im = cv2.filter2D(im, -1, np.array(SHARP3, np.float32))
    elif op == "convolve 5×5":
        im = cv2.filter2D(im, -1, np.array(BINOMIAL5, np.float32) / 256)
    elif op == "sobel":
        g = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
        gx = cv2.Sobel(g, cv2.CV_16S, 1, 0)
        gy = cv2.Sobel(g, cv2.CV_16S, 0, 1)
        im = cv2.convertScaleAbs(cv2.magnitude(gx.astype(np.float32), gy.astype(np.float32)), alpha=0.25)
    elif op == "unsharp σ2":
        im = cv2.addWeighted(im, 2, cv2.GaussianBlur(im, (0, 0), 2), -1, 0)
    elif op == "saturation 1.3":
        bgr = [row[::-1] for row in SAT13[::-1]]
        im = cv2.transform(im, np.array(bgr, np.float32))
    elif op == "gamma 0.8":
        im = cv2.LUT(im, np.array([round(255 * (v / 255) ** 0.8) for v in range(256)], np.uint8))
    elif op == "exposure +0.5":
        im = cv2.convertScaleAbs(im, alpha=2 ** 0.5)
    elif op == "invert":
        im = cv2.bitwise_not(im)
    elif op == "grayscale":
        im = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
    elif op == "threshold":
        im = cv2.threshold(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), 127, 255, cv2.THRESH_BINARY)[1]
    elif op in ("contrast 1.2", "levels", "posterize 4", "curves", "clamp"):
        im = cv2.LUT(im, np.array(table(op), np.uint8))
    elif op == "hue rotate 30°":
        im = cv2.transform(im, np.array([row[::-1] for row in hue_matrix(30)[::-1]], np.float32))
    elif op == "sepia":
        im = cv2.transform(im, np.array([row[::-1] for row in SEPIA[::-1]], np.float32))
    elif op == "sharpen":  # filterrun's definition: RGB + amount·(Y − [1 2 1]ᵀ[1 2 1]/16 ∗ Y), Y the luma
        g = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY).astype(np.int16)
        d = g - cv2.GaussianBlur(g, (3, 3), 0)
        im = np.clip(im.astype(np.int16) + d[:, :, None], 0, 255).astype(np.uint8)
    elif op == "blend multiply":
        im = cv2.multiply(cv2.flip(im, 1), im, scale=1 / 255)
    elif op == "blend 60 %":
        im = cv2.addWeighted(cv2.flip(im, 1), 0.6, im, 0.4, 0)
    elif op == "blend with mask":
        m = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255
        im = cv2.blendLinear(cv2.flip(im, 1), im, m, 1 - m)
    elif op == "watermark":  # OpenCV's own (Hershey) font, drawn on a copy of the corner and mixed back at 75 %
        font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(h * 0.04 / 12))
        scale = cv2.getFontScaleFromHeight(font, round(h * 0.04), thick)
        (tw, th), base = cv2.getTextSize("FilterRecipe 2026", font, scale, thick)
        margin = round(0.02 * min(w, h))
        x0, y0, y1 = w - margin - tw, h - margin - th - base, h - margin
        corner = im[y0:y1, x0:x0 + tw]
        layer = corner.copy()
        cv2.putText(layer, "FilterRecipe 2026", (0, th), font, scale, (255, 255, 255), thick, cv2.LINE_AA)
        im[y0:y1, x0:x0 + tw] = cv2.addWeighted(layer, 0.75, corner, 0.25, 0)
    elif op == "auto levels":  # each channel stretched from its darkest to its brightest code
        im = cv2.merge([cv2.normalize(ch, None, 0, 255, cv2.NORM_MINMAX) for ch in cv2.split(im)])
    elif op == "rotate 30° bicubic":
        c, s = abs(math.cos(math.radians(30))), abs(math.sin(math.radians(30)))
        nw, nh = int(math.ceil(w * c + h * s)), int(math.ceil(w * s + h * c))
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -30, 1)
        m[0, 2] += (nw - w) / 2
        m[1, 2] += (nh - h) / 2
        im = cv2.warpAffine(im, m, (nw, nh), flags=cv2.INTER_CUBIC)
    elif op == "straighten 5°":  # turned about the centre straight into the inside rectangle
        nw, nh = inside_size(5, w, h)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -5, 1)
        m[0, 2] += (nw - w) / 2
        m[1, 2] += (nh - h) / 2
        im = cv2.warpAffine(im, m, (nw, nh), flags=cv2.INTER_CUBIC)
    elif op == "perspective bicubic":
        # OpenCV puts pixel centres at integers: corners (edges) shift by half a pixel.
        c = np.array(keystone_corners(w, h), np.float64).reshape(4, 2) - 0.5
        nw, nh = keystone_size(keystone_corners(w, h))
        rect = np.array([[0, 0], [nw, 0], [nw, nh], [0, nh]], np.float64) - 0.5
        m = cv2.getPerspectiveTransform(c.astype(np.float32), rect.astype(np.float32))
        im = cv2.warpPerspective(im, m, (nw, nh), flags=cv2.INTER_CUBIC)
    elif op == "vips benchmark":
        im = im[100:h - 100, 100:w - 100]
        im = cv2.resize(im, (round((w - 200) * 0.9), round((h - 200) * 0.9)), interpolation=cv2.INTER_LINEAR)
        im = cv2.filter2D(im, -1, np.array(BENCH_SHARPEN, np.float32) / 8)
    else:
        raise SystemExit(f"OpenCV has no {op}")
    cv2.imwrite(dst, im, [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                          cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420])
    return time.perf_counter() - t0


def pyvips_run(op, src, dst):
    import pyvips
    t0 = time.perf_counter()
    moves = op in ("quarter turn", "transpose", "flip vertical", "rotate 30° bicubic", "straighten 5°", "trim")
    im = pyvips.Image.new_from_file(src, access="random" if moves else "sequential")
    w, h = im.width, im.height
    if op == "crop 50 %":
        im = im.crop(w // 4, h // 4, w // 2, h // 2)
    elif op == "flip":
        im = im.fliphor()
    elif op == "flip vertical":
        im = im.flipver()
    elif op == "quarter turn":
        im = im.rot90()
    elif op == "transpose":
        im = im.rot90().fliphor()
    elif op == "pad 100":
        im = im.embed(100, 100, w + 200, h + 200, extend="black")
    elif op == "resize 0.5 lanczos3":
        im = im.resize(0.5, kernel="lanczos3")
    elif op == "resize 1.5 bicubic":
        im = im.resize(1.5, kernel="cubic")
    elif op == "gaussian σ1":
        im = im.gaussblur(1, min_ampl=0.01)
    elif op == "gaussian σ8":
        im = im.gaussblur(8, min_ampl=0.01)
    elif op == "box r5":
        im = im.conv(pyvips.Image.new_from_array([[1] * 11] * 11, scale=121), precision="integer")
    elif op == "median r2":
        im = im.median(5)
    elif op == "dilate r3":  # greyscale maximum over the square: rank's top index (morph is for binary masks)
        im = im.rank(7, 7, 48)
    elif op == "erode r7":
        im = im.rank(15, 15, 0)
    elif op == "motion r10 30°":
        im = im.conv(pyvips.Image.new_from_array(motion_kernel(10, 30)), precision="float").cast("uchar")
    elif op == "convolve 3×3":
        im = im.conv(pyvips.Image.new_from_array(SHARP3, scale=1), precision="integer")
    elif op == "convolve 5×5":
        im = im.conv(pyvips.Image.new_from_array(BINOMIAL5, scale=256), precision="integer")
    elif op == "sobel":
        im = im.colourspace("b-w").sobel()
    elif op == "unsharp σ2":
        im = (im * 2 - im.gaussblur(2, min_ampl=0.01)).cast("uchar")
    elif op == "saturation 1.3":
        im = im.recomb(pyvips.Image.new_from_array(SAT13)).cast("uchar")
    elif op == "gamma 0.8":
        im = im.gamma(exponent=1 / 0.8)
    elif op == "exposure +0.5":
        im = im.linear(2 ** 0.5, 0).cast("uchar")
    elif op == "invert":
        im = im.invert()
    elif op == "grayscale":
        im = im.colourspace("b-w")
    elif op == "threshold":
        im = im.colourspace("b-w") > 127
    elif op in ("contrast 1.2", "levels", "posterize 4", "curves", "clamp"):
        im = im.maplut(pyvips.Image.new_from_array([table(op)]).cast("uchar"))
    elif op == "hue rotate 30°":
        im = im.recomb(pyvips.Image.new_from_array(hue_matrix(30))).cast("uchar")
    elif op == "sepia":
        im = im.recomb(pyvips.Image.new_from_array(SEPIA)).cast("uchar")
    elif op == "sharpen":  # libvips's sharpen: an unsharp mask of L* in CIELAB (its own curve; σ as our 3×3 blur)
        im = im.sharpen(sigma=0.7).colourspace("srgb")
    elif op == "blend multiply":
        im = (im.fliphor() * im / 255).cast("uchar")
    elif op == "blend 60 %":
        im = (im.fliphor() * 0.6 + im * 0.4).cast("uchar")
    elif op == "blend with mask":
        im = im.colourspace("b-w").ifthenelse(im.fliphor(), im, blend=True)
    elif op == "watermark":  # Pango through vips_text, composited over at 75 %
        text = pyvips.Image.text("FilterRecipe 2026", font=f"DejaVu Sans Semi-Bold {round(0.04 * h)}", dpi=72)
        overlay = text.new_from_image([255, 255, 255]).bandjoin((text * 0.75).cast("uchar"))
        margin = round(0.02 * min(w, h))
        im = im.composite2(overlay.copy(interpretation="srgb"), "over", x=w - margin - text.width,
                           y=h - margin - text.height).extract_band(0, n=3).cast("uchar")
    elif op == "trim":  # libvips's find_trim (a 3×3 median, then the box differing from the top-left by over 10)
        left, top, width, height = im.find_trim(threshold=10)
        im = im.crop(left, top, width, height)
    elif op == "rotate 30° bicubic":
        im = im.rotate(30, interpolate=pyvips.Interpolate.new("bicubic"))
    elif op == "straighten 5°":  # turned, then the inside rectangle cut from its centre
        nw, nh = inside_size(5, w, h)
        im = im.rotate(5, interpolate=pyvips.Interpolate.new("bicubic"))
        im = im.crop((im.width - nw) // 2, (im.height - nh) // 2, nw, nh)
    elif op == "vips benchmark":
        im = im.crop(100, 100, w - 200, h - 200).resize(0.9, kernel="linear")
        im = im.conv(pyvips.Image.new_from_array(BENCH_SHARPEN, scale=8), precision="integer")
    else:
        raise SystemExit(f"libvips has no {op}")
    im.jpegsave(dst, Q=90, subsample_mode="on")
    return time.perf_counter() - t0


if __name__ == "__main__":
    if sys.argv[1] == "list":
        print("\n".join(OPS))
    elif sys.argv[1] == "recipe":
        print(recipe(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    else:
        tool, op, src, dst = sys.argv[1:5]
        seconds = (opencv if tool == "opencv" else pyvips_run)(op, src, dst)
        print(json.dumps({"seconds": seconds}))
