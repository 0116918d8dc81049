#!/usr/bin/env bash
# Builds filterrun in release mode and runs a recipe from recipes/ on the sample photo shipped in samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The tool links Swift's runtime statically; the linker's note on Foundation's own use of mktemp is not ours to act on.
swift build -c release --product filterrun 2>&1 | { grep -v "the use of \`mktemp' is dangerous" || true; }
out="${1:-${TMPDIR:-/tmp}/filterrecipe-demo.png}"
.build/release/filterrun recipes/web-thumbnail.json samples/coffee_600x400_rgb8.png "$out" --force --stats
echo "wrote $out"
