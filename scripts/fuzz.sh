#!/usr/bin/env bash
# Fuzzes the recipe decoder (with lowering and the optimizer) and the PNG and JPEG decoders with libFuzzer for a
# bounded time. Seeds: recipes/, the PngSuite fixtures and the JPEG fixtures. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] (default 60).
# Crashing inputs land in .build/fuzz/crashes-TARGET/; each one found becomes a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld 2>&1 | grep -E "error|warning: unre" || true)
(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld >/dev/null 2>&1) \
  || { echo "the fuzz targets did not build (a stale Fuzz/.build? remove it)" >&2; exit 1; }
bin="$(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld --show-bin-path)"
work=.build/fuzz
mkdir -p "$work/corpus-recipe" "$work/corpus-png" "$work/corpus-jpeg" "$work/crashes-recipe" "$work/crashes-png" "$work/crashes-jpeg"
cp recipes/*.json bench/*.json "$work/corpus-recipe/" 2>/dev/null || true
cp Tests/Fixtures/pngsuite/*.png "$work/corpus-png/"
cp Tests/Fixtures/jpeg/*.jpg "$work/corpus-jpeg/"
run() {  # target corpus crashes extra-flags...
    local target=$1 corpus=$2 crashes=$3; shift 3
    # -timeout=10: an input that takes longer is reported (and saved) as a slow-input failure.
    "$bin/$target" "$corpus" -max_total_time="$seconds" -timeout=10 -artifact_prefix="$crashes/" -print_final_stats=1 "$@" 2>&1 \
        | grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+[[:space:]]+DONE|ERROR|SUMMARY|timeout" || true
}
echo "== FuzzRecipe ($seconds s)"
run FuzzRecipe "$work/corpus-recipe" "$work/crashes-recipe" -max_len=4096 -dict=Fuzz/recipe.dict
echo "== FuzzPNG ($seconds s)"
run FuzzPNG "$work/corpus-png" "$work/crashes-png" -max_len=65536
echo "== FuzzJPEG ($seconds s)"
run FuzzJPEG "$work/corpus-jpeg" "$work/crashes-jpeg" -max_len=65536
echo "crashes: $(ls "$work/crashes-recipe" "$work/crashes-png" "$work/crashes-jpeg" | grep -c -v '^$\|:$' || true)"
