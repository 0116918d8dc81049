#!/usr/bin/env python3
"""Writes the floating-point TIFF fixtures in Tests/Fixtures/tiff/ from the 8-bit ones beside them.

Each image's light is computed here in float64 from the PNG's samples (IEC 61966-2-1's sRGB decoding), then made to
reach outside 0…1 (the left quarter four times as bright, the bottom rows' blue pushed below 0) so an unclamped reader shows it;
the floats go to Debian's libtiff-tools 4.5 (`raw2tiff -d float|double`, `tiffcp` for compression, predictors,
tiles and byte order, `tiffset` for ExtraSamples). The half-float file is written by the small baseline TIFF writer
below (libtiff-tools cannot make one). Beside each, `NAME.expected.f32`: the samples as stored, float32
little-endian, which the tests compare with. Run from the repository root: python3 scripts/make-tiff-float-fixtures.py
"""
import os, struct, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
from png_rows import read_png

OUT = "Tests/Fixtures/tiff"
tmp = tempfile.mkdtemp()


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def linear(code):
    v = code / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def light(path, keep_alpha):
    w, h, channels, samples = read_png(path)
    out = []
    for y in range(h):
        for x in range(w):
            p = (y * w + x) * channels
            rgb = [linear(samples[p + c]) for c in range(3)]
            if x < w // 4:
                rgb = [4 * v for v in rgb]       # highlights above 1
            if y >= h - 4:
                rgb[2] -= 0.25                     # a colour outside the sRGB gamut
            out += rgb + ([samples[p + 3] / 255] if keep_alpha and channels == 4 else [])
    return w, h, out


def grey(values, bands):
    return [0.2126 * values[i] + 0.7152 * values[i + 1] + 0.0722 * values[i + 2] for i in range(0, len(values), bands)]


def raw(name, values, kind):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), "d" if kind == "double" else "f"), *values))
    return path


def expected(name, values):
    with open(os.path.join(OUT, name + ".expected.f32"), "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))


def tiff(name, values, w, h, bands, photometric, kind="float", compression=None, extra=None, big_endian=False, tiles=None):
    source = os.path.join(tmp, name + ".raw.tif")
    run("raw2tiff", "-d", kind, "-w", str(w), "-l", str(h), "-b", str(bands), "-p", photometric,
        raw(name + ".raw", values, kind), source)
    if extra is not None:
        run("tiffset", "-s", "338", "1", str(extra), source)
    args = ["tiffcp"] + (["-B"] if big_endian else ["-L"]) + (["-c", compression] if compression else [])
    args += ["-t", "-w", str(tiles), "-l", str(tiles)] if tiles else []
    run(*args, source, os.path.join(OUT, name))
    expected(name, values)


def half_tiff(name, values, w, h, bands, extra):
    """A baseline TIFF (little-endian, one strip, uncompressed) of 16-bit IEEE floats."""
    data = struct.pack("<%de" % len(values), *values)
    tags = [(256, 3, 1, w), (257, 3, 1, h), (258, 3, 1, 16), (259, 3, 1, 1), (262, 3, 1, 1 if bands <= 2 else 2),
            (273, 4, 1, 0), (277, 3, 1, bands), (278, 3, 1, h), (279, 4, 1, len(data)), (284, 3, 1, 1),
            (338, 3, 1, extra), (339, 3, 1, 3)]
    ifd_at = 8
    data_at = ifd_at + 2 + 12 * len(tags) + 4
    ifd = struct.pack("<H", len(tags))
    for tag, kind, count, value in tags:
        value = data_at if tag == 273 else value
        ifd += struct.pack("<HHI", tag, kind, count) + (struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value))
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", ifd_at) + ifd + struct.pack("<I", 0) + data)
    expected(name, [struct.unpack("<e", struct.pack("<e", v))[0] for v in values])


def main():
    w, h, rgb = light(os.path.join(OUT, "rgb8.expected.png"), False)
    _, _, rgba = light(os.path.join(OUT, "rgba8.expected.png"), True)
    tiff("rgb32f_deflate_fp.tif", rgb, w, h, 3, "rgb", compression="zip:3")
    # Big-endian without a predictor: libtiff 4.5's tiffcp writes big-endian floating-point-predicted data that
    # libtiff itself reads back byte-swapped.
    tiff("rgb32f_lzw_tiles_bigendian.tif", rgb, w, h, 3, "rgb", compression="lzw", big_endian=True, tiles=32)
    tiff("rgba32f_unassociated.tif", rgba, w, h, 4, "rgb", compression="zip:3", extra=2)
    tiff("grey64f.tif", grey(rgb, 3), w, h, 1, "minisblack", kind="double")
    greys = grey(rgba, 4)
    alphas = rgba[3::4]
    half_tiff("greyalpha16f_associated.tif", [v for g, a in zip(greys, alphas) for v in (g * a, a)], w, h, 2, 1)


if __name__ == "__main__":
    main()
