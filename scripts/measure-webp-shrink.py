#!/usr/bin/env python3
"""Shrink on load against the exact path: each photo as a quality-90 WebP (cwebp) or, with FORMAT=pyramid, a tiled
TIFF pyramid (vips tiffsave --pyramid, deflate), resized to several widths in each working space by the optimised
plan (the decoder reduces by f, then the exact resample) and by --no-optimize (full decode, exact resample); prints
the peak absolute difference in 8-bit codes (and the mean).
Usage: scripts/measure-webp-shrink.py FILTERRUN PHOTO.png... (needs cwebp from the webp package, or vips from
libvips-tools); WIDTHS=256,400 picks the widths, SPACES=srgb the working spaces."""
import json, os, subprocess, sys, tempfile
from png_rows import read_png

filterrun, photos = sys.argv[1], sys.argv[2:]
work = tempfile.mkdtemp()
print("| photo | space | width | factor | peak (codes) | mean |")
print("|---|---|---|---|---|---|")
worst = {}
for photo in photos:
    name = os.path.basename(photo).rsplit(".", 1)[0]
    pyramid = os.environ.get("FORMAT") == "pyramid"
    source = os.path.join(work, name + (".tif" if pyramid else ".webp"))
    if pyramid:
        subprocess.run(["vips", "tiffsave", photo, source, "--pyramid", "--tile", "--compression", "deflate"], check=True)
    else:
        subprocess.run(["cwebp", "-quiet", "-q", "90", photo, "-o", source], check=True)
    for space in os.environ.get("SPACES", "srgb,linear").split(","):
        for width in [int(w) for w in os.environ.get("WIDTHS", "256,400,1024").split(",")]:
            recipe = os.path.join(work, f"w{width}.json")
            json.dump({"version": 1, "workingSpace": space,
                       "steps": [{"op": "resize", "width": width, "kernel": "lanczos3"}]}, open(recipe, "w"))
            fast, exact = os.path.join(work, "fast.png"), os.path.join(work, "exact.png")
            explain = subprocess.run([filterrun, recipe, source, fast, "--force", "--backend", "cpu", "--explain"],
                                     check=True, capture_output=True, text=True).stdout
            # The decoder's factor, from the shrink-on-load line (a box reduction in the pipeline is not one).
            load = next((line for line in explain.splitlines() if "shrink on load" in line), "")
            factor = next((w.split("/")[1] for w in load.split() if w.startswith("1/")), "1")
            subprocess.run([filterrun, recipe, source, exact, "--force", "--backend", "cpu", "--no-optimize"],
                           check=True, capture_output=True)
            a, b = read_png(fast)[3], read_png(exact)[3]
            diffs = [abs(x - y) for x, y in zip(a, b)]
            peak, mean = max(diffs), sum(diffs) / len(diffs)
            if factor != "1":
                worst[space] = max(worst.get(space, 0), peak)
            print(f"| {name} | {space} | {width} | {factor} | {peak} | {mean:.3f} |")
print(f"\nworst peak where a factor was used: {worst}")
