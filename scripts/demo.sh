#!/usr/bin/env bash
# Builds filterrun in release mode and runs a recipe from recipes/ on the sample photo shipped in samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product filterrun
out="${1:-${TMPDIR:-/tmp}/filterrecipe-demo.png}"
.build/release/filterrun recipes/web-thumbnail.json samples/coffee_600x400_rgb8.png "$out" --force --stats
echo "wrote $out"
