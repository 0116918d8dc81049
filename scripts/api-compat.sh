#!/usr/bin/env bash
# API stability: every declaration of the last release's public API (docs/api/VERSION.txt, the listing of
# scripts/api-listing.sh at that release's tag, vVERSION) is still declared, with the same signature — kept as it
# was or marked deprecated — in the current listing (docs/API.txt, which `api-listing.sh --check` has just checked
# is current). A declaration removed or changed is a break: deprecate it with @available(*, deprecated, renamed:)
# for one minor version instead. scripts/test.sh runs this after api-listing.sh --check.
# Releasing: raise FilterRecipeVersion.current, copy docs/API.txt to docs/api/NEW.txt and tag the commit vNEW.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=$(ls docs/api/*.txt | sort -V | tail -1)
release=$(basename "$baseline" .txt)
strip() { sed 's/  \[deprecated\]$//' "$1" | sort -u; }
missing=$(comm -23 <(strip "$baseline") <(strip docs/API.txt))
if [ -n "$missing" ]; then
  count=$(echo "$missing" | wc -l)
  echo "the public API of release $release lost or changed $count declaration(s) (deprecate instead of removing):" >&2
  echo "$missing" | head -40 >&2
  exit 1
fi
deprecated=$(grep -c "  \[deprecated\]$" docs/API.txt || true)
echo "API: every declaration of release $release is still there ($(wc -l < "$baseline") checked; $deprecated deprecated now)"
