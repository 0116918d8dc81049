#!/usr/bin/env bash
# The checks for a lent GPU machine, run there from the bundle scripts/gpu-bundle.sh makes (carry .gpu-bin, .gpu-lib
# and .gpu-data): which device `auto` takes and why; filterbench --gpu (device copy and transfer bandwidths, each
# recipe's kernel and transfer times beside them), with the tiled blur and convolution kernels on and off;
# filterbench --agreement (every recipe and catalogue filter on CPU and Vulkan, 8-bit, RGBA, 16-bit); and JPEG-to-JPEG
# renders of every recipe on each backend and `auto`, end to end (process start, decode, render, encode), median of
# RUNS; batches of every recipe (the photos copied to 24 files) on each backend and `auto`, with the stages summed
# against the wall time (the overlap); the device profile `auto` measured and what it chose for each recipe; each
# recipe on the device streamed band by band (the default) against whole (FILTERRUN_VULKAN_STREAM_ROWS=0).
# Results go to $OUT (the device tool brings them back), or /tmp/gpu-out elsewhere. CHECKS names the sections to run
# (default: device bench agreement streaming e2e batch, about 7 minutes; also tiled and agreement32 — agreement32 is the agreement with float32 working
# buffers throughout, FILTERRUN_VULKAN_FLOAT32=1, to tell half-float storage from the device's arithmetic).
# Usage: [CHECKS="..."] bash scripts/gpu-checks.sh [RUNS] (default 5; 3 keeps the default checks near 6 minutes)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-out}; runs=${1:-5}; checks=" ${CHECKS:-device bench agreement streaming e2e batch} "
want() { [[ $checks == *" $1 "* ]]; }
export XDG_CACHE_HOME=/tmp/fr/cache
mkdir -p "$out" /tmp/fr
export LD_LIBRARY_PATH=$PWD/.gpu-lib
[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c 'import lzma, os, shutil, sys
for f in sys.argv[1:]:
    target = "/tmp/fr/" + os.path.basename(f)[:-3]
    with lzma.open(f) as i, open(target, "wb") as o: shutil.copyfileobj(i, o)
    os.chmod(target, 0o755)' .gpu-bin/*.xz
fr=/tmp/fr/filterrun fb=/tmp/fr/filterbench
jpegs=(.gpu-data/*.jpg)
# PNG copies for the in-memory benchmarks (they decode PNG), written by filterrun itself through an empty recipe.
echo '{"version": 1, "steps": []}' > /tmp/fr/identity.json
for j in "${jpegs[@]}"; do $fr /tmp/fr/identity.json "$j" "/tmp/fr/$(basename "${j%.jpg}").png" --force --backend cpu; done
photo=/tmp/fr/$(basename "${jpegs[0]%.jpg}").png
log() { echo "== $*" | tee -a "$out/summary.txt"; }
want device && {
  nvidia-smi -L 2>&1; nproc; uname -r
  for l in "$fr" "$fb"; do ldd "$l" | grep "not found"; done
  $fr recipes/vintage.json "${jpegs[0]}" /tmp/fr/auto.jpg --force --backend auto --verbose --stats 2>&1 | head -40
  echo "auto's device profile (measured by the run above, once):"
  tail -n +2 /tmp/fr/cache/filterrun/auto-backend-profiles.json
  # A shrink then a heavy middle: whether auto cuts the plan there (the CPU's shrink, the device's blur), and the
  # cut's time end to end against each backend whole.
  printf '%s\n' '{"version": 1, "steps": [{"op": "resize", "width": 1500}, {"op": "gaussianBlur", "sigma": 30}, {"op": "vignette"}]}' > /tmp/fr/cut.json
  $fr /tmp/fr/cut.json "${jpegs[0]}" /tmp/fr/cut.jpg --force --explain 2>&1 | head -1
  for backend in auto cpu vulkan; do
    /usr/bin/time -f "cut recipe, $backend: %e s" $fr /tmp/fr/cut.json "${jpegs[0]}" /tmp/fr/cut.jpg --force --backend $backend 2>&1 | tail -1
  done
} > "$out/device.txt" 2>&1
want device && { log "device"; cat "$out/device.txt" >> "$out/summary.txt"; }

printf '%s\n' '{"version": 1, "description": "Gaussian sigma 10 (the tiled pass matters at wide kernels).", "steps": [{"op": "gaussianBlur", "sigma": 10}]}' > /tmp/fr/gauss10.json
printf '%s\n' '{"version": 1, "description": "Gaussian sigma 6.", "steps": [{"op": "gaussianBlur", "sigma": 6}]}' > /tmp/fr/gauss6.json
printf '%s\n' '{"version": 1, "description": "A 9x9 convolution.", "steps": [{"op": "convolve", "kernel": [1,2,3,4,5,4,3,2,1, 2,3,4,5,6,5,4,3,2, 3,4,5,6,7,6,5,4,3, 4,5,6,7,8,7,6,5,4, 5,6,7,8,9,8,7,6,5, 4,5,6,7,8,7,6,5,4, 3,4,5,6,7,6,5,4,3, 2,3,4,5,6,5,4,3,2, 1,2,3,4,5,4,3,2,1]}]}' > /tmp/fr/conv9.json
recipes=(bench/*.json $(ls recipes/*.json | grep -v schema.json) /tmp/fr/gauss10.json /tmp/fr/conv9.json)
# The GPU's clocks every 100 ms while the benchmarks run (a GPU that idles between milliseconds of work may not
# raise them), read only.
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu --format=csv -lms 100 > "$out/clocks.csv" 2>&1 &
  clocks=$!
fi
if want bench; then
  # A GPU idles at low clocks and a few milliseconds of work do not raise them: one pass over every recipe first.
  timeout 100 $fb --gpu "$photo" --runs 1 "${recipes[@]}" > /dev/null 2>&1
  log "filterbench --gpu (tiled kernels as chosen for the device), after a warm-up pass"
  timeout 150 $fb --gpu "$photo" --runs "$runs" "${recipes[@]}" 2>&1 | tee "$out/gpu-bench.txt" >> "$out/summary.txt"
fi
# Tiled against plain kernels, each list short enough (a few seconds) that the GPU keeps its clocks.
want tiled && for tiled in default 0 1; do
  log "FILTERRUN_VULKAN_TILED=$tiled"
  FILTERRUN_VULKAN_TILED=$tiled timeout 60 $fb --gpu "$photo" --runs "$runs" bench/p2-gaussian.json bench/p4-unsharp.json \
    /tmp/fr/gauss6.json /tmp/fr/gauss10.json /tmp/fr/conv9.json 2>&1 | tee "$out/gpu-tiled$tiled.txt" >> "$out/summary.txt"
done

[ -n "${clocks:-}" ] && kill "$clocks" 2>/dev/null
if want agreement; then
  log "filterbench --agreement"
  timeout 150 $fb --agreement "$photo" 2>&1 | tee "$out/agreement.txt" >> "$out/summary.txt"
fi
if want agreement32; then
  log "filterbench --agreement, float32 working buffers throughout"
  FILTERRUN_VULKAN_FLOAT32=1 timeout 150 $fb --agreement "$photo" 2>&1 | tee "$out/agreement32.txt" >> "$out/summary.txt"
fi

extras() {  # recipe photo: --input NAME=PHOTO for each input after the first
  for name in $(grep -o '"inputs": *\[[^]]*\]' "$1" | head -1 | grep -o '"[A-Za-z0-9_]*"' | tr -d '"' | tail -n +2); do
    printf -- '--input\n%s=%s\n' "$name" "$2"
  done
}
if want batch; then
  log "batches: 24 files (the photos copied), --jobs $(nproc), wall s; stages summed ÷ wall = overlap; auto's choice"
  mkdir -p /tmp/fr/batch
  for k in $(seq 1 12); do for j in "${jpegs[@]}"; do cp "$j" "/tmp/fr/batch/$k-$(basename "$j")"; done; done
  for r in $(ls recipes/*.json | grep -v schema.json); do
    mapfile -t extra < <(extras "$r" "${jpegs[0]}")
    line="$(basename "$r" .json)"
    for backend in cpu vulkan auto; do
      rm -rf /tmp/fr/batch-out
      timeout 120 $fr "$r" /tmp/fr/batch /tmp/fr/batch-out/ --backend $backend --force --quiet --stats=json "${extra[@]}" \
        2> /tmp/fr/batch.json > /dev/null || { line="$line $backend=fail"; continue; }
      line="$line $(python3 -c 'import json, sys, collections
s = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
ran = collections.Counter(f.get("backend") for f in s["files"])
print("%s=%.2fs overlap=%.2f ran=%s" % (sys.argv[2], s["seconds"], s["stageSeconds"] / max(s["seconds"], 1e-9),
      "+".join("%s:%d" % kv for kv in sorted(ran.items()))))' /tmp/fr/batch.json $backend)"
    done
    echo "$line"
  done 2>&1 | tee "$out/batch.txt" >> "$out/summary.txt"
fi

if want streaming; then
  log "device renders streamed band by band against whole, JPEG to JPEG, $(basename "${jpegs[0]}"), median of 3, wall s and peak MiB"
  for r in $(ls recipes/*.json | grep -v schema.json); do
    mapfile -t extra < <(extras "$r" "${jpegs[0]}")
    line="$(basename "$r" .json)"
    for rows in "" 0; do
      times=() peak=0
      for i in 1 2 3; do
        FILTERRUN_VULKAN_STREAM_ROWS=$rows /usr/bin/time -f "%e %M" -o /tmp/fr/stream.time timeout 60 $fr "$r" "${jpegs[0]}" \
          "/tmp/fr/stream$rows.jpg" --backend vulkan --force "${extra[@]}" > /dev/null 2>&1 || { times=(fail); break; }
        read -r seconds kib < /tmp/fr/stream.time
        times+=("$seconds") peak=$kib
      done
      median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
      label=streamed; [ -n "$rows" ] && label=whole
      line="$line $label ${median}s $((peak / 1024))MiB"
    done
    cmp -s /tmp/fr/stream.jpg /tmp/fr/stream0.jpg && line="$line same" || line="$line DIFFERENT"
    echo "$line"
  done 2>&1 | tee "$out/streaming.txt" >> "$out/summary.txt"
fi

want e2e || { log "done"; exit 0; }
log "JPEG to JPEG, end to end, median of $runs runs after a warm-up, wall milliseconds"
for j in "${jpegs[@]}"; do
  for r in $(ls recipes/*.json | grep -v schema.json) bench/p2-gaussian.json bench/chain10.json; do
    line="$(basename "$j") $(basename "$r" .json)"
    extra=()
    for name in $(grep -o '"inputs": *\[[^]]*\]' "$r" | head -1 | grep -o '"[A-Za-z0-9_]*"' | tr -d '"' | tail -n +3); do
      extra+=(--input "$name=$j")
    done
    for backend in cpu vulkan auto; do
      times=()
      for i in $(seq 0 "$runs"); do
        start=$(date +%s%N)
        timeout 60 $fr "$r" "$j" /tmp/fr/e2e.jpg --backend $backend --force "${extra[@]}" >/dev/null 2>&1 || { times=(fail); break; }
        [ "$i" -gt 0 ] && times+=($(( ($(date +%s%N) - start) / 1000000 )))
      done
      median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
      line="$line $backend ${median}ms"
    done
    echo "$line"
  done
done 2>&1 | tee "$out/e2e.txt" >> "$out/summary.txt"
log "done"
