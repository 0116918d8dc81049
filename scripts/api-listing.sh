#!/usr/bin/env bash
# The library's public face, one declaration a line, from the compiler's symbol graphs: docs/API.txt. Changes to
# the public surface show in review as a diff of that file. `--check` fails when the checked-in file is stale
# (scripts/test.sh runs it); without it the file is rewritten.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1
swift build --product APIListing >/dev/null
listing=$("$(swift build --show-bin-path)/APIListing" "$(ls -d .build/*/symbolgraph | head -1)")
if [ "${1:-}" = "--check" ]; then
    if ! diff -u docs/API.txt <(echo "$listing") >/dev/null; then
        diff -u docs/API.txt <(echo "$listing") | head -40
        echo "docs/API.txt is stale: the public API changed; run scripts/api-listing.sh and review the diff" >&2
        exit 1
    fi
    echo "docs/API.txt: the public API is as listed ($(echo "$listing" | wc -l) declarations)"
else
    echo "$listing" > docs/API.txt
fi
