#!/usr/bin/env bash
# JPEG beside libvips and Pillow, on a 20 MP photo made a quality-90 JPEG (by filterrun, 4:4:4):
#   copy (decode + encode at quality 90), thumbnail to 400 px wide (filterrun's linear-light web-thumbnail and its
#   sRGB-space twin against vipsthumbnail and Pillow's draft mode), the same thumbnail of a sideways (Exif 6),
#   Adobe-RGB-tagged copy (4:4:4, and 4:2:0 as phones write), and a batch of COUNT (default 100) JPEG photos
#   (crops of 3.8–6 MP) to 400 px thumbnails.
# Medians of RUNS (default 5) alternating runs; wall time (ms) by the shell's clock, peak RSS by GNU time.
# Installs libvips-tools (apt) and Pillow (pip, into .build/peers-venv) itself and skips what it cannot install.
# Usage: scripts/bench-jpeg.sh PHOTO_20MP.png OTHER_PHOTO.png
set -uo pipefail
cd "$(dirname "$0")/.."
big=$1; other=$2; runs=${RUNS:-5}; count=${COUNT:-100}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
command -v vipsthumbnail >/dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq libvips-tools >/dev/null; } || true
venv=.build/peers-venv; [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"; "$py" -c "import PIL" 2>/dev/null || "$py" -m pip install -q pillow >/dev/null 2>&1 || true
swift build -c release --product filterrun >/dev/null
bin=.build/release/filterrun
none="$work/none.json"; echo '{"version":1,"steps":[]}' > "$none"
turn="$work/turn.json"; echo '{"version":1,"steps":[{"op":"rotate","degrees":270}]}' > "$turn"

# Inputs: the photo at quality 90; a sideways copy tagged Adobe RGB (stored turned, Exif orientation 6).
$bin "$none" "$big" "$work/k20.jpg" --quality 90 --force 2>/dev/null
$bin "$turn" "$big" "$work/side.jpg" --quality 90 --force --profile Tests/Fixtures/jpeg/compatibleWithAdobeRGB1998.icc 2>/dev/null
$bin "$turn" "$big" "$work/side420.jpg" --quality 90 --subsampling 420 --force --profile Tests/Fixtures/jpeg/compatibleWithAdobeRGB1998.icc 2>/dev/null
for sideways in "$work/side.jpg" "$work/side420.jpg"; do python3 - "$sideways" <<'PY'
import sys, struct
p = sys.argv[1]; d = open(p, 'rb').read()
tiff = b'II*\x00' + struct.pack('<I', 8) + struct.pack('<H', 1) + struct.pack('<HHIHH', 0x0112, 3, 1, 6, 0) + struct.pack('<I', 0)
app1 = b'Exif\x00\x00' + tiff
open(p, 'wb').write(d[:2] + b'\xff\xe1' + struct.pack('>H', len(app1) + 2) + app1 + d[2:])
PY
done
echo "input: $(basename "$big") as a quality-90 JPEG, $(( $(stat -c %s "$work/k20.jpg") / 1048576 )) MiB"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A T M
run() {  # key, command... (wall in milliseconds from the shell's clock around GNU time, which gives peak RSS)
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
pillow_copy="from PIL import Image; import sys; Image.open(sys.argv[1]).save(sys.argv[2], quality=90, subsampling=0)"
pillow_thumb="from PIL import Image; import sys
im = Image.open(sys.argv[1]); w, h = im.size; im.draft('RGB', (400, 400 * h // w))
im.thumbnail((400, 10**6), Image.LANCZOS); im.save(sys.argv[2], quality=90)"
for _ in $(seq "$runs"); do
  run copy-fr $bin "$none" "$work/k20.jpg" "$work/o.jpg" --force --quality 90 --backend cpu
  run copy-vips vips copy "$work/k20.jpg" "$work/o.jpg[Q=90]"
  run copy-pil "$py" -c "$pillow_copy" "$work/k20.jpg" "$work/o.jpg"
  run thumb-fr $bin recipes/web-thumbnail.json "$work/k20.jpg" "$work/t.jpg" --force --backend cpu
  run thumb-frs $bin recipes/web-thumbnail-srgb.json "$work/k20.jpg" "$work/t.jpg" --force --backend cpu
  run thumb-vips vipsthumbnail "$work/k20.jpg" -s 400x -o "$work/t.jpg[Q=90]"
  run thumb-pil "$py" -c "$pillow_thumb" "$work/k20.jpg" "$work/t.jpg"
  run side-fr $bin recipes/web-thumbnail.json "$work/side.jpg" "$work/s.jpg" --force --backend cpu
  run side-frs $bin recipes/web-thumbnail-srgb.json "$work/side.jpg" "$work/s.jpg" --force --backend cpu
  run side-vips vipsthumbnail "$work/side.jpg" -s 400x --export-profile srgb -o "$work/s.jpg[Q=90]"
  run phone-fr $bin recipes/web-thumbnail.json "$work/side420.jpg" "$work/s.jpg" --force --backend cpu
  run phone-frs $bin recipes/web-thumbnail-srgb.json "$work/side420.jpg" "$work/s.jpg" --force --backend cpu
  run phone-vips vipsthumbnail "$work/side420.jpg" -s 400x --export-profile srgb -o "$work/s.jpg[Q=90]"
done
echo; echo "| 20 MP JPEG, quality 90 | wall s | peak RSS MiB |"; echo "|---|---|---|"
report copy-fr "copy: filterrun (decode, encode q90)"; report copy-vips "copy: vips copy (Q=90)"; report copy-pil "copy: Pillow open + save (q90, 4:4:4)"
report thumb-fr "thumbnail 400 px: filterrun web-thumbnail (linear light)"; report thumb-frs "thumbnail 400 px: filterrun web-thumbnail-srgb"
report thumb-vips "thumbnail 400 px: vipsthumbnail -s 400x"; report thumb-pil "thumbnail 400 px: Pillow draft + thumbnail (Lanczos)"
report side-fr "sideways Adobe RGB: filterrun web-thumbnail"; report side-frs "sideways Adobe RGB: filterrun web-thumbnail-srgb"
report side-vips "sideways Adobe RGB: vipsthumbnail --export-profile srgb"
report phone-fr "sideways Adobe RGB 4:2:0: filterrun web-thumbnail"; report phone-frs "sideways Adobe RGB 4:2:0: filterrun web-thumbnail-srgb"
report phone-vips "sideways Adobe RGB 4:2:0: vipsthumbnail --export-profile srgb"
$bin "$none" "$work/s.jpg" "$work/s.png" --force 2>/dev/null
echo; echo "sideways check: filterrun's thumbnail is $(python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print('%dx%d' % struct.unpack('>II', d[16:24]))" "$work/s.png") (upright)"

# Batch: crops of two photos at staggered offsets, as quality-90 JPEGs.
mkdir -p "$work/in"
for i in $(seq 0 $((count - 1))); do
  if [ $((i % 2)) -eq 0 ]; then src=$big; w=3000; h=2000; else src=$other; w=2400; h=1600; fi
  echo "{\"version\":1,\"steps\":[{\"op\":\"crop\",\"x\":$(( (i * 37) % 800 )),\"y\":$(( (i * 53) % 500 )),\"width\":$w,\"height\":$h}]}" > "$work/c.json"
  $bin "$work/c.json" "$src" "$work/in/p$i.jpg" --quality 90 --force 2>/dev/null
done
echo; echo "batch: $count JPEGs, $(du -sh "$work/in" | cut -f1)"
batch() {  # label, command...
  local label=$1; shift; local times=() rss=()
  for _ in 1 2 3; do
    rm -rf "$work/out"; mkdir -p "$work/out"
    /usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null 2>&1 || { echo "| $label | failed | | |"; return; }
    read -r t m < "$work/t"; times+=("$t"); rss+=("$m")
  done
  local t; t=$(printf '%s\n' "${times[@]}" | median)
  echo "| $label | $t | $(python3 -c "print(round($count / $t, 1))") | $(( $(printf '%s\n' "${rss[@]}" | median) / 1024 )) |"
}
echo "| batch to 400 px (median of 3) | wall s | images/s | peak RSS MiB |"; echo "|---|---|---|---|"
batch "filterrun batch web-thumbnail-srgb --jobs 2" $bin recipes/web-thumbnail-srgb.json "$work/in" "$work/out" --jobs 2 --quiet --backend cpu
batch "filterrun batch web-thumbnail --jobs 2" $bin recipes/web-thumbnail.json "$work/in" "$work/out" --jobs 2 --quiet --backend cpu
batch "vipsthumbnail, one process for all files" bash -c "vipsthumbnail '$work'/in/*.jpg -s 400x -o '$work/out/%s.jpg[Q=90]'"
batch "vipsthumbnail per file, shell loop" bash -c "for f in '$work'/in/*.jpg; do vipsthumbnail \"\$f\" -s 400x -o '$work/out/%s.jpg[Q=90]'; done"
