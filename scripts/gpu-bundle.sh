#!/usr/bin/env bash
# The bundle for a lent GPU machine, which has no Swift toolchain and no package registry, and whose distribution
# differs from this one. It holds, in folders .git/info/exclude ignores (so they travel only when carried):
#   .gpu-bin/   filterrun and filterbench, release builds with the Swift runtime linked in statically and the
#               relocations unpacked (FILTERRECIPE_PORTABLE: that machine's glibc may predate 2.36), stripped and
#               xz-compressed (the device tool carries 64 MiB; unpacked there by Python's lzma)
#   .gpu-lib/   every shared library they load that is not in the base C runtime, copied from this machine as ldd
#               resolves them (libpng, libjpeg, lcms, libtiff and its codecs, libwebp, giflib), the Vulkan loader and glvnd
#   .gpu-data/  the photos given as arguments (JPEG travels small; scripts/gpu-checks.sh makes the PNGs it needs)
# Then scripts/gpu-checks.sh runs there (see its header for the call).
# Usage: scripts/gpu-bundle.sh PHOTO.jpg...
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: scripts/gpu-bundle.sh PHOTO.jpg..." >&2; exit 2; }
for d in /.gpu-bin/ /.gpu-lib/ /.gpu-data/; do grep -qx "$d" .git/info/exclude 2>/dev/null || echo "$d" >> .git/info/exclude; done
FILTERRECIPE_PORTABLE=1 swift build -c release --static-swift-stdlib --scratch-path .build-gpu --product filterrun
FILTERRECIPE_PORTABLE=1 swift build -c release --static-swift-stdlib --scratch-path .build-gpu --product filterbench
rm -rf .gpu-bin .gpu-lib .gpu-data && mkdir -p .gpu-bin .gpu-lib .gpu-data
base='^(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux-x86-64)\.so'
for exe in filterrun filterbench; do
  cp .build-gpu/release/$exe .gpu-bin/
  ldd .gpu-bin/$exe | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
    [[ $name =~ $base ]] || cp -L "$path" ".gpu-lib/$name"
  done
  strip .gpu-bin/$exe && xz -T0 -6 -f .gpu-bin/$exe
done
# The Vulkan loader, and libglvnd with what it loads: NVIDIA's Vulkan driver lives in libGLX_nvidia.so.0, which
# answers the loader only when glvnd's dispatch libraries are present (the machine's image has the driver, not glvnd).
# libtiff is loaded on first use (dlopen), so ldd does not name it: carried the same way.
for lib in libvulkan.so.1 libGLdispatch.so.0 libGLX.so.0 libEGL.so.1 libOpenGL.so.0 libGL.so.1 libtiff.so.6; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
  cp -L "$path" ".gpu-lib/$lib"
  ldd "$path" | awk '$3 ~ /^\// {print $1, $3}' | while read -r name dep; do
    [[ $name =~ $base ]] || cp -L "$dep" ".gpu-lib/$name"
  done
done
cp "$@" .gpu-data/
tree=$(git ls-files -z --cached --others --exclude-standard | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
carried=$(du -cb .gpu-bin .gpu-lib .gpu-data | tail -1 | cut -f1)
total=$(( (tree + carried) / 1048576 ))
echo "travels: the working tree $(( tree / 1048576 )) MiB + .gpu-bin, .gpu-lib, .gpu-data $(( carried / 1048576 )) MiB = $total MiB (limit 64)"
[ "$total" -lt 64 ] || { echo "too large to travel: carry fewer photos" >&2; exit 1; }
echo "on the GPU machine, carrying .gpu-bin .gpu-lib .gpu-data: bash scripts/gpu-checks.sh"
