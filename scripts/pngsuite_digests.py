#!/usr/bin/env python3
"""Records the expected pixels of every valid PngSuite file with pypng (a pure-Python decoder, independent of libpng).

Each line: file name, width, height, and the CRC-32 (zlib) of the image expanded to RGBA with 16-bit big-endian samples
(palette looked up, tRNS turned into alpha, every depth scaled exactly to 16 bits: v * 65535 / (2^depth - 1)).
sBIT and gAMA are ignored, as FilterRecipe's decoder ignores them. Run: python3 scripts/pngsuite_digests.py
"""
import os, struct, sys, zlib
import png  # pip install pypng

here = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "pngsuite")

def expand(path):
    reader = png.Reader(filename=path)
    width, height, rows, info = reader.read()
    depth, planes = info["bitdepth"], info["planes"]
    maxval = (1 << depth) - 1
    palette = reader.palette(alpha="force") if reader.color_type == 3 else None
    key = info.get("transparent")
    out = bytearray()
    for row in rows:
        row = list(row)
        for x in range(width):
            if palette:
                r, g, b, a = palette[row[x]]
                px = [v * 257 for v in (r, g, b, a)]
            else:
                s = row[x * planes:(x + 1) * planes]
                alpha = maxval
                if planes in (2, 4):
                    alpha = s[-1]; s = s[:-1]
                elif key is not None:
                    k = key if isinstance(key, tuple) else (key,)
                    if tuple(s) == tuple(k[:len(s)]):
                        alpha = 0
                if len(s) == 1:
                    s = [s[0]] * 3
                px = [v * 65535 // maxval for v in list(s) + [alpha]]
            out += struct.pack(">4H", *px)
    return width, height, f"{zlib.crc32(bytes(out)):08x}"

lines = []
for name in sorted(os.listdir(here)):
    if not name.endswith(".png") or name.startswith("x"):
        continue
    w, h, digest = expand(os.path.join(here, name))
    lines.append(f"{name} {w} {h} {digest}")
with open(os.path.join(here, "expected-rgba16.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(len(lines), "files", file=sys.stderr)
