#!/usr/bin/env bash
# HEIC, AVIF and WebP photos to 400 px thumbnails beside vipsthumbnail (libvips, which reads them through the same
# libheif and libwebp): two 10–13 MP photos made HEICs and WebPs (heif-enc at quality 80, cwebp at quality 80),
# each to a 400 px JPEG by filterrun's sRGB-space web-thumbnail and by vipsthumbnail -s 400x; a batch of COUNT
# (default 100) HEICs (four 2–3 MP photos, copied) to 400 px JPEGs; a 12 MP AVIF written from the HEIC; and the
# 13.1 MP photo as phones write HEICs, a grid of 512×512 tiles (scripts/make-heic-grid.py).
# Medians of RUNS (default 5) alternating runs; wall time by the shell's clock, peak RSS by GNU time.
# Installs libvips-tools, libheif-examples and webp (apt) itself.
# Usage: scripts/bench-heif.sh PHOTO.png OTHER_PHOTO.png (the shared kleiber and seeding photos)
set -uo pipefail
cd "$(dirname "$0")/.."
first=$1; second=$2; runs=${RUNS:-5}; count=${COUNT:-100}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
for tool in vipsthumbnail:libvips-tools heif-enc:libheif-examples cwebp:webp; do
  command -v "${tool%%:*}" >/dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${tool#*:}" >/dev/null; } || true
done
swift build -c release --product filterrun >/dev/null
bin=.build/release/filterrun

# Inputs: about 12 MP each (kleiber 20 MP at 0.8 → 13.1 MP; seeding 8.3 MP at 1.1 → 10.0 MP).
vips resize "$first" "$work/a.png" 0.8; vips resize "$second" "$work/b.png" 1.1
for p in a b; do
  heif-enc -q 80 -o "$work/$p.heic" "$work/$p.png" >/dev/null
  cwebp -quiet -q 80 "$work/$p.png" -o "$work/$p.webp"
done
python3 scripts/make-heic-grid.py "$work/a.png" "$work/grid.heic"
mkdir -p "$work/batch" "$work/out-fr" "$work/out-vips"
for i in 0 1 2 3; do
  vips crop "$([ $((i % 2)) = 0 ] && echo "$first" || echo "$second")" "$work/crop$i.png" $((i * 300)) $((i * 100)) 2000 1400
  heif-enc -q 80 -o "$work/crop$i.heic" "$work/crop$i.png" >/dev/null
done
for n in $(seq 1 "$count"); do cp "$work/crop$((n % 4)).heic" "$work/batch/p$n.heic"; done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A T M
run() {  # key, command...
  local key=$1; shift
  local began=$EPOCHREALTIME
  /usr/bin/time -f "%M" -o "$work/t" "$@" >/dev/null 2>&1 || { echo "$key failed: $*" >&2; return; }
  local t; t=$(python3 -c "print(f'{$EPOCHREALTIME - $began:.3f}')")
  read -r m < "$work/t"; T[$key]+="$t "; M[$key]+="$m "
}
report() {  # key label
  [ -n "${T[$1]:-}" ] || { echo "| $2 | skipped | |"; return; }
  echo "| $2 | $(printf '%s\n' ${T[$1]} | median) | $(( $(printf '%s\n' ${M[$1]} | median) / 1024 )) |"
}
for _ in $(seq "$runs"); do
  for p in a b; do for f in heic webp; do
    run "$p$f-fr" $bin recipes/web-thumbnail-srgb.json "$work/$p.$f" "$work/t.jpg" --force --backend cpu
    run "$p$f-vips" vipsthumbnail "$work/$p.$f" -s 400x -o "$work/t.jpg[Q=90]"
  done; done
  run grid-fr $bin recipes/web-thumbnail-srgb.json "$work/grid.heic" "$work/t.jpg" --force --backend cpu
  run grid-vips vipsthumbnail "$work/grid.heic" -s 400x -o "$work/t.jpg[Q=90]"
  run avif-fr $bin recipes/web-thumbnail-srgb.json "$work/a.heic" "$work/t.avif" --force --backend cpu
  run avif-vips vipsthumbnail "$work/a.heic" -s 400x -o "$work/t.avif[Q=50]"
done
for _ in 1 2 3; do
  rm -f "$work"/out-fr/* "$work"/out-vips/*
  run batch-fr $bin recipes/web-thumbnail-srgb.json "$work/batch" "$work/out-fr" --format jpeg --jobs 2 --quiet --backend cpu
  run batch-vips vipsthumbnail "$work"/batch/*.heic -s 400x -o "$work/out-vips/%s.jpg[Q=90]"
done
echo "| 400 px thumbnail (JPEG q90 out) | wall s | peak RSS MiB |"
echo "|---|---|---|"
for p in a b; do
  label=$([ $p = a ] && echo "kleiber 13.1 MP" || echo "seeding 10.0 MP")
  for f in heic webp; do
    report "$p$f-fr" "$label $f: filterrun web-thumbnail-srgb"
    report "$p$f-vips" "$label $f: vipsthumbnail -s 400x"
  done
done
report grid-fr "kleiber 13.1 MP heic, 512-pixel grid: filterrun web-thumbnail-srgb"
report grid-vips "kleiber 13.1 MP heic, 512-pixel grid: vipsthumbnail -s 400x"
report avif-fr "kleiber 13.1 MP heic → 400 px AVIF: filterrun (quality 50, effort 4)"
report avif-vips "kleiber 13.1 MP heic → 400 px AVIF: vipsthumbnail (Q=50)"
echo
echo "| batch: $count HEICs (2000×1400) to 400 px JPEGs, median of 3 | wall s | images/s | peak RSS MiB |"
echo "|---|---|---|---|"
for key in batch-fr batch-vips; do
  t=$(printf '%s\n' ${T[$key]:-0} | median)
  label=$([ $key = batch-fr ] && echo "filterrun batch --jobs 2" || echo "vipsthumbnail, one process for all files")
  echo "| $label | $t | $(python3 -c "print(f'{$count / max($t, 0.001):.1f}')") | $(( $(printf '%s\n' ${M[$key]:-0} | median) / 1024 )) |"
done
