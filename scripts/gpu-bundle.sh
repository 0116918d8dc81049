#!/usr/bin/env bash
# The bundle for a lent GPU machine (no Swift, no package registry): ../shared/gpu/prepare.sh makes it (the Vulkan
# loader's and libpng's Debian packages, release builds with the Swift runtime linked in statically); this adds the
# shared libraries the executables have linked since JPEG and colour management came in — libjpeg62-turbo and
# liblcms2-2, unpacked beside libpng by prepare.sh's instructions — and then checks that every library the
# executables need is in the bundle or in the base system every Debian machine has.
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
[ "$missing" -eq 0 ] && echo "every library the executables need is in the bundle or the base system"
exit "$missing"
