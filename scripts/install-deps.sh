#!/usr/bin/env bash
# Installs the system packages FilterRecipe builds and tests with, when any is missing (Debian/Ubuntu).
set -euo pipefail
packages=(libvulkan-dev glslang-dev glslang-tools mesa-vulkan-drivers libpng-dev libjpeg62-turbo-dev liblcms2-dev libwebp-dev libtiff-dev libheif-dev libde265-dev libgif-dev libjxl-dev libimagequant-dev libavif-dev libcurl4-openssl-dev libssl-dev pkg-config libpangocairo-1.0-0 fonts-dejavu-core)
# filterserve fetches origins with libcurl and signs URLs with libcrypto (OpenSSL).
# The test suite runs the Vulkan tests under Khronos validation.
# dwebp, webpmux (the webp package) and tiffcp (libtiff-tools) are the independent tools the codecs' tests use;
# djxl/cjxl (libjxl-tools), heif-convert and heif-enc (libheif-examples) decode and encode HEIC/AVIF independently of our code;
# Debian's Pillow (python3-pil) reads GIFs independently of giflib;
# ffmpeg's lut3d filter is the independent .cube implementation the LUT tests compare with.
# ExifTool (libimage-exiftool-perl) reads the EXIF and XMP the metadata tests write.
# Text is loaded at run time from libpangoft2, and libpangocairo for the fonts it cannot draw (no headers needed to
# build); pango-view (pango1.0-tools) is the independent renderer the text tests compare with, Lohit Devanagari and
# Droid Sans Fallback (CJK) the fonts its multi-script string falls back to beside DejaVu (Latin, Arabic), and the
# two whose bold fontconfig synthesises; Noto Color Emoji the colour font.
# chromium and chromium-driver run filterserve's playground in a real browser (Selenium, from PyPI, drives them).
if [ "${FILTERRECIPE_TEST_DEPS:-0}" = 1 ]; then packages+=(vulkan-validationlayers webp libtiff-tools libheif-examples libjxl-tools python3-pil ffmpeg libimage-exiftool-perl pango1.0-tools fonts-lohit-deva fonts-droid-fallback fonts-noto-color-emoji python3-venv chromium chromium-driver); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
