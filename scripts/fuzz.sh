#!/usr/bin/env bash
# Fuzzes the recipe decoder (with lowering and the optimizer) and the PNG, JPEG, WebP, TIFF, HEIF (HEIC/AVIF), AVIF sequence, GIF and JPEG XL (still and animated) decoders with libFuzzer for a
# bounded time. Seeds: recipes/, the PngSuite fixtures, the JPEG fixtures and Fuzz/seeds/ (regression inputs of
# every reliability case). libpng is built from Debian's source package with coverage instrumentation (fuzz builds
# only; the product links the system library), so FuzzPNG sees inside the decoder, not just our shim.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] (default 60); FUZZ_TARGETS="FuzzPNG" runs only those named. Crashing inputs land in .build/fuzz/crashes-TARGET/;
# each one found becomes a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
work=.build/fuzz
root=$PWD

# An instrumented static libpng (once): Debian's source of the installed version, configured for libFuzzer.
libpng="$root/$work/libpng-instrumented"
if [ ! -f "$libpng/lib/libpng16.a" ]; then
  mkdir -p "$work/src"
  if ! ls "$work"/src/libpng1.6-*/configure >/dev/null 2>&1; then
    if ! grep -rqs "deb-src\|Types: deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
      sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        | $sudo tee /etc/apt/sources.list.d/filterrecipe-src.sources >/dev/null
      $sudo apt-get update -qq
    fi
    (cd "$work/src" && apt-get source -qq libpng1.6 >/dev/null 2>&1)
  fi
  src=$(ls -d "$work"/src/libpng1.6-*/ | head -1)
  (cd "$src" && CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link" ./configure -q --disable-shared --enable-static \
     --prefix="$libpng" >/dev/null && make -s -j"$(nproc)" >/dev/null 2>&1 && make -s install >/dev/null 2>&1) \
    || { echo "could not build an instrumented libpng; fuzzing against the system library" >&2; libpng=""; }
fi
flags=(-c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld -Xcc -fsanitize=fuzzer-no-link)
# The instrumented archive is linked whole, so its definitions win over the system library -lpng16 names.
[ -n "$libpng" ] && flags+=(-Xlinker --whole-archive -Xlinker "$libpng/lib/libpng16.a" -Xlinker --no-whole-archive -Xlinker -lz -Xlinker -lm)
export PKG_CONFIG_PATH="${libpng:+$libpng/lib/pkgconfig:}${PKG_CONFIG_PATH:-}"
(cd Fuzz && swift build "${flags[@]}" 2>&1 | grep -E "error|warning: unre" || true)
(cd Fuzz && swift build "${flags[@]}" >/dev/null 2>&1) \
  || { echo "the fuzz targets did not build (a stale Fuzz/.build? remove it)" >&2; exit 1; }
bin="$(cd Fuzz && swift build "${flags[@]}" --show-bin-path)"
mkdir -p "$work/corpus-recipe" "$work/corpus-png" "$work/corpus-jpeg" "$work/crashes-recipe" "$work/crashes-png" "$work/crashes-jpeg" \
         "$work/corpus-webp" "$work/crashes-webp" "$work/corpus-tiff" "$work/crashes-tiff" "$work/corpus-heif" "$work/crashes-heif" "$work/corpus-gif" "$work/crashes-gif" "$work/corpus-jxl" "$work/crashes-jxl" \
         "$work/corpus-avis" "$work/crashes-avis" "$work/corpus-jxlanim" "$work/crashes-jxlanim"
cp recipes/*.json bench/*.json Fuzz/seeds/recipe/* "$work/corpus-recipe/" 2>/dev/null || true
cp Tests/Fixtures/pngsuite/*.png Fuzz/seeds/png/* "$work/corpus-png/" 2>/dev/null || true
cp Tests/Fixtures/jpeg/*.jpg Fuzz/seeds/jpeg/* "$work/corpus-jpeg/" 2>/dev/null || true
cp Tests/Fixtures/webp/*.webp Fuzz/seeds/webp/* "$work/corpus-webp/" 2>/dev/null || true
cp Tests/Fixtures/tiff/*.tif Fuzz/seeds/tiff/* "$work/corpus-tiff/" 2>/dev/null || true
cp Tests/Fixtures/jxl/*.jxl Fuzz/seeds/jxl/* "$work/corpus-jxl/" 2>/dev/null || true
cp Tests/Fixtures/gif/*.gif Fuzz/seeds/gif/* "$work/corpus-gif/" 2>/dev/null || true
cp Tests/Fixtures/heif/*.avif Tests/Fixtures/heif/*.heic Tests/Fixtures/heif/hostile/* Fuzz/seeds/heif/* "$work/corpus-heif/" 2>/dev/null || true
cp Tests/Fixtures/heif/avif_sequence_*.avif Fuzz/seeds/avis/* "$work/corpus-avis/" 2>/dev/null || true
cp Tests/Fixtures/jxl/*.jxl Fuzz/seeds/jxlanim/* "$work/corpus-jxlanim/" 2>/dev/null || true
run() {  # target corpus crashes extra-flags...
    local target=$1 corpus=$2 crashes=$3; shift 3
    # -timeout=10: an input that takes longer is reported (and saved) as a slow-input failure.
    "$bin/$target" "$corpus" -max_total_time="$seconds" -timeout=10 -artifact_prefix="$crashes/" -print_final_stats=1 "$@" 2>&1 \
        | grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+[[:space:]]+DONE|ERROR|SUMMARY|timeout" || true
}
targets="${FUZZ_TARGETS:-FuzzRecipe FuzzPNG FuzzJPEG FuzzWebP FuzzTIFF FuzzHEIF FuzzAVIFSequence FuzzGIF FuzzJXL FuzzJXLAnimation}"
case " $targets " in *" FuzzRecipe "*) echo "== FuzzRecipe ($seconds s)"
run FuzzRecipe "$work/corpus-recipe" "$work/crashes-recipe" -max_len=4096 -dict=Fuzz/recipe.dict;; esac
case " $targets " in *" FuzzPNG "*) echo "== FuzzPNG ($seconds s, libpng $([ -n "$libpng" ] && echo "instrumented" || echo "not instrumented"))"
run FuzzPNG "$work/corpus-png" "$work/crashes-png" -max_len=65536;; esac
case " $targets " in *" FuzzJPEG "*) echo "== FuzzJPEG ($seconds s)"
run FuzzJPEG "$work/corpus-jpeg" "$work/crashes-jpeg" -max_len=65536;; esac
case " $targets " in *" FuzzWebP "*) echo "== FuzzWebP ($seconds s)"
run FuzzWebP "$work/corpus-webp" "$work/crashes-webp" -max_len=65536;; esac
case " $targets " in *" FuzzTIFF "*) echo "== FuzzTIFF ($seconds s)"
run FuzzTIFF "$work/corpus-tiff" "$work/crashes-tiff" -max_len=65536;; esac
case " $targets " in *" FuzzHEIF "*) echo "== FuzzHEIF ($seconds s, libheif not instrumented)"
run FuzzHEIF "$work/corpus-heif" "$work/crashes-heif" -max_len=65536;; esac
case " $targets " in *" FuzzAVIFSequence "*) echo "== FuzzAVIFSequence ($seconds s, libavif not instrumented)"
run FuzzAVIFSequence "$work/corpus-avis" "$work/crashes-avis" -max_len=65536;; esac
case " $targets " in *" FuzzGIF "*) echo "== FuzzGIF ($seconds s, giflib not instrumented)"
run FuzzGIF "$work/corpus-gif" "$work/crashes-gif" -max_len=65536;; esac
case " $targets " in *" FuzzJXL "*) echo "== FuzzJXL ($seconds s, libjxl not instrumented)"
run FuzzJXL "$work/corpus-jxl" "$work/crashes-jxl" -max_len=65536;; esac
case " $targets " in *" FuzzJXLAnimation "*) echo "== FuzzJXLAnimation ($seconds s, libjxl not instrumented)"
run FuzzJXLAnimation "$work/corpus-jxlanim" "$work/crashes-jxlanim" -max_len=65536;; esac
echo "crashes: $(ls "$work"/crashes-* | grep -c -v '^$\|:$' || true)"
