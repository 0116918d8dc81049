#!/usr/bin/env bash
# Installs what the tests need and runs the whole suite (Vulkan tests run on whatever device is usable,
# Mesa's lavapipe on machines without a GPU), then builds and runs Examples/Consumer, a package that depends on the
# library by path with the README's first Swift listing, as a new user would; checks the public API listing
# (docs/API.txt) and builds the DocC documentation. Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
FILTERRECIPE_TEST_DEPS=1 bash scripts/install-deps.sh
# schemathesis checks filterserve against docs/openapi.yaml and Selenium drives the playground in chromium
# (LiveServerTests); both from PyPI, in a venv kept per user for these versions (a fresh clone links it rather than
# spending 22 s making it again) as .build/test-venv, where the tests look.
requirements=("schemathesis==4.32.5" "selenium==4.27.1")
venv="${XDG_CACHE_HOME:-$HOME/.cache}/filterrecipe/test-venv-$(echo "${requirements[*]}" | sha256sum | cut -c1-12)"
if [ ! -x "$venv/bin/schemathesis" ] || ! ls -d "$venv"/lib/python3*/site-packages/selenium >/dev/null 2>&1; then
    rm -rf "$venv"; mkdir -p "$(dirname "$venv")"
    { python3 -m venv "$venv" && "$venv/bin/pip" install -q "${requirements[@]}"; } \
        || echo "schemathesis or selenium could not be installed: their tests will be skipped" >&2
fi
mkdir -p .build && rm -rf .build/test-venv && ln -s "$venv" .build/test-venv
# Every Vulkan test runs under Khronos validation (core and synchronization); any message fails the test that caused it
# (the Vulkan backend's tests run a second time under GPU-assisted validation, below).
export FILTERRUN_VULKAN_VALIDATION=1
swift build --build-tests
root=$PWD
scratch=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$scratch"' EXIT
status=0
if [ "$#" -gt 0 ]; then
    swift test --skip-build "$@" 2>&1 | tee "$scratch/test.log" || status=1
else
    # The whole suite runs the test bundle itself, in two processes at once: alone it keeps less than one core
    # busy (342 s of CPU in 365 s), as much of it waits on the filterrun and filterserve processes it starts. Those
    # two modules' tests run beside all the others (`swift test` would hold SwiftPM's lock on .build for each).
    xctest="$(swift build --show-bin-path)/FilterRecipePackageTests.xctest"
    tests=$("$xctest" --list-tests 2>/dev/null | grep -E '^[A-Za-z]+Tests\.[A-Za-z]+/' | cut -d/ -f1 | sort -u)
    spawning=$(grep -E '^(filterrunTests|FilterServeTests)\.' <<<"$tests" | paste -sd, -)
    others=$(grep -vE '^(filterrunTests|FilterServeTests)\.' <<<"$tests" | paste -sd, -)
    vulkan=$(grep -E '^VulkanBackendTests\.' <<<"$tests" | paste -sd, -)
    "$xctest" "$spawning" >"$scratch/spawning.log" 2>&1 &
    spawner=$!
    "$xctest" "$others" 2>&1 | tee "$scratch/others.log" || status=1
    wait "$spawner" || status=1
    cat "$scratch/spawning.log"
    # The Vulkan backend's tests once more under GPU-assisted validation: every kernel is instrumented to report
    # any buffer access out of bounds, with robustBufferAccess off so that nothing is hidden. It runs beside the
    # checks below, which build but start nothing these tests run.
    FILTERRUN_VULKAN_VALIDATION=gpu-assisted "$xctest" "$vulkan" >"$scratch/gpuav.log" 2>&1 &
    assisted=$!
fi
bash scripts/api-listing.sh --check || status=1
# No declaration of the last release removed or changed (deprecations keep them): docs/api/VERSION.txt.
bash scripts/api-compat.sh || status=1
# The DocC catalog builds without a warning (every symbol link resolves); its listings are compiled by the suite.
if swift package generate-documentation --target FilterRecipe --warnings-as-errors >"$scratch/docc.log" 2>&1; then
    echo "DocC: documentation for FilterRecipe generated"
else
    tail -20 "$scratch/docc.log"; echo "DocC: generate-documentation failed" >&2; status=1
fi
# Built as Swift's plain debug build (FILTERRECIPE_DEBUG_UNOPTIMIZED=1): 67 s from cold instead of 156 s with the
# library optimized, and the one thumbnail it renders still takes 0.13 s; the suite's own build compiles the library
# optimized, so both ways are compiled on every run.
# Its saved build plan is dropped first (1 s to make again): SwiftPM reuses it when only a path dependency's files
# changed, and a source file added to the library since the last run would go unbuilt ("cannot find … in scope").
rm -f Examples/Consumer/.build/debug/description.json
(cd Examples/Consumer && FILTERRECIPE_DEBUG_UNOPTIMIZED=1 swift build)
# Depending on the library alone (the trait "Server" off) resolves none of the service's packages.
resolved=$(cd Examples/Consumer && swift package show-dependencies --format flatlist 2>/dev/null)
if grep -qiE 'hummingbird|swift-nio|swift-crypto|prometheus|async-http-client|swift-log' <<<"$resolved"; then
    echo "Examples/Consumer resolves server packages: $(tr '\n' ' ' <<<"$resolved")" >&2; status=1
else
    echo "Examples/Consumer: the library alone resolves $(grep -c . <<<"$resolved") packages, none of the service's"
fi
ln -s "$root/samples" "$scratch/samples"
(cd "$scratch" && "$root/Examples/Consumer/.build/debug/Consumer")
test -s "$scratch/thumb.jpg"
echo "Examples/Consumer: the README's listing built and rendered thumb.jpg"
if [ "$#" -eq 0 ]; then
    if wait "$assisted"; then
        echo "GPU-assisted validation: $(grep -E "Executed [0-9]+ tests?" "$scratch/gpuav.log" | tail -1 | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/') Vulkan tests, no message"
    else
        grep -E "error|failed" "$scratch/gpuav.log" | head -20; echo "GPU-assisted validation: failed" >&2; status=1
    fi
fi
# XCTest's closing line, one a process: "Executed N tests, with M failures", or "… with K tests skipped and M
# failures" when a test skips itself (the peer-decoder check needs Pillow or vips).
for log in "$scratch"/test.log "$scratch"/others.log "$scratch"/spawning.log; do
    [ -f "$log" ] || continue
    grep -E "Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$log" | tail -1
done | sed -E 's/.*Executed ([0-9]+) tests?, with (([0-9]+) tests? skipped and )?([0-9]+) failures?.*/\1 \4 \3/' \
    | awk '{ run += $1; failed += $2; skipped += $3 } END { printf "%d passed, %d failed, %d skipped\n", run - failed - skipped, failed, skipped }'
exit "$status"
