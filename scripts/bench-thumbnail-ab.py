#!/usr/bin/env python3
"""Several filterrun binaries and vipsthumbnail on the same photos: each photo to a 400 px JPEG (quality 90) by
recipes/web-thumbnail-srgb.json and by `vipsthumbnail -s 400x`, the commands alternating run after run; prints the
median wall time (a Python timer around GNU time) and the median peak RSS of each.
Usage: RUNS=15 scripts/bench-thumbnail-ab.py BINARY[,BINARY…] PHOTO… (vipsthumbnail from libvips-tools)."""
import os, statistics, subprocess, sys, tempfile, time

runs = int(os.environ.get("RUNS", "15"))
binaries, photos = sys.argv[1].split(","), sys.argv[2:]
recipe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "recipes", "web-thumbnail-srgb.json")
work = tempfile.mkdtemp()
times, peaks = {}, {}
for _ in range(runs):
    for photo in photos:
        for binary in binaries + ["vipsthumbnail"]:
            if binary == "vipsthumbnail":
                command = [binary, photo, "-s", "400x", "-o", os.path.join(work, "v.jpg[Q=90]")]
            else:
                command = [binary, recipe, photo, os.path.join(work, "f.jpg"), "--force", "--backend", "cpu"]
            began = time.perf_counter()
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", os.path.join(work, "m")] + command,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times.setdefault((photo, binary), []).append(time.perf_counter() - began)
            peaks.setdefault((photo, binary), []).append(int(open(os.path.join(work, "m")).read().split()[-1]) / 1024)
print("| photo | tool | wall s | peak MiB |\n|---|---|---|---|")
for (photo, binary), t in times.items():
    print(f"| {os.path.basename(photo)} | {binary} | {statistics.median(t):.4f} | {statistics.median(peaks[(photo, binary)]):.0f} |")
