#!/usr/bin/env bash
# A newcomer's walk-through on a fresh clone: the README's first command (build and render the demo), every line of
# its tour, then the command-line habits people bring (optional values after a space, --version, pipes in and out,
# path lists, hints for names other tools use, output folders made on the way). Stops at the first surprise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash scripts/demo.sh >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
ln -s "$root/recipes" "$work/recipes"; ln -s "$root/samples" "$work/samples"
export PATH="$root/.build/release:$PATH"
cd "$work"
step() { printf '  %s\n' "$1"; }
fail() { echo "newcomer: $1" >&2; exit 1; }

echo "newcomer: the README's tour"
sed -n '/^## A short tour/,/^## /p' "$root/README.md" | sed -n '/^```sh$/,/^```$/p' | sed '1d;$d' >tour.sh
[ -s tour.sh ] || fail "the README has no tour listing"
while IFS= read -r line; do step "$line"; bash -c "$line" >/dev/null 2>tour.err || { cat tour.err >&2; fail "a README command failed: $line"; }; done <tour.sh

echo "newcomer: habits"
photo=samples/coffee_600x400_rgb8.png
step "--explain verbose after the paths"
plan=$(filterrun recipes/vignette.json "$photo" a/b/c.png --explain verbose)
grep -q "generated kernel" <<<"$plan" || fail "--explain verbose"
[ -f a/b/c.png ] || fail "the output folder was not made"
step "--version"
[ "$(filterrun --version)" = "$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/FilterRecipe/Version.swift")" ] || fail "--version"
step "--help shows the render usage"
help=$(filterrun --help)
grep -q "USAGE: filterrun RECIPE INPUT OUTPUT" <<<"$help" || fail "--help"
step "a pipe in and out"
cat "$photo" | filterrun recipes/vignette.json - - --format png >piped.png
filterrun recipes/vignette.json "$photo" file.png
cmp -s piped.png file.png || fail "piped bytes differ from the file's"
step "--inputs-from -"
echo "$photo" | filterrun recipes/vignette.json --inputs-from - listed --quiet
[ -f listed/coffee_600x400_rgb8.png ] || fail "--inputs-from -"
step "a name other tools use"
echo '{"version": 1, "steps": [{"op": "blur", "sigma": 2}]}' >blur.json
if filterrun blur.json "$photo" blur.png 2>blur.err; then fail "an unknown filter rendered"; fi
grep -q 'did you mean "gaussianBlur" or "boxBlur"' blur.err || fail "no hint for blur: $(cat blur.err)"
step "--set by a filter's name"
if filterrun recipes/vignette.json "$photo" v.png --set vignette.intensity=0.8 2>set.err; then fail "--set by name"; fi
grep -q 'the vignette is step "1"' set.err || fail "no hint for --set: $(cat set.err)"
# Everyday habits (issue 56), each as a user of other tools would type it.
step "1: -q 80 is refused, naming --quality (never turned into a batch)"
if filterrun recipes/web-thumbnail.json "$photo" thumb.jpg -q 80 2>q.err; then fail "-q 80 rendered"; fi
grep -q -- '--quality 80' q.err || fail "no hint for -q 80: $(cat q.err)"
[ ! -e thumb.jpg ] && [ ! -e 80 ] || fail "-q 80 wrote something"
step "3: convert and stats need no recipe; a .cube given as the recipe says how to apply it"
filterrun convert "$photo" converted.avif || fail "convert IN OUT"
[ "$(head -c 12 converted.avif | tail -c 4)" = "avif" ] || fail "convert did not write an AVIF"
filterrun stats "$photo" >plain-stats.json || fail "stats IN"
grep -q blurHash plain-stats.json || fail "stats IN printed no statistics"
if filterrun "$root/recipes/looks/warm-film.cube" "$photo" look.jpg 2>cube.err; then fail "a .cube ran as a recipe"; fi
grep -q '"op": "lut"' cube.err || fail "no hint for a .cube: $(cat cube.err)"
step "4: filterserve started outside the repository names --presets"
(cd "$root" && swift build --product filterserve >/dev/null 2>&1)
serve="$root/.build/debug/filterserve"
if (cd /tmp && timeout 20 "$serve" --allow-unsigned 2>"$work/serve-outside.err"); then fail "filterserve ran without its folders"; fi
grep -q -- '--presets DIR' serve-outside.err || fail "no hint for --presets: $(cat serve-outside.err)"
step "10: filterserve sign refuses a mistyped preset (did you mean) and a format it does not write"
if "$serve" sign vignete coffee_600x400_rgb8.png --key k --presets recipes 2>sign.err; then fail "signed a mistyped preset"; fi
grep -q 'did you mean "vignette"' sign.err || fail "no hint for the preset: $(cat sign.err)"
if "$serve" sign vignette coffee_600x400_rgb8.png --key k --presets recipes --format bmp 2>sign.err; then fail "signed --format bmp"; fi
step "11: an output ending in / is a folder, made on the way"
filterrun recipes/web-thumbnail.json "$photo" out/dir1/ --quiet || fail "out/dir1/"
[ -f out/dir1/coffee_600x400_rgb8.png ] || fail "out/dir1/ holds no output"
step "7: an output-name template, as vips -o tn_%s"
filterrun recipes/web-thumbnail.json "$photo" samples/emerald-logo_160x120_rgba8.png named/ --output-name 'tn_%s.webp' --quiet \
    || fail "--output-name"
[ -f named/tn_coffee_600x400_rgb8.webp ] && [ -f named/tn_emerald-logo_160x120_rgba8.webp ] || fail "--output-name names: $(ls named)"
step "6: a watermark placed by compass point and sized by the photo (a fifth of its width on any size)"
filterrun recipes/watermark.json "$photo" marked.jpg --input watermark=samples/emerald-logo_160x120_rgba8.png --explain \
    >mark.txt || fail "watermark"
grep -q 'resample horizontal 120×90' mark.txt && grep -q 'pad 588×388' mark.txt || fail "the mark is not a fifth, bottom right: $(cat mark.txt)"
printf '{"version": 1, "steps": [{"op": "resize", "width": 1800}]}' >big.json
filterrun big.json "$photo" big.png --force
filterrun recipes/watermark.json big.png marked-big.jpg --input watermark=samples/emerald-logo_160x120_rgba8.png --explain \
    >mark-big.txt || fail "watermark on 1800 px"
grep -q 'resample vertical 360×270' mark-big.txt && grep -q 'pad 1764×1164' mark-big.txt || fail "the mark does not scale with the photo: $(cat mark-big.txt)"
step "9: --colors and --colours are both taken, by renders and stats; --quality on PNG is named"
filterrun recipes/web-thumbnail.json "$photo" q.png --quality 80 2>quality.err || fail "--quality on PNG"
grep -q 'applies to JPEG' quality.err || fail "--quality on PNG said nothing"
filterrun recipes/web-thumbnail.json "$photo" stripped.jpg --strip 2>strip.err || fail "--strip"
grep -q 'keep-metadata' strip.err || fail "--strip said nothing: $(cat strip.err)"
filterrun recipes/web-thumbnail.json "$photo" few.gif --colors 16 || fail "--colors in a render"
filterrun stats recipes/web-thumbnail.json "$photo" --colours 3 >stats.json || fail "--colours in stats"

echo "newcomer: the service"
# The README's two lines under "## filterserve": the command that starts the server, and the request.
sed -n '/^## filterserve/,/^## /p' "$root/README.md" | grep -E '^    (swift run filterserve|curl )' | sed 's/^    //' >service.sh
start=$(sed -n 1p service.sh); request=$(sed -n 2p service.sh)
[ -n "$start" ] && [ -n "$request" ] || fail "the README shows no server command and request"
step "$start"
# swift run builds first (without the tests' testability, so much is compiled again): built here, untimed.
(cd "$root" && swift build --product filterserve >/dev/null)
(cd "$root" && exec setsid bash -c "$start" >"$work/serve.log" 2>&1) &
for _ in $(seq 1 600); do curl -sf -o /dev/null http://127.0.0.1:8080/healthz && break; sleep 0.5; done
step "$request"
bash -c "$request" 2>/dev/null || { cat "$work/serve.log" >&2; fail "the README's request failed"; }
[ "$(head -c 4 thumb.webp)" = "RIFF" ] || fail "the README's request did not return a WebP image"
step "5: a size and a quality in the URL (signed; here unsigned, as the server was started)"
curl -sf -o small.png 'http://127.0.0.1:8080/r/_/web-thumbnail/coffee_600x400_rgb8.png?format=png&width=200' \
    || fail "?width=200 was refused"
filterrun stats small.png | grep -q '"width" *: *200' || fail "?width=200 did not size the thumbnail: $(filterrun stats small.png | head -c 300)"
curl -s -o typo.json 'http://127.0.0.1:8080/r/_/web-thumbnail/coffee_600x400_rgb8.png?widht=200'
grep -q 'did you mean' typo.json || fail "a mistyped URL option got no hint: $(cat typo.json)"
pkill -TERM -f "filterserve --allow-unsigned" || true
for _ in $(seq 1 20); do pgrep -f "filterserve --allow-unsigned" >/dev/null || break; sleep 0.5; done
pgrep -f "filterserve --allow-unsigned" >/dev/null && fail "filterserve did not stop on SIGTERM"
echo "newcomer: every step passed"
