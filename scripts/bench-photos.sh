#!/usr/bin/env bash
# The real photos of 12–20 MP the peer benchmarks use, from Debian's wallpaper packages (downloaded with
# `apt-get download`, no root needed), written as quality-92 JPEGs by OpenCV (as the smaller photos in
# ../shared/testdata were for earlier tables) so every photo enters with the same encoder settings:
#   kleiber   6028×3391 (20.4 MP)  Kleiber_by_Lukas_Baubkus.jpg     lomiri-wallpapers-20.04   (see its copyright file)
#   seeding   5312×2988 (15.9 MP)  seeding_by_Clements_Engelhardt  lomiri-wallpapers-16.04   CC0-1.0
#   dragonfly 4224×3168 (13.4 MP)  Dragonfly_by_Bolly             lomiri-wallpapers-16.04   CC-BY-SA-4.0, "Bolly"
# Prints the paths, one per line. Usage: scripts/bench-photos.sh [DIR]   (default .build/bench-photos)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.build/bench-photos}
mkdir -p "$dir"
py=.build/peers-venv/bin/python
[ -x "$py" ] || { python3 -m venv .build/peers-venv && "$py" -m pip install -q opencv-python-headless numpy >/dev/null; }
"$py" -c "import cv2" 2>/dev/null || "$py" -m pip install -q opencv-python-headless numpy >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
make() {  # package, file in /usr/share/backgrounds, name
  local out="$dir/$3.jpg" part="$dir/.$3.part.jpg"
  if [ ! -s "$out" ]; then
    ls "$work/$1"_*.deb >/dev/null 2>&1 || (cd "$work" && apt-get download -q "$1" >/dev/null)
    dpkg-deb -x "$work/$1"_*.deb "$work/x"
    "$py" -c "import cv2, sys; sys.exit(not cv2.imwrite(sys.argv[2], cv2.imread(sys.argv[1]), [cv2.IMWRITE_JPEG_QUALITY, 92]))" \
      "$work/x/usr/share/backgrounds/$2" "$part"
    mv "$part" "$out"
  fi
  echo "$out"
}
make lomiri-wallpapers-20.04 Kleiber_by_Lukas_Baubkus.jpg kleiber
make lomiri-wallpapers-16.04 seeding_by_Clements_Engelhardt.jpg seeding
make lomiri-wallpapers-16.04 Dragonfly_by_Bolly.jpg dragonfly
