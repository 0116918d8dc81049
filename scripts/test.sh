#!/usr/bin/env bash
# Installs what the tests need and runs the whole suite (Vulkan tests run on whatever device is usable,
# Mesa's lavapipe on machines without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
