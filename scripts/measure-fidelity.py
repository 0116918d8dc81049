#!/usr/bin/env python3
"""Shrink on load by fidelity: each photo as a quality-90 JPEG (4:2:0 and 4:4:4), resized to several widths with
Lanczos 3 at each fidelity, against the same resize of the full decode (--fidelity exact). Prints the decode
factor each fidelity chose and the PSNR of its 8-bit result (RGB, every pixel) in dB.
`--progressive` writes the JPEGs progressive (at 1/8 they are read from their DC scans alone).
Usage: scripts/measure-fidelity.py FILTERRUN [--space linear|srgb] [--progressive] PHOTO.png...
(needs cjpeg/djpeg from libjpeg-turbo-progs)."""
import json, math, os, subprocess, sys, tempfile
from png_rows import read_png

args = sys.argv[1:]
filterrun = args.pop(0)
space = "linear"
if args and args[0] == "--space":
    space = args[1]
    args = args[2:]
progressive = bool(args) and args[0] == "--progressive"
if progressive:
    args = args[1:]
photos = args
work = tempfile.mkdtemp()


def psnr(a, b):
    se = sum((x - y) ** 2 for x, y in zip(a, b))
    return float("inf") if se == 0 else 10 * math.log10(255 * 255 * len(a) / se)


def run(*command):
    return subprocess.run(list(command), check=True, capture_output=True, text=True).stdout


empty = os.path.join(work, "empty.json")
json.dump({"version": 1, "steps": []}, open(empty, "w"))
print(f"working space {space}" + (", progressive JPEGs" if progressive else ""))
print("| photo | sampling | width | high: factor | high: dB | fast: factor | fast: dB |")
print("|---|---|---|---|---|---|---|")
worst = {"high": float("inf"), "fast": float("inf")}
for photo in photos:
    name = os.path.basename(photo).split("_")[0]
    master = os.path.join(work, name + "-q100.jpg")
    run(filterrun, empty, photo, master, "--quality", "100", "--subsampling", "444", "--force", "--backend", "cpu")
    ppm = os.path.join(work, name + ".pnm")
    run("djpeg", "-pnm", "-outfile", ppm, master)
    for label, sample in (("4:2:0", "2x2"), ("4:4:4", "1x1")):
        jpeg = os.path.join(work, f"{name}-{sample}.jpg")
        run("cjpeg", "-quality", "90", "-sample", sample, *(["-progressive"] if progressive else []), "-outfile", jpeg, ppm)
        for width in (256, 400, 800, 1600):
            recipe = os.path.join(work, f"w{width}.json")
            json.dump({"version": 1, "workingSpace": space,
                       "steps": [{"op": "resize", "width": width, "kernel": "lanczos3"}]}, open(recipe, "w"))
            exact = os.path.join(work, "exact.png")
            run(filterrun, recipe, jpeg, exact, "--force", "--backend", "cpu", "--fidelity", "exact")
            reference = read_png(exact)[3]
            cells = []
            for fidelity in ("high", "fast"):
                out = os.path.join(work, fidelity + ".png")
                explain = run(filterrun, recipe, jpeg, out, "--force", "--backend", "cpu", "--fidelity", fidelity,
                              "--explain")
                factor = next((w.split("/")[1] for w in explain.split() if w.startswith("1/")), "1")
                db = psnr(reference, read_png(out)[3])
                if factor != "1":
                    worst[fidelity] = min(worst[fidelity], db)
                cells += [f"1/{factor}", "exact" if db == float("inf") else f"{db:.1f}"]
            print(f"| {name} | {label} | {width} | " + " | ".join(cells) + " |", flush=True)
print(f"\nworst where the decoder shrank: high {worst['high']:.1f} dB, fast {worst['fast']:.1f} dB")
