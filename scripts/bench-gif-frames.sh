#!/usr/bin/env bash
# An animation whose background stands still: 100 frames of 640×360 (a photo, a red disc moving across it), each
# frame quantised by Pillow to its own 256 colours, 40 ms a frame — copied to an animated GIF by filterrun (`--frames
# all`, an empty recipe) and by vips (gifsave: cgif and libimagequant); the binaries named in BINARIES (default
# .build/release/filterrun) in turn. Medians of RUNS (default 3) alternating runs: wall time, peak RSS (GNU time),
# output bytes, and the PSNR of frames 1, 50 and 99 against the source's (Pillow composes both).
# Usage: scripts/bench-gif-frames.sh PHOTO.png (the shared kleiber photo); needs vips and python3-pil.
set -uo pipefail
cd "$(dirname "$0")/.."
photo=$1; runs=${RUNS:-3}; binaries=${BINARIES:-.build/release/filterrun}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$photo" "$work/in.gif" <<'PY'
import sys
from PIL import Image, ImageDraw
im = Image.open(sys.argv[1]).convert("RGB").resize((640, 360))
frames = []
for i in range(100):
    f = im.copy(); x = 20 + i * 5
    ImageDraw.Draw(f).ellipse([x, 150, x + 48, 198], fill=(230, 40, 30))
    frames.append(f.quantize(256))
frames[0].save(sys.argv[2], save_all=True, append_images=frames[1:], duration=40, loop=0, optimize=False)
PY
echo '{"version": 1, "steps": []}' > "$work/empty.json"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| tool | s | peak MiB | output bytes | PSNR frames 1, 50, 99 (dB) |"
echo "|---|---|---|---|---|"
for tool in $binaries vips; do
  times=""; peaks=""
  for _ in $(seq "$runs"); do
    began=$EPOCHREALTIME
    if [ "$tool" = vips ]; then /usr/bin/time -f "%M" -o "$work/m" vips copy "$work/in.gif[n=-1]" "$work/out.gif" 2>/dev/null
    else /usr/bin/time -f "%M" -o "$work/m" "$tool" "$work/empty.json" "$work/in.gif" "$work/out.gif" --frames all --force --backend cpu >/dev/null 2>&1; fi
    times+="$(python3 -c "print(f'{$EPOCHREALTIME - $began:.3f}')") "; peaks+="$(cat "$work/m") "
  done
  psnr=$(/usr/bin/python3 - "$work/in.gif" "$work/out.gif" <<'PY'
import math, sys
from PIL import Image
a, b = Image.open(sys.argv[1]), Image.open(sys.argv[2]); out = []
for i in (1, 50, 99):
    a.seek(i); b.seek(i); x, y = a.convert("RGB").tobytes(), b.convert("RGB").tobytes()
    mse = sum((p - q) ** 2 for p, q in zip(x, y)) / len(x)
    out.append("inf" if mse == 0 else f"{10 * math.log10(255 * 255 / mse):.1f}")
print(", ".join(out))
PY
)
  echo "| $tool | $(printf '%s\n' $times | median) | $(( $(printf '%s\n' $peaks | median) / 1024 )) | $(stat -c %s "$work/out.gif") | $psnr |"
done
