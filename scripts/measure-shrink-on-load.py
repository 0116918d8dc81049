#!/usr/bin/env python3
"""Shrink on load against the exact path: each photo as a quality-90 JPEG in several chroma samplings, resized to
several widths in sRGB working space by the optimised plan (a DCT-reduced decode, then the exact resample) and by
--no-optimize (full decode, exact resample); prints the peak absolute difference in 8-bit codes (and the mean).
Usage: scripts/measure-shrink-on-load.py FILTERRUN PHOTO.png... (needs cjpeg/djpeg from libjpeg-turbo-progs)."""
import json, os, subprocess, sys, tempfile
from png_rows import read_png

filterrun, photos = sys.argv[1], sys.argv[2:]
work = tempfile.mkdtemp()
samplings = {"444": "1x1", "422": "2x1", "420": "2x2", "1x4 chroma": "1x4"}
print("| photo | sampling | width | DCT factor | peak (codes) | mean |")
print("|---|---|---|---|---|---|")
worst = 0
for photo in photos:
    name = os.path.basename(photo).rsplit(".", 1)[0]
    master = os.path.join(work, name + "-q100.jpg")
    empty = os.path.join(work, "empty.json")
    json.dump({"version": 1, "steps": []}, open(empty, "w"))
    subprocess.run([filterrun, empty, photo, master, "--quality", "100", "--subsampling", "444", "--force",
                    "--backend", "cpu"], check=True, capture_output=True)
    ppm = os.path.join(work, name + ".pnm")
    subprocess.run(["djpeg", "-pnm", "-outfile", ppm, master], check=True)
    grey = open(ppm, "rb").read(2) == b"P5"
    for label, sample in (samplings.items() if not grey else [("grey", "1x1")]):
        jpeg = os.path.join(work, f"{name}-{sample}.jpg")
        subprocess.run(["cjpeg", "-quality", "90", "-sample", sample, "-outfile", jpeg, ppm], check=True)
        for width in (256, 400, 1024):
            recipe = os.path.join(work, f"w{width}.json")
            json.dump({"version": 1, "workingSpace": "srgb",
                       "steps": [{"op": "resize", "width": width, "kernel": "lanczos3"}]}, open(recipe, "w"))
            fast, exact = os.path.join(work, "fast.png"), os.path.join(work, "exact.png")
            explain = subprocess.run([filterrun, recipe, jpeg, fast, "--force", "--backend", "cpu", "--explain"],
                                     check=True, capture_output=True, text=True).stdout
            factor = next((w.split("/")[1].split()[0] for w in explain.split() if w.startswith("1/")), "1")
            subprocess.run([filterrun, recipe, jpeg, exact, "--force", "--backend", "cpu", "--no-optimize"],
                           check=True, capture_output=True)
            a, b = read_png(fast)[3], read_png(exact)[3]
            diffs = [abs(x - y) for x, y in zip(a, b)]
            peak, mean = max(diffs), sum(diffs) / len(diffs)
            worst = max(worst, peak)
            print(f"| {name} | {label} | {width} | 1/{factor} | {peak} | {mean:.3f} |", flush=True)
print(f"worst: {worst}")
