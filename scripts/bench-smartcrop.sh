#!/usr/bin/env bash
# Smart crops beside libvips: for each photo, box and strategy, the window filterrun's resize (fit cover, position
# attention|entropy) keeps and the one `vips smartcrop` keeps on the image scaled to cover the box, compared by
# intersection over union. Usage: scripts/bench-smartcrop.sh PHOTO... (needs libvips-tools; a release build of
# filterrun at .build/release/filterrun, or FILTERRUN=path).
set -euo pipefail
cd "$(dirname "$0")/.."
FILTERRUN=${FILTERRUN:-.build/release/filterrun}
command -v vips >/dev/null || { echo "needs vips (apt-get install libvips-tools)" >&2; exit 1; }
[ -x "$FILTERRUN" ] || swift build -c release --product filterrun >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf '| photo | box | strategy | filterrun window | vips window | IoU |\n|---|---|---|---|---|---|\n'
for photo in "$@"; do
  w=$(vipsheader -f width "$photo"); h=$(vipsheader -f height "$photo")
  for box in 256x256 400x225 225x400 320x400; do
    bw=${box%x*}; bh=${box#*x}
    for strategy in attention entropy; do
      printf '{"version": 1, "steps": [{"op": "resize", "width": %d, "height": %d, "fit": "cover", "position": "%s"}]}' \
        "$bw" "$bh" "$strategy" > "$work/r.json"
      line=$("$FILTERRUN" "$work/r.json" "$photo" "$work/out.png" --force --explain 2>&1 | grep -m1 "keeps the" || true)
      [ -n "$line" ] || continue  # the image has the box's aspect: nothing to choose
      ours=$(sed -E 's/.*window at \(([0-9]+), ([0-9]+)\) of the ([0-9]+)×([0-9]+) scaled.*/\1 \2 \3 \4/' <<<"$line")
      read -r ox oy sw sh <<<"$ours"
      scale=$(python3 -c "print(max($bw/$w, $bh/$h))")
      vips resize "$photo" "$work/s.v" "$scale"
      vw=$(vipsheader -f width "$work/s.v"); vh=$(vipsheader -f height "$work/s.v")
      vips smartcrop "$work/s.v" "$work/c.v" $((bw < vw ? bw : vw)) $((bh < vh ? bh : vh)) --interesting "$strategy"
      vx=$(( -$(vipsheader -f xoffset "$work/c.v") )); vy=$(( -$(vipsheader -f yoffset "$work/c.v") ))
      python3 - "$photo" "$box" "$strategy" "$ox" "$oy" "$sw" "$sh" "$vx" "$vy" "$vw" "$vh" "$bw" "$bh" <<'PY'
import os, sys
photo, box, strategy = sys.argv[1:4]
ox, oy, sw, sh, vx, vy, vw, vh, bw, bh = map(int, sys.argv[4:])
# Both windows in the filterrun scaled image's coordinates (the scaled sizes may differ by a pixel of rounding).
vx, vy = vx * sw / vw, vy * sh / vh
ix = max(0, min(ox + bw, vx + bw) - max(ox, vx)); iy = max(0, min(oy + bh, vy + bh) - max(oy, vy))
inter = ix * iy; iou = inter / (2 * bw * bh - inter)
print(f"| {os.path.basename(photo)} | {box} | {strategy} | ({ox}, {oy}) of {sw}×{sh} | ({vx:.0f}, {vy:.0f}) of {vw}×{vh} | {iou:.2f} |")
PY
    done
  done
done
