#!/usr/bin/env python3
"""Wall time of one filterrun process per render at each fidelity (exact, high, fast), the runs interleaved.
Usage: scripts/bench-fidelity.py FILTERRUN RECIPE PHOTO.jpg... (RUNS=11 by default). Prints a Markdown table: the
decode factor --explain names, and the median (range) wall time of each fidelity, JPEG out."""
import os, statistics, subprocess, sys, tempfile, time

filterrun, recipe, photos = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = int(os.environ.get("RUNS", "11"))
work = tempfile.mkdtemp()
fidelities = ("exact", "high", "fast")
times = {}
for _ in range(runs):
    for photo in photos:
        for fidelity in fidelities:
            began = time.perf_counter()
            subprocess.run([filterrun, recipe, photo, os.path.join(work, "t.jpg"), "--force", "--backend", "cpu",
                            "--fidelity", fidelity], check=True, capture_output=True)
            times.setdefault((photo, fidelity), []).append(time.perf_counter() - began)
print("| photo | fidelity | decode | wall |")
print("|---|---|---|---|")
for photo in photos:
    for fidelity in fidelities:
        explain = subprocess.run([filterrun, recipe, photo, os.path.join(work, "x.jpg"), "--force", "--backend", "cpu",
                                  "--fidelity", fidelity, "--explain"], capture_output=True, text=True).stdout
        factor = next((w for w in explain.split() if w.startswith("1/")), "1/1")
        t = [v * 1000 for v in times[(photo, fidelity)]]
        print(f"| {os.path.basename(photo)} | {fidelity} | {factor} | {statistics.median(t):.0f} ms ({min(t):.0f}–{max(t):.0f}) |")
