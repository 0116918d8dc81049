#!/usr/bin/env bash
# The bundle for a lent GPU machine (no Swift, no package registry): ../shared/gpu/prepare.sh makes it (the Vulkan
# loader's and libpng's Debian packages, release builds with the Swift runtime linked in statically); this adds the
# shared libraries the executables have linked since JPEG and colour management came in — libjpeg62-turbo and
# liblcms2-2, unpacked beside libpng by prepare.sh's instructions — and then checks that every library the
# executables need is in the bundle or in the base system every Debian machine has; strips and compresses the
# executables so that everything travels within the device tool's 64 MiB, and says how to unpack them there.
# Usage: scripts/gpu-bundle.sh [PREPARE_SCRIPT]   (default ../shared/gpu/prepare.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bash "${1:-../shared/gpu/prepare.sh}"
lists=$(mktemp -d); trap 'rm -rf "$lists"' EXIT
mkdir -p "$lists/partial" "$lists/unpacked"
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
apt-get $o update >/dev/null
(cd .gl-extra && apt-get $o download libjpeg62-turbo liblcms2-2 >/dev/null)
for f in .gl-extra/*.deb .gl/*.deb; do dpkg -x "$f" "$lists/unpacked"; done
base='^(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|libz|ld-linux-x86-64)\.so'
missing=0
for exe in .gpu-bin/*; do
  for lib in $(objdump -p "$exe" | awk '/NEEDED/ {print $2}'); do
    [[ $lib =~ $base ]] && continue
    if ! find "$lists/unpacked" -name "$lib" | grep -q .; then echo "$exe needs $lib, which the bundle lacks" >&2; missing=1; fi
  done
done
[ "$missing" -eq 0 ] || exit 1
echo "every library the executables need is in the bundle or the base system"

# What travels to the device (the working tree and the carried folders) may not pass 64 MiB, and the static-runtime
# executables are ~90 MB each: they travel stripped and xz-compressed (~17 MB each), unpacked there by Python's lzma
# (the device has python3; nothing can be installed there).
for exe in .gpu-bin/*; do
  [[ $exe == *.xz ]] && continue
  strip "$exe" && xz -T0 -6 -f "$exe"
done
tree=$(git ls-files -z --cached --others --exclude-standard | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
carried=$(du -cb .gl .gl-extra .gpu-bin | tail -1 | cut -f1)
total=$(( (tree + carried) / 1048576 ))
echo "travels: the working tree $(( tree / 1048576 )) MiB + .gl, .gl-extra, .gpu-bin $(( carried / 1048576 )) MiB = $total MiB (limit 64)"
[ "$total" -lt 64 ] || { echo "too large to travel: carry less" >&2; exit 1; }
cat <<'MSG'
On the GPU machine (carry .gl, .gl-extra and .gpu-bin), begin every command with:
  for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
  mkdir -p /opt/fr; for f in .gl-extra/*.deb; do dpkg -x $f /opt/fr; done
  export LD_LIBRARY_PATH=/opt/fr/usr/lib/x86_64-linux-gnu VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  mkdir -p /tmp/fr && python3 -c 'import lzma, os, shutil, sys
for f in sys.argv[1:]:
    out = "/tmp/fr/" + os.path.basename(f)[:-3]
    with lzma.open(f) as i, open(out, "wb") as o: shutil.copyfileobj(i, o)
    os.chmod(out, 0o755)' .gpu-bin/*.xz
then run /tmp/fr/filterbench --gpu PHOTO ... (it finds /tmp/fr/filterrun beside it) or /tmp/fr/filterrun.
MSG
