#!/usr/bin/env bash
# Batch throughput: COUNT (default 210) real photos of mixed sizes (0.2–5 MP, 8- and 16-bit, grey, RGB, RGBA) through
# the 25 % Lanczos-3 resize (bench/p3-resize.json), all writing zlib 6 with adaptive filters. Compares filterrun's
# batch mode at --jobs 1 and 2, one filterrun process per file two at a time (xargs -P 2, as GNU parallel would),
# and the vips CLI once per file in a shell loop. Wall time and peak RSS of the largest process (GNU time).
# Usage: scripts/bench-batch.sh PHOTO_DIR   (needs libvips-tools)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$1; count=${COUNT:-210}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
photos=(); for f in "$src"/*.png; do
  px=$(python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); w,h=struct.unpack('>II',d[16:24]); print(w*h)" "$f")
  [ "$px" -le 6000000 ] && photos+=("$f")
done
for i in $(seq 0 $((count - 1))); do cp "${photos[$((i % ${#photos[@]}))]}" "$work/in/img$i.png"; done
echo "$count files from ${#photos[@]} photos: $(du -sh "$work/in" | cut -f1), $(python3 -c "
import struct,glob; print(round(sum((lambda d: struct.unpack('>II', d[16:24])[0]*struct.unpack('>II', d[16:24])[1])(open(f,'rb').read(24)) for f in glob.glob('$work/in/*.png'))/1e6), 'MP')")"
bin=.build/release/filterrun
measure() {  # label, command...
  rm -rf "$work/out"; mkdir -p "$work/out"
  /usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null 2>&1 || { echo "| $1 | failed |"; return; }
  read -r t m < "$work/t"
  echo "| $label | $t s | $(python3 -c "print(round($count / $t, 1))") | $((m / 1024)) MiB |"
}
echo "| how | wall | images/s | peak RSS |"
echo "|---|---|---|---|"
label="filterrun batch --jobs 1"; measure $bin bench/p3-resize.json "$work/in" "$work/out" --jobs 1 --quiet --compression 6 --filter all --backend cpu
label="filterrun batch --jobs 2"; measure $bin bench/p3-resize.json "$work/in" "$work/out" --jobs 2 --quiet --compression 6 --filter all --backend cpu
label="filterrun per file, xargs -P 2"; measure bash -c "ls '$work/in' | xargs -P 2 -I{} $bin bench/p3-resize.json '$work/in/{}' '$work/out/{}' --compression 6 --filter all --backend cpu"
label="vips resize per file, shell loop"; measure bash -c "for f in '$work'/in/*.png; do vips resize \"\$f\" \"$work/out/\$(basename \"\$f\")[compression=6,filter=all]\" 0.25 --kernel lanczos3; done"
