#!/usr/bin/env bash
# Fuzzes the recipe decoder (with lowering and the optimizer) and the PNG, JPEG, WebP, TIFF, HEIF (HEIC/AVIF), AVIF sequence, GIF and JPEG XL (still and animated) decoders with libFuzzer for a
# bounded time. Seeds: recipes/, the PngSuite fixtures, the JPEG fixtures and Fuzz/seeds/ (regression inputs of
# every reliability case). libpng, libwebp, libtiff and giflib are built from Debian's source packages of the
# installed versions with coverage instrumentation (fuzz builds only; the product links the system libraries), so
# their targets see inside the decoders, not just our code. libheif is built the same way as a shared library (with
# its HEVC and AV1 decoders, libde265 and dav1d, built instrumented too), which FuzzHEIF loads in place of the system
# ones through LD_LIBRARY_PATH, as filterrun loads libheif when first needed; libjxl likewise for FuzzJXL and
# FuzzJXLAnimation (its C++ build takes minutes, once). libavif is not (its orig tarball is missing from the Debian
# mirror here: 404), but FuzzAVIFSequence runs it over the instrumented dav1d.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] (default 60); FUZZ_RUNS=N stops each target after N inputs instead
# (no time limit: the count the hostile-file issue asks of the size paths); FUZZ_TARGETS="FuzzPNG" runs only those named
# (FuzzSizesTIFF, FuzzSizesGIF, FuzzSizesWEBP, FuzzSizesJXL and FuzzSizesHEIF run the size paths alone and are named
# to run; the last two against the system's libjxl and libheif unless FuzzJXL or FuzzHEIF built instrumented ones). Crashing inputs land in .build/fuzz/crashes-TARGET/;
# each one found becomes a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
# Each target stops after the time given or, with FUZZ_RUNS, after that many inputs.
if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); budget="$FUZZ_RUNS runs"; else limit=(-max_total_time="$seconds"); budget="$seconds s"; fi
targets="${FUZZ_TARGETS:-FuzzRecipe FuzzPNG FuzzJPEG FuzzWebP FuzzWebPAnimation FuzzTIFF FuzzHEIF FuzzAVIFSequence FuzzGIF FuzzJXL FuzzJXLAnimation}"
# Whether a target named runs (the shared libraries only some targets load are built instrumented only for them).
runs() { for t in "$@"; do case " $targets " in *" $t "*) return 0;; esac; done; return 1; }
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
# Debian's source of an installed library, unpacked under $work/src (once); prints its directory.
source_of() {  # source-package directory-glob
  if ! ls -d "$work"/src/$2/ >/dev/null 2>&1; then
    mkdir -p "$work/src"
    (cd "$work/src" && apt-get source -qq "$1" >/dev/null 2>&1) || return 1
  fi
  ls -d "$work"/src/$2/ | head -1
}
cflags="-O1 -g -fsanitize=fuzzer-no-link"
# libwebp with its demuxer and muxer, nothing else.
libwebp="$root/$work/libwebp-instrumented"
if [ ! -f "$libwebp/lib/libwebp.a" ]; then
  src=$(source_of libwebp "libwebp-*") && (cd "$src" && CC=clang CFLAGS="$cflags" ./configure -q --disable-shared \
      --enable-static --enable-libwebpdemux --enable-libwebpmux --disable-gl --disable-sdl --disable-png --disable-jpeg \
      --disable-tiff --disable-gif --disable-wic --prefix="$libwebp" >/dev/null && make -s -j"$(nproc)" >/dev/null 2>&1 \
      && make -s install >/dev/null 2>&1) \
    || { echo "could not build an instrumented libwebp; fuzzing against the system library" >&2; libwebp=""; }
fi
# libtiff with zlib and libjpeg (the codecs the fixtures use), the rest of its optional codecs left out; Debian's
# source ships no generated configure, so it builds through CMake (installed when missing). Shared, loaded through
# LD_LIBRARY_PATH as filterrun loads libtiff on first use (CLazyLibraries' trampolines carry libtiff's names, so a
# static archive linked whole would define them twice).
libtiff="$root/$work/libtiff-instrumented"
# Rebuilt when its coverage ignore-list changes.
if [ ! -f "$libtiff/lib/libtiff.so.6" ] || [ Fuzz/libtiff-coverage-ignore.txt -nt "$libtiff/lib/libtiff.so.6" ]; then
  rm -rf "$work/libtiff-build"
  command -v cmake >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"; $sudo apt-get install -y -qq cmake >/dev/null 2>&1; } || true
  src=$(source_of tiff "tiff-*") && cmake -S "$src" -B "$work/libtiff-build" -DCMAKE_C_COMPILER=clang \
      -DCMAKE_C_FLAGS="$cflags -fsanitize-coverage-ignorelist=$root/Fuzz/libtiff-coverage-ignore.txt" \
      -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX="$libtiff" -DCMAKE_INSTALL_LIBDIR=lib -Dcxx=OFF -Dlzma=OFF -Dzstd=OFF \
      -Djbig=OFF -Dwebp=OFF -Dlerc=OFF -Dlibdeflate=OFF -Dtiff-tools=OFF -Dtiff-tests=OFF -Dtiff-docs=OFF \
      -Dtiff-contrib=OFF >/dev/null 2>&1 && cmake --build "$work/libtiff-build" -j"$(nproc)" >/dev/null 2>&1 \
      && cmake --install "$work/libtiff-build" >/dev/null 2>&1 \
    || { echo "could not build an instrumented libtiff; fuzzing against the system library" >&2; libtiff=""; }
fi
# libde265 (HEVC), shared through CMake (Debian's patches leave its autotools wanting to regenerate); installed
# under the soname libheif and filterrun ask for.
libde265="$root/$work/libde265-instrumented"
if runs FuzzHEIF && [ ! -f "$libde265/lib/libde265.so.0" ]; then
  command -v cmake >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"; $sudo apt-get install -y -qq cmake >/dev/null 2>&1; } || true
  src=$(source_of libde265 "libde265-*") && cmake -S "$src" -B "$work/libde265-build" -DCMAKE_C_COMPILER=clang \
      -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cflags" -DBUILD_SHARED_LIBS=ON -DENABLE_SDL=OFF \
      -DENABLE_DECODER=OFF -DENABLE_ENCODER=OFF >/dev/null 2>&1 && cmake --build "$work/libde265-build" -j"$(nproc)" >/dev/null 2>&1 \
      && mkdir -p "$libde265/lib" && cp "$work/libde265-build/libde265/libde265.so" "$libde265/lib/libde265.so.0" \
    || { echo "could not build an instrumented libde265; fuzzing against the system library" >&2; libde265=""; }
fi
# dav1d (AV1, for AVIF through libheif and libavif), shared through Meson (installed when missing), its C paths
# (no assembly: nasm is not needed, and libFuzzer sees the reference code).
dav1d="$root/$work/dav1d-instrumented"
if runs FuzzHEIF FuzzAVIFSequence && [ ! -f "$dav1d/lib/libdav1d.so.6" ]; then
  command -v meson >/dev/null && command -v ninja >/dev/null \
    || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"; $sudo apt-get install -y -qq meson ninja-build >/dev/null 2>&1; } || true
  src=$(source_of dav1d "dav1d-*") && rm -rf "$work/dav1d-build" && CC=clang CFLAGS="$cflags" meson setup "$work/dav1d-build" "$src" \
      -Denable_tools=false -Denable_tests=false -Denable_asm=false -Ddefault_library=shared -Db_lundef=false \
      --buildtype=plain >/dev/null 2>&1 && ninja -C "$work/dav1d-build" >/dev/null 2>&1 \
      && mkdir -p "$dav1d/lib" && for f in "$work"/dav1d-build/src/libdav1d.so*; do [ -d "$f" ] || cp -P "$f" "$dav1d/lib/"; done \
    || { echo "could not build an instrumented dav1d; fuzzing against the system library" >&2; dav1d=""; }
fi
# libheif, shared (the product loads it with dlopen, so the instrumented one is found first by LD_LIBRARY_PATH).
libheif="$root/$work/libheif-instrumented"
if runs FuzzHEIF && [ ! -f "$libheif/lib/libheif.so.1" ]; then
  command -v cmake >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"; $sudo apt-get install -y -qq cmake >/dev/null 2>&1; } || true
  src=$(source_of libheif "libheif-*") && cmake -S "$src" -B "$work/libheif-build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cflags" -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX="$libheif" \
      -DCMAKE_INSTALL_LIBDIR=lib -DWITH_EXAMPLES=OFF -DENABLE_PLUGIN_LOADING=OFF -DWITH_X265=OFF -DWITH_AOM_ENCODER=OFF \
      -DWITH_AOM_DECODER=OFF -DWITH_SvtEnc=OFF -DWITH_RAV1E=OFF -DWITH_LIBDE265=ON -DWITH_DAV1D=ON -DWITH_GDK_PIXBUF=OFF \
      >/dev/null 2>&1 && cmake --build "$work/libheif-build" -j"$(nproc)" >/dev/null 2>&1 \
      && cmake --install "$work/libheif-build" >/dev/null 2>&1 \
    || { echo "could not build an instrumented libheif; fuzzing against the system library" >&2; libheif=""; }
fi
# libjxl and its thread pool, shared, with the system's highway, brotli and Little CMS (as Debian builds it).
libjxl="$root/$work/libjxl-instrumented"
if runs FuzzJXL FuzzJXLAnimation && [ ! -f "$libjxl/lib/libjxl.so" ]; then
  command -v cmake >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"; $sudo apt-get install -y -qq cmake >/dev/null 2>&1; } || true
  src=$(source_of jpeg-xl "jpeg-xl-*") && cmake -S "$src" -B "$work/libjxl-build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_FLAGS="$cflags" -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=ON -DBUILD_TESTING=OFF \
      -DJPEGXL_ENABLE_TOOLS=OFF -DJPEGXL_ENABLE_BENCHMARK=OFF -DJPEGXL_ENABLE_EXAMPLES=OFF -DJPEGXL_ENABLE_DEVTOOLS=OFF \
      -DJPEGXL_ENABLE_MANPAGES=OFF -DJPEGXL_ENABLE_OPENEXR=OFF -DJPEGXL_ENABLE_SJPEG=OFF -DJPEGXL_ENABLE_SKCMS=OFF \
      -DJPEGXL_BUNDLE_SKCMS=OFF -DJPEGXL_FORCE_SYSTEM_BROTLI=ON -DJPEGXL_FORCE_SYSTEM_HWY=ON -DJPEGXL_FORCE_SYSTEM_LCMS2=ON \
      -DJPEGXL_ENABLE_JNI=OFF -DJPEGXL_ENABLE_DOXYGEN=OFF -DJPEGXL_ENABLE_PLUGINS=OFF >/dev/null 2>&1 \
      && cmake --build "$work/libjxl-build" -j"$(nproc)" --target jxl jxl_threads >/dev/null 2>&1 \
      && mkdir -p "$libjxl/lib" && cp -P "$work"/libjxl-build/libjxl*.so* "$libjxl/lib/" \
    || { echo "could not build an instrumented libjxl; fuzzing against the system library" >&2; libjxl=""; }
fi
# giflib: a plain Makefile; its static archive alone.
giflib="$root/$work/giflib-instrumented"
if [ ! -f "$giflib/lib/libgif.a" ]; then
  src=$(source_of giflib "giflib-*") && (cd "$src" && make -s clean >/dev/null 2>&1; make -s CC=clang CFLAGS="$cflags -fPIC" libgif.a \
      >/dev/null 2>&1 && mkdir -p "$giflib/lib" && cp libgif.a "$giflib/lib/") \
    || { echo "could not build an instrumented giflib; fuzzing against the system library" >&2; giflib=""; }
fi
flags=(-c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld -Xcc -fsanitize=fuzzer-no-link)
# Instrumented archives are linked whole, so their definitions win over the system libraries' names.
whole() { flags+=(-Xlinker --whole-archive); for archive in "$@"; do flags+=(-Xlinker "$archive"); done; flags+=(-Xlinker --no-whole-archive); }
[ -n "$libpng" ] && whole "$libpng/lib/libpng16.a"
[ -n "$libwebp" ] && whole "$libwebp/lib/libwebp.a" "$libwebp/lib/libwebpdemux.a" "$libwebp/lib/libwebpmux.a" \
  $(ls "$libwebp"/lib/libsharpyuv.a 2>/dev/null)
[ -n "$giflib" ] && whole "$giflib/lib/libgif.a"
flags+=(-Xlinker -ljpeg -Xlinker -lz -Xlinker -lm -Xlinker -lpthread)
# A library loaded later (libheif) finds libFuzzer's coverage hooks in the executable.
flags+=(-Xlinker --export-dynamic)
export PKG_CONFIG_PATH="${libpng:+$libpng/lib/pkgconfig:}${PKG_CONFIG_PATH:-}"
(cd Fuzz && swift build "${flags[@]}" 2>&1 | grep -E "error|warning: unre" || true)
(cd Fuzz && swift build "${flags[@]}" >/dev/null 2>&1) \
  || { echo "the fuzz targets did not build (a stale Fuzz/.build? remove it)" >&2; exit 1; }
bin="$(cd Fuzz && swift build "${flags[@]}" --show-bin-path)"
mkdir -p "$work/corpus-recipe" "$work/corpus-png" "$work/corpus-jpeg" "$work/crashes-recipe" "$work/crashes-png" "$work/crashes-jpeg" \
         "$work/corpus-webp" "$work/crashes-webp" "$work/corpus-tiff" "$work/crashes-tiff" "$work/corpus-heif" "$work/crashes-heif" "$work/corpus-gif" "$work/crashes-gif" "$work/corpus-jxl" "$work/crashes-jxl" \
         "$work/corpus-avis" "$work/crashes-avis" "$work/corpus-jxlanim" "$work/crashes-jxlanim" "$work/corpus-webpanim" "$work/crashes-webpanim"
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
cp Tests/Fixtures/webp/*.webp Fuzz/seeds/webp/* "$work/corpus-webpanim/" 2>/dev/null || true
run() {  # target corpus crashes extra-flags...
    local target=$1 corpus=$2 crashes=$3; shift 3
    # -timeout=10: an input that takes longer is reported (and saved) as a slow-input failure.
    "$bin/$target" "$corpus" "${limit[@]}" -timeout=10 -artifact_prefix="$crashes/" -print_final_stats=1 "$@" 2>&1 \
        | grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+[[:space:]]+DONE|==[0-9]+== ?ERROR|DEADLYSIGNAL|SUMMARY|timeout" || true
}
case " $targets " in *" FuzzRecipe "*) echo "== FuzzRecipe ($budget)"
run FuzzRecipe "$work/corpus-recipe" "$work/crashes-recipe" -max_len=4096 -dict=Fuzz/recipe.dict;; esac
case " $targets " in *" FuzzPNG "*) echo "== FuzzPNG ($budget, libpng $([ -n "$libpng" ] && echo "instrumented" || echo "not instrumented"))"
run FuzzPNG "$work/corpus-png" "$work/crashes-png" -max_len=65536;; esac
case " $targets " in *" FuzzJPEG "*) echo "== FuzzJPEG ($budget)"
run FuzzJPEG "$work/corpus-jpeg" "$work/crashes-jpeg" -max_len=65536;; esac
instrumented() { [ -n "$1" ] && echo "instrumented" || echo "not instrumented"; }
case " $targets " in *" FuzzWebP "*) echo "== FuzzWebP ($budget, libwebp $(instrumented "$libwebp"))"
run FuzzWebP "$work/corpus-webp" "$work/crashes-webp" -max_len=65536;; esac
case " $targets " in *" FuzzWebPAnimation "*) echo "== FuzzWebPAnimation ($budget, libwebp $(instrumented "$libwebp"))"
run FuzzWebPAnimation "$work/corpus-webpanim" "$work/crashes-webpanim" -max_len=65536;; esac
case " $targets " in *" FuzzTIFF "*) echo "== FuzzTIFF ($budget, libtiff $(instrumented "$libtiff"))"
LD_LIBRARY_PATH="${libtiff:+$libtiff/lib:}${LD_LIBRARY_PATH:-}" run FuzzTIFF "$work/corpus-tiff" "$work/crashes-tiff" -max_len=65536;; esac
case " $targets " in *" FuzzHEIF "*) echo "== FuzzHEIF ($budget, libheif $(instrumented "$libheif"), libde265 $(instrumented "$libde265"), dav1d $(instrumented "$dav1d"))"
LD_LIBRARY_PATH="${libheif:+$libheif/lib:}${libde265:+$libde265/lib:}${dav1d:+$dav1d/lib:}${LD_LIBRARY_PATH:-}" run FuzzHEIF "$work/corpus-heif" "$work/crashes-heif" -max_len=65536;; esac
case " $targets " in *" FuzzAVIFSequence "*) echo "== FuzzAVIFSequence ($budget, libavif not instrumented, dav1d $(instrumented "$dav1d"))"
LD_LIBRARY_PATH="${dav1d:+$dav1d/lib:}${LD_LIBRARY_PATH:-}" run FuzzAVIFSequence "$work/corpus-avis" "$work/crashes-avis" -max_len=65536;; esac
case " $targets " in *" FuzzGIF "*) echo "== FuzzGIF ($budget, giflib $(instrumented "$giflib"))"
run FuzzGIF "$work/corpus-gif" "$work/crashes-gif" -max_len=65536;; esac
case " $targets " in *" FuzzJXL "*) echo "== FuzzJXL ($budget, libjxl $(instrumented "$libjxl"))"
LD_LIBRARY_PATH="${libjxl:+$libjxl/lib:}${LD_LIBRARY_PATH:-}" run FuzzJXL "$work/corpus-jxl" "$work/crashes-jxl" -max_len=65536;; esac
case " $targets " in *" FuzzJXLAnimation "*) echo "== FuzzJXLAnimation ($budget, libjxl $(instrumented "$libjxl"))"
LD_LIBRARY_PATH="${libjxl:+$libjxl/lib:}${LD_LIBRARY_PATH:-}" run FuzzJXLAnimation "$work/corpus-jxlanim" "$work/crashes-jxlanim" -max_len=65536;; esac
# The size paths alone (FuzzDeclaredSizes: headers, declared sizes, budgets; no pixel decoded), a corpus per
# format so each format's headers are mutated from its own seeds and the hostile fixtures.
for format in tiff gif webp jxl heif; do
  name="FuzzSizes$(echo "$format" | tr a-z A-Z)"
  case " $targets " in *" $name "*)
    mkdir -p "$work/corpus-sizes-$format" "$work/crashes-sizes-$format"
    cp "$work/corpus-$format"/* Tests/Fixtures/hostile/*."${format:0:3}"* "$work/corpus-sizes-$format/" 2>/dev/null || true
    echo "== $name: FuzzDeclaredSizes over $format ($budget)"
    LD_LIBRARY_PATH="${libtiff:+$libtiff/lib:}${LD_LIBRARY_PATH:-}" run FuzzDeclaredSizes "$work/corpus-sizes-$format" \
      "$work/crashes-sizes-$format" -max_len=65536;;
  esac
done
echo "crashes: $(ls "$work"/crashes-* | grep -c -v '^$\|:$' || true)"
