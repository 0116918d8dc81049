#!/usr/bin/env bash
# An animated GIF of COUNT (default 100) 640×360 frames — a pan across a photo, each frame quantised to its own
# 256-colour palette by Pillow, 40 ms a frame, looping — to an animated WebP (quality 80), by filterrun
# (`--frames all`), vips (libvips reads every page with [n=-1]) and gif2webp (libwebp's converter, no filter):
# the conversion alone, and a half-size thumbnail (filterrun's resize, vipsthumbnail); and to an animated GIF, by
# filterrun (libimagequant's palettes) and vips (gifsave: cgif with libimagequant). Medians of RUNS (default 5)
# alternating runs; wall time by the shell's clock, peak RSS by GNU time.
# Installs libvips-tools, webp and python3-pil (apt) itself.
# Usage: scripts/bench-animation.sh PHOTO.png (the shared kleiber photo)
set -uo pipefail
cd "$(dirname "$0")/.."
photo=$1; runs=${RUNS:-5}; count=${COUNT:-100}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
for tool in vipsthumbnail:libvips-tools gif2webp:webp; do
  command -v "${tool%%:*}" >/dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${tool#*:}" >/dev/null; } || true
done
/usr/bin/python3 -c "import PIL" 2>/dev/null || { $sudo apt-get install -y -qq python3-pil >/dev/null; }
swift build -c release --product filterrun >/dev/null
bin=.build/release/filterrun

/usr/bin/python3 - "$photo" "$work/anim.gif" "$count" <<'PY'
import sys
from PIL import Image
photo, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
im = Image.open(photo).convert("RGB")
w, h = im.size
frames = []
for i in range(count):
    x = (w - 1280) * i // max(1, count - 1)
    frames.append(im.crop((x, h // 3, x + 1280, h // 3 + 720)).resize((640, 360), Image.LANCZOS).quantize(256))
frames[0].save(out, save_all=True, append_images=frames[1:], duration=40, loop=0, optimize=False)
PY
echo '{"version": 1, "steps": []}' > "$work/copy.json"
echo '{"version": 1, "workingSpace": "srgb", "steps": [{"op": "resize", "width": 320}]}' > "$work/half.json"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A T M
run() {  # key, command...
  local key=$1; shift
  local began=$EPOCHREALTIME
  /usr/bin/time -f "%M" -o "$work/t" "$@" >/dev/null 2>&1 || { echo "$key failed: $*" >&2; return; }
  local t; t=$(python3 -c "print(f'{$EPOCHREALTIME - $began:.3f}')")
  read -r m < "$work/t"; T[$key]+="$t "; M[$key]+="$m "
}
for _ in $(seq "$runs"); do
  run "convert filterrun" $bin "$work/copy.json" "$work/anim.gif" "$work/f.webp" --frames all --force --backend cpu
  run "convert vips" vips copy "$work/anim.gif[n=-1]" "$work/v.webp[Q=80]"
  run "convert gif2webp" gif2webp -quiet -lossy -q 80 "$work/anim.gif" -o "$work/g.webp"
  run "half filterrun" $bin "$work/half.json" "$work/anim.gif" "$work/fh.webp" --frames all --force --backend cpu
  run "half vipsthumbnail" vipsthumbnail "$work/anim.gif[n=-1]" -s 320x -o "$work/vh.webp[Q=80]"
  run "gif filterrun" $bin "$work/copy.json" "$work/anim.gif" "$work/f.gif" --frames all --force --backend cpu
  run "gif vips" vips copy "$work/anim.gif[n=-1]" "$work/v.gif"
done
echo "$count frames of 640×360 ($(stat -c %s "$work/anim.gif") bytes of GIF), medians of $runs runs"
echo "| work | tool | s | peak MiB | output bytes |"
echo "|---|---|---|---|---|"
for key in "convert filterrun" "convert vips" "convert gif2webp" "half filterrun" "half vipsthumbnail" "gif filterrun" "gif vips"; do
  t=$(tr ' ' '\n' <<< "${T[$key]:-}" | grep . | median); m=$(tr ' ' '\n' <<< "${M[$key]:-}" | grep . | median)
  case $key in "convert filterrun") o=f.webp;; "convert vips") o=v.webp;; "convert gif2webp") o=g.webp;; "half filterrun") o=fh.webp;;
    "half vipsthumbnail") o=vh.webp;; "gif filterrun") o=f.gif;; *) o=v.gif;; esac
  printf "| %s | %s | %s | %d | %s |\n" "${key%% *}" "${key#* }" "$t" $((m / 1024)) "$(stat -c %s "$work/$o" 2>/dev/null)"
done
