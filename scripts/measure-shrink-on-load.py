#!/usr/bin/env python3
"""Shrink on load against the exact path: each photo as a quality-90 JPEG in several chroma samplings, resized to
several widths in sRGB working space by the optimised plan (a DCT-reduced decode, then the exact resample) and by
--no-optimize (full decode, exact resample); prints the peak absolute difference in 8-bit codes (and the mean).
Usage: scripts/measure-shrink-on-load.py FILTERRUN PHOTO.png... (needs cjpeg/djpeg from libjpeg-turbo-progs)."""
import json, os, struct, subprocess, sys, tempfile, zlib

def read_png(path):
    """8-bit grey/grey-alpha/RGB/RGBA PNG samples (what filterrun writes for 8-bit JPEG input)."""
    data = open(path, "rb").read()
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8, "8-bit outputs only"
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, out, prev = zlib.decompress(idat), width * channels, bytearray(), bytearray(width * channels)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], (prev[x - channels] if x >= channels else 0)
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return width, height, out

filterrun, photos = sys.argv[1], sys.argv[2:]
work = tempfile.mkdtemp()
samplings = {"444": "1x1", "422": "2x1", "420": "2x2", "1x4 chroma": "1x4"}
print("| photo | sampling | width | DCT factor | peak (codes) | mean |")
print("|---|---|---|---|---|---|")
worst = 0
for photo in photos:
    name = os.path.basename(photo).rsplit(".", 1)[0]
    master = os.path.join(work, name + "-q100.jpg")
    subprocess.run([filterrun, os.path.join(work, "none.json") if False else "/dev/null", photo, master], capture_output=True)
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
            _, _, a = read_png(fast)
            _, _, b = read_png(exact)
            diffs = [abs(x - y) for x, y in zip(a, b)]
            peak, mean = max(diffs), sum(diffs) / len(diffs)
            worst = max(worst, peak)
            print(f"| {name} | {label} | {width} | 1/{factor} | {peak} | {mean:.3f} |", flush=True)
print(f"worst: {worst}")
