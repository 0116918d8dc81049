#!/usr/bin/env bash
# filterrun beside libvips (pyvips, a lazy sequential pipeline), Pillow, OpenCV and ImageMagick on the peers' pipelines
# P1 (brightness, contrast, saturation, gamma), P2 (Gaussian σ3), P3 (25 % Lanczos-3), P4 (unsharp σ2 ×1), P5 (a
# five-step chain: 50 % Lanczos-3, blur σ1, unsharp σ1 ×0.5, saturation 1.2, tone curve) and P6 (Sobel magnitude; not
# ImageMagick), on 8-bit sRGB values, every tool writing PNG at zlib 6
# with adaptive filters. Runs alternate between tools, RUNS times (default 5); reports median wall time and peak RSS
# end to end (GNU time), the filter-only time where the tool reports one, and the PSNR of filterrun's output against
# each peer's. Installs the peers itself (apt: imagemagick, libvips42; pip into .build/peers-venv: pillow,
# opencv-python-headless, numpy, pyvips) and skips, saying so, any that cannot be installed.
# Usage: scripts/compare-peers.sh IMAGE
set -uo pipefail
cd "$(dirname "$0")/.."
image=$1; runs=${RUNS:-5}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"

# Peers.
dpkg -s imagemagick libvips42 >/dev/null 2>&1 || { $sudo apt-get update -qq && $sudo apt-get install -y -qq imagemagick libvips42 >/dev/null; } || true
venv=.build/peers-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv" || true
py="$venv/bin/python"
for pkg in pillow opencv-python-headless numpy pyvips; do
  "$py" -m pip install -q "$pkg" >/dev/null 2>&1 || echo "skipping the peers that need $pkg: pip could not install it" >&2
done
tools=(filterrun)
"$py" -c "import PIL" 2>/dev/null && tools+=(pillow) || echo "Pillow unavailable: skipped" >&2
"$py" -c "import cv2" 2>/dev/null && tools+=(opencv) || echo "OpenCV unavailable: skipped" >&2
"$py" -c "import pyvips; pyvips.Image.black(1, 1)" 2>/dev/null && tools+=(pyvips) || echo "pyvips unavailable: skipped" >&2
[ -x /usr/bin/convert ] && tools+=(imagemagick) || echo "ImageMagick unavailable: skipped" >&2
swift build -c release --product filterrun >/dev/null

recipe() { case $1 in P1) echo bench/p1-colour.json;; P2) echo bench/p2-gaussian.json;; P3) echo bench/p3-resize.json;;
                      P4) echo bench/p4-unsharp.json;; P5) echo bench/p5-chain.json;; P6) echo bench/p6-sobel.json;; esac; }
sat13="$(python3 -c "w=(0.299,0.587,0.114); print(' '.join('%.6f' % ((1-1.3)*w[j] + (1.3 if i == j else 0)) for i in range(3) for j in range(3)))")"
sat12="$(python3 -c "w=(0.299,0.587,0.114); print(' '.join('%.6f' % ((1-1.2)*w[j] + (1.2 if i == j else 0)) for i in range(3) for j in range(3)))")"
magick_args() { case $1 in P1) echo "-evaluate multiply 1.1 -function polynomial 1.2,-0.1 -color-matrix '$sat13' -gamma 1.2";; P2) echo "-blur 0x3";; P3) echo "-filter Lanczos -resize 25%";; P4) echo "-unsharp 0x2+1+0";;
                            P5) echo "-filter Lanczos -resize 50% -blur 0x1 -unsharp 0x1+0.5+0 -color-matrix '$sat12' -function polynomial -1,1.5,0.5,0";; esac; }
run_tool() {  # tool pipeline output → prints "wall rss filter"
  local tool=$1 p=$2 out=$3 filter=""
  case $tool in
    filterrun) /usr/bin/time -f "%e %M" -o "$work/t" .build/release/filterrun "$(recipe "$p")" "$image" "$out" --force \
                 --backend cpu --compression 6 --filter all --stats=json 2>"$work/err" >/dev/null
               filter=$(tail -1 "$work/err" | "$py" -c "import json,sys; print(json.loads(sys.stdin.read())['filterSeconds'])" 2>/dev/null);;
    imagemagick) eval /usr/bin/time -f "'%e %M'" -o "$work/t" /usr/bin/convert "'$image'" $(magick_args "$p") -quality 65 "'$out'" 2>/dev/null;;
    *) /usr/bin/time -f "%e %M" -o "$work/t" "$py" scripts/peers/pipelines.py "$tool" "$p" "$image" "$out" 2>"$work/err"
       filter=$(tail -1 "$work/err" | "$py" -c "import json,sys; f=json.loads(sys.stdin.read())['filter']; print('' if f is None else f)" 2>/dev/null);;
  esac
  read -r wall rss < "$work/t"
  echo "$wall $rss ${filter:-}"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }

echo "image: $image; $(nproc) cores; runs: $runs, alternating tools; zlib 6 + adaptive filters for every tool"
echo
echo "| pipeline | tool | wall s | peak RSS MiB | output MiB | filter-only s | PSNR vs filterrun dB |"
echo "|---|---|---|---|---|---|---|"
for p in ${PIPELINES:-P1 P2 P3 P4 P5 P6}; do
  for i in $(seq 0 "$runs"); do
    for tool in "${tools[@]}"; do
      [ "$tool" = imagemagick ] && [ "$p" = P6 ] && continue   # its Sobel needs four clipped half-kernels (see ../shared/peers)
      result=$(run_tool "$tool" "$p" "$work/$tool-$p.png")
      [ "$i" -gt 0 ] && echo "$result" >> "$work/$tool-$p.runs"   # run 0 warms the caches
    done
  done
  for tool in "${tools[@]}"; do
    f="$work/$tool-$p.runs"
    [ -s "$f" ] || continue
    wall=$(cut -d' ' -f1 "$f" | median); rss=$(cut -d' ' -f2 "$f" | median)
    filter=$(cut -d' ' -f3 "$f" | grep . | median); [ -n "$filter" ] && filter=$(printf "%.3f" "$filter")
    psnr="—"
    [ "$tool" != filterrun ] && psnr=$("$py" scripts/peers/pipelines.py psnr "$work/filterrun-$p.png" "$work/$tool-$p.png" 2>/dev/null \
      | "$py" -c "import json,sys; v=json.loads(sys.stdin.read()); print('size differs' if v is None else ('identical' if v == float('inf') else '%.1f' % v))")
    size=$(stat -c %s "$work/$tool-$p.png" | awk '{printf "%.1f", $1 / 1048576}')
    echo "| $p | $tool | $wall | $((rss / 1024)) | $size | ${filter:-—} | $psnr |"
  done
done
