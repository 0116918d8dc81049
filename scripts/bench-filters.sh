#!/usr/bin/env bash
# Per-filter throughput: each catalogue filter alone (defaults, or the parameters below) on IMAGE through
# filterbench (each run a filterrun process; BACKEND, default cpu); filter seconds exclude decode and encode.
# Usage: scripts/bench-filters.sh IMAGE
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
python3 - "$dir" <<'PY'
import json, subprocess, sys
out = sys.argv[1]
ids = [l.split()[0] for l in subprocess.check_output([".build/release/filterrun", "list"], text=True).splitlines()]
# Defaults that change nothing would be optimised away (a filter-free recipe copies rows): give those real work.
extra = {"resize": {"scale": 0.5}, "crop": {"x": 100, "y": 100, "width": 3000, "height": 1800},
         "pad": {"top": 16, "left": 16}, "gaussianBlur": {"sigma": 3}, "exposure": {"ev": 0.5},
         "colorControls": {"saturation": 1.2, "contrast": 1.1}, "gamma": {"power": 0.8}, "hueRotate": {"degrees": 30},
         "vibrance": {"amount": 0.3}, "temperatureTint": {"temperature": 0.2},
         "colorMatrix": {"matrix": [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]}, "opacity": {"amount": 0.8}}
for i in ids:
    node = {"id": "f", "op": i, **extra.get(i, {})}
    if i in ("blend", "over"): node["inputs"] = ["main", "main"]
    elif i == "blendWithMask": node["inputs"] = ["main", "main", "main"]
    else: node["input"] = "main"
    json.dump({"version": 1, "inputs": ["main"], "nodes": [node], "output": "f"}, open(f"{out}/{i}.json", "w"))
print(" ".join(ids))
PY
ids=$(ls "$dir" | sed 's/.json//' )
.build/release/filterbench --image "$1" --runs "${RUNS:-3}" --compression 1 --backend "${BACKEND:-cpu}" $(for i in $(.build/release/filterrun list | cut -d' ' -f1); do echo "$dir/$i.json"; done)
rm -rf "$dir"
