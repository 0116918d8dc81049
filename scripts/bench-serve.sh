#!/usr/bin/env bash
# filterserve beside thumbor on the same machine and images: 12 MP JPEG sources to 400 px WebP thumbnails, wrk at
# several concurrencies. Usage: scripts/bench-serve.sh PHOTO.jpg... (12 MP JPEGs). Needs wrk (Debian) and thumbor 7
# in THUMBOR_VENV (python3 -m venv V && V/bin/pip install thumbor); builds filterserve in release.
# Prints a Markdown table: requests/s, p50 and p99 latency, non-2xx answers and socket errors, and each server's RSS
# before and after the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
THUMBOR_VENV=${THUMBOR_VENV:-/tmp/th}
DURATION=${DURATION:-20s}
# filterserve's wait list (beyond it: 503 at once); the default here holds every connection, so both servers queue.
MAX_WAITING=${MAX_WAITING:-256}
CONNECTIONS=${CONNECTIONS:-"8 32 128"}
swift build -c release --product filterserve >/dev/null
work=$(mktemp -d)
mkdir -p "$work/sources" "$work/presets"
for p in "$@"; do cp "$p" "$work/sources/"; done
printf '{"version": 1, "description": "400 px thumbnail", "workingSpace": "srgb", "steps": [{"op": "resize", "width": 400, "height": 400, "fit": "inside", "withoutEnlargement": true}]}' \
  > "$work/presets/thumb400.json"
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
trap 'kill $serve $thumbor 2>/dev/null; sleep 1; pkill -P $thumbor 2>/dev/null; rm -rf "$work"' EXIT
sleep 4
first=$(basename "$1")
# wrk's Lua: cycle through the photos so each request decodes a source.
names=$(for p in "$@"; do printf '"%s",' "$(basename "$p")"; done)
cat > "$work/cycle.lua" <<LUA
names = {${names%,}}
i = 0
prefix = os.getenv("PREFIX")
suffix = os.getenv("SUFFIX")
request = function()
  i = i % #names + 1
  return wrk.format("GET", prefix .. names[i] .. suffix)
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
curl -sf -o /dev/null "http://127.0.0.1:18181/r/_/thumb400/$first?format=webp" || { echo "filterserve did not answer" >&2; exit 1; }
curl -sf -o /dev/null "http://127.0.0.1:18282/unsafe/400x400/filters:format(webp)/$first" || { echo "thumbor did not answer" >&2; exit 1; }
echo "| server | connections | answers/s | images/s (2xx) | p50 ms | p99 ms | non-2xx | socket errors |"
echo "|---|---|---|---|---|---|---|---|"
declare -A before
before[filterserve]=$(rss "filterserve --port 18181"); before[thumbor]=$(rss "thumbor --port 18282")
for c in $CONNECTIONS; do
  for server in filterserve thumbor; do
    if [ $server = filterserve ]; then export PREFIX="/r/_/thumb400/" SUFFIX="?format=webp"; url=http://127.0.0.1:18181
    else export PREFIX="/unsafe/400x400/filters:format(webp)/" SUFFIX=""; url=http://127.0.0.1:18282; fi
    line=$(wrk -t2 -c"$c" -d"$DURATION" --timeout 30s -s "$work/cycle.lua" "$url" | grep RESULT)
    read -r _ rps ok p50 p99 status errors <<<"$line"
    echo "| $server | $c | $rps | $ok | $p50 | $p99 | $status | $errors |"
  done
done
echo
echo "RSS after one request each: filterserve ${before[filterserve]} MiB, thumbor (all processes) ${before[thumbor]} MiB; after the runs: $(rss "filterserve --port 18181") and $(rss "thumbor --port 18282") MiB"
