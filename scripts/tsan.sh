#!/usr/bin/env bash
# Runs the concurrency tests under the thread sanitizer (a separate build directory, so the normal build is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "ConcurrencyTests"
