#!/usr/bin/env bash
# filterserve beside thumbor on the same machine, images and work: 12 MP JPEG sources fitted inside 400×400 (thumbor
# told `fit-in`, its own fast path), JPEG and WebP out at quality 80, wrk at several concurrencies. Usage:
# scripts/bench-serve.sh PHOTO.jpg... (12 MP JPEGs). Needs wrk (Debian) and thumbor 7 in THUMBOR_VENV (python3 -m venv
# V && V/bin/pip install thumbor); builds filterserve and filterrun in release. FIDELITY sets the preset's fidelity
# (exact, high, fast; default high).
# Prints a Markdown table: requests/s, p50 and p99 latency, non-2xx answers and socket errors, each server's RSS
# before and after the runs, and each server's thumbnail of the first photo against the exact resize of the full
# decode (Lanczos 3, `--fidelity exact`) in dB PSNR.
set -euo pipefail
cd "$(dirname "$0")/.."
THUMBOR_VENV=${THUMBOR_VENV:-/tmp/th}
DURATION=${DURATION:-20s}
# filterserve's wait list (beyond it: 503 at once); the default here holds every connection, so both servers queue.
MAX_WAITING=${MAX_WAITING:-256}
CONNECTIONS=${CONNECTIONS:-"8 32 128"}
FORMATS=${FORMATS:-"jpeg webp"}
FIDELITY=${FIDELITY:-high}
swift build -c release --product filterserve >/dev/null
swift build -c release --product filterrun >/dev/null
work=$(mktemp -d)
mkdir -p "$work/sources" "$work/presets"
# Each photo under COPIES names (hard links), requested at random: concurrent requests then ask for different
# URLs, so filterserve's coalescing of identical in-flight requests (which thumbor lacks) does not count as work done.
# With c requests in flight among N names, about c/N of them find their twin in flight: 100 copies of two photos
# let 15 % of the requests at 32 connections be coalesced (the thirty-eighth session's figures); 2 000 copies keep
# it under 1 %, and the table reports filterserve's coalesced answers so that a run shows it.
COPIES=${COPIES:-2000}
for p in "$@"; do
  cp "$p" "$work/sources/"
  for k in $(seq 1 "$COPIES"); do ln "$work/sources/$(basename "$p")" "$work/sources/copy$k-$(basename "$p")"; done
done
printf '{"version": 1, "description": "400 px thumbnail", "workingSpace": "srgb", "fidelity": "%s", "steps": [{"op": "resize", "width": 400, "height": 400, "fit": "inside", "withoutEnlargement": true}]}' \
  "$FIDELITY" > "$work/presets/thumb400.json"
cat > "$work/thumbor.conf" <<CONF
LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '$work/sources'
ALLOW_UNSAFE_URL = True
QUALITY = 80
WEBP_QUALITY = 80
RESULT_STORAGE = None
STORAGE = 'thumbor.storages.no_storage'
CONF
.build/release/filterserve --port 18181 --allow-unsigned --max-waiting "$MAX_WAITING" --presets "$work/presets" --sources "$work/sources" >/dev/null 2>&1 &
serve=$!
"$THUMBOR_VENV/bin/thumbor" --port 18282 --conf "$work/thumbor.conf" --processes "$(nproc)" >/dev/null 2>&1 &
thumbor=$!
trap 'pkill -P $thumbor 2>/dev/null; kill $serve $thumbor 2>/dev/null; sleep 1; pkill -f "thumbor --port 18282" 2>/dev/null; rm -rf "$work"; true' EXIT
sleep 4
# Another process on either port would answer in their place.
kill -0 $serve 2>/dev/null || { echo "filterserve did not start (is port 18181 taken?)" >&2; exit 1; }
kill -0 $thumbor 2>/dev/null || { echo "thumbor did not start (is port 18282 taken?)" >&2; exit 1; }
first=$(basename "$1")
# wrk's Lua: cycle through the photos so each request decodes a source.
names=$(for p in "$@"; do for k in $(seq 1 "$COPIES"); do printf '"%s",' "copy$k-$(basename "$p")"; done; done)
cat > "$work/cycle.lua" <<LUA
names = {${names%,}}
prefix = os.getenv("PREFIX")
suffix = os.getenv("SUFFIX")
counter = 0
setup = function(thread) counter = counter + 1; thread:set("seed", counter) end
init = function() math.randomseed(seed * 7919 + os.time()) end
request = function()
  local path = prefix .. names[math.random(#names)] .. suffix
  return wrk.format("GET", path)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.1f %.1f %.1f %d %d\n", summary.requests / (summary.duration / 1e6),
    (summary.requests - summary.errors.status) / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
# Resident memory of every process of a server (thumbor forks one per core), by its command line.
rss() { { pgrep -f "$1" || true; } | xargs -r ps -o rss= -p | awk '{s += $1} END {printf "%d", s / 1024}'; }
# Peak resident (VmHWM) summed over the matching processes, MiB.
peak() { for p in $(pgrep -f "$1" || true); do grep VmHWM "/proc/$p/status" 2>/dev/null || true; done | awk '{s += $2} END {printf "%d", s / 1024}'; }
curl -sf -o /dev/null "http://127.0.0.1:18181/r/_/thumb400/$first?format=webp" || { echo "filterserve did not answer" >&2; exit 1; }
curl -sf -o /dev/null "http://127.0.0.1:18282/unsafe/fit-in/400x400/filters:format(webp)/$first" || { echo "thumbor did not answer" >&2; exit 1; }
# Fidelity: each server's thumbnail of the first photo, as PNG (lossless, so the shrink alone is measured), against
# the exact resize of the full decode.
printf '{"version": 1, "workingSpace": "srgb", "fidelity": "exact", "steps": [{"op": "resize", "width": 400, "height": 400, "fit": "inside", "kernel": "lanczos3"}]}' > "$work/exact.json"
.build/release/filterrun "$work/exact.json" "$1" "$work/exact.png" --backend cpu
curl -sf -o "$work/fs.png" "http://127.0.0.1:18181/r/_/thumb400/$first?format=png"
curl -sf -o "$work/th.png" "http://127.0.0.1:18282/unsafe/fit-in/400x400/filters:format(png)/$first"
psnr() { python3 - "$work/exact.png" "$1" <<'PY'
import math, sys
sys.path.insert(0, "scripts")
from png_rows import read_png
a, b = read_png(sys.argv[1]), read_png(sys.argv[2])
if (a[0], a[1]) != (b[0], b[1]):
    print(f"size {b[0]}x{b[1]} vs {a[0]}x{a[1]}"); sys.exit()
se = sum((x - y) ** 2 for x, y in zip(a[3], b[3]))
print("exact" if se == 0 else f"{10 * math.log10(255 * 255 * len(a[3]) / se):.1f} dB")
PY
}
echo "fidelity against the exact resize ($first, PNG out): filterserve ($FIDELITY) $(psnr "$work/fs.png"), thumbor fit-in $(psnr "$work/th.png")"
echo
# Answers filterserve shared with an identical request in flight (its Prometheus counter).
coalesced() { curl -sf http://127.0.0.1:18181/metrics | awk '/^filterserve_coalesced_total/ {print $2}'; }
echo "| server | out | connections | answers/s | images/s (2xx) | p50 ms | p99 ms | non-2xx | socket errors | coalesced |"
echo "|---|---|---|---|---|---|---|---|---|---|"
declare -A before
before[filterserve]=$(rss "filterserve --port 18181"); before[thumbor]=$(rss "thumbor --port 18282")
for format in $FORMATS; do
  for c in $CONNECTIONS; do
    for server in filterserve thumbor; do
      if [ $server = filterserve ]; then export PREFIX="/r/_/thumb400/" SUFFIX="?format=$format"; url=http://127.0.0.1:18181
      else export PREFIX="/unsafe/fit-in/400x400/filters:format($format)/" SUFFIX=""; url=http://127.0.0.1:18282; fi
      shared_before=$(coalesced)
      line=$(wrk -t2 -c"$c" -d"$DURATION" --timeout 30s -s "$work/cycle.lua" "$url" | grep RESULT)
      read -r _ rps ok p50 p99 status errors <<<"$line"
      shared="–"; [ $server = filterserve ] && shared=$(( $(coalesced) - shared_before ))
      echo "| $server | $format | $c | $rps | $ok | $p50 | $p99 | $status | $errors | $shared |"
    done
  done
done
echo
echo "RSS after one request each: filterserve ${before[filterserve]} MiB, thumbor (all processes) ${before[thumbor]} MiB; after the runs: $(rss "filterserve --port 18181") and $(rss "thumbor --port 18282") MiB; peak over the runs (VmHWM): $(peak "filterserve --port 18181") and $(peak "thumbor --port 18282") MiB"
