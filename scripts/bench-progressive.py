#!/usr/bin/env python3
"""Thumbnails of progressive JPEGs beside the same pixels as baseline: filterrun (`--fidelity fast` and `high`, whose
1/8 decodes of a progressive file read its DC scans alone) and vipsthumbnail, one process a thumbnail (400 px box,
quality 80), RUNS (default 11) alternating; median (min–max) wall milliseconds, and filterrun's decode stage.
Usage: scripts/bench-progressive.py FILTERRUN RECIPE BASELINE.jpg PROGRESSIVE.jpg  (the second: `jpegtran -progressive`
of the first)."""
import json, os, statistics, subprocess, sys, tempfile, time

filterrun, recipe, baseline, progressive = sys.argv[1:5]
runs = int(os.environ.get("RUNS", "11"))
work = tempfile.mkdtemp()
out = os.path.join(work, "out.jpg")
cases = []
for label, path in (("baseline", baseline), ("progressive", progressive)):
    for fidelity in ("fast", "high"):
        cases.append((f"filterrun --fidelity {fidelity}", label,
                      [filterrun, recipe, path, out, "--force", "--fidelity", fidelity, "--quality", "80", "--stats=json"]))
    cases.append(("vipsthumbnail", label, ["vipsthumbnail", path, "-s", "400x400", "-o", out + "[Q=80]"]))
walls = {i: [] for i in range(len(cases))}
decodes = {i: [] for i in range(len(cases))}
for _ in range(runs):
    for i, (_, _, command) in enumerate(cases):
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        walls[i].append((time.perf_counter() - began) * 1000)
        if command[0] == filterrun:
            stats = json.loads(done.stderr.strip().splitlines()[-1])
            decodes[i].append(stats["decodeSeconds"] * 1000)
def summary(values):
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})" if values else "—"
print("| tool | file | wall ms | decode ms |\n|---|---|---|---|")
for i, (tool, label, _) in enumerate(cases):
    print(f"| {tool} | {label} | {summary(walls[i])} | {summary(decodes[i])} |")
