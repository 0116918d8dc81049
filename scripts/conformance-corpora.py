#!/usr/bin/env python3
"""Decodes the peers' conformance corpora with filterrun and with reference decoders and prints the counts.

  scripts/conformance-corpora.py avif DIR   AOMediaCodec/av1-avif `testFiles` (BSD-2-Clause; clone
                                            https://github.com/AOMediaCodec/av1-avif and give its testFiles/):
                                            each file's first image, against avifdec (libavif, Debian libavif-bin),
                                            heif-convert (libheif) where avifdec cannot.
  scripts/conformance-corpora.py heic DIR   nokiatech/heif_conformance `conformance_files` (its licence: see the
                                            repository), against heif-convert.
  scripts/conformance-corpora.py webp DIR   webmproject/libwebp-test-data (BSD-3-Clause), against dwebp.

For AVIF and HEIC, libheif 1.23 is a further reference where pillow-heif (PyPI; its wheels bundle libheif 1.23
with libde265) can be imported — `pip install --target DIR pillow-heif` and PYTHONPATH=DIR: it decodes the
derivations (`iden`, `pred`, …) and brands Debian's libheif 1.15 refuses.

A file decodes alike when both decoders give the same size and PSNR ≥ 35 dB (8-bit RGB, alpha over black); a
file both refuse is "refused alike". Prints one line a file that differs, then the counts. Needs python3-pil.
"""
import math, os, subprocess, sys, tempfile
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILTERRUN = os.environ.get("FILTERRUN", os.path.join(ROOT, ".build", "release", "filterrun"))
IDENTITY = '{"version": 1, "steps": []}'

def rgb(path):
    image = Image.open(path)
    image.seek(0)
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        base = Image.new("RGBA", image.size, (0, 0, 0, 255))
        base.alpha_composite(image.convert("RGBA"))
        image = base
    if image.mode in ("I;16", "I;16B", "I"):
        image = image.point(lambda v: v / 257).convert("L")
    return image.convert("RGB")

def psnr(a, b):
    if a.size != b.size:
        return None
    x, y = a.tobytes(), b.tobytes()
    mse = sum((p - q) ** 2 for p, q in zip(x, y)) / len(x)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)

def run(command, timeout=120):
    try:
        return subprocess.run(command, capture_output=True, timeout=timeout).returncode == 0
    except subprocess.TimeoutExpired:
        return False

try:
    import pillow_heif
except ImportError:
    pillow_heif = None


def newer_libheif(path, out):
    """The primary image by pillow-heif's libheif (1.23), 8-bit, written as PNG; False when it refuses."""
    try:
        heif = pillow_heif.open_heif(path, convert_hdr_to_8bit=True)
        Image.frombytes(heif.mode, heif.size, bytes(heif.data), "raw", heif.mode, heif.stride).save(out)
        return True
    except Exception:
        return False


def references(kind, path, out):
    """The reference decodings that succeed. AVIF has two: avifdec 0.11 expands monochrome's range but ignores
    irot/imir/clap; libheif 1.15 applies them but leaves monochrome's limited range as is; each is right where the
    other is not, so a file decodes alike when it matches either."""
    made = []
    tools = {"avif": [["avifdec", "-j", "1", "--png-compress", "0", path, out + ".a.png"], ["heif-convert", path, out + ".h.png"]],
             "heic": [["heif-convert", path, out + ".h.png"]],
             "webp": [["dwebp", "-quiet", path, "-o", out + ".d.png"]]}[kind]
    for command in tools:
        target = command[-1]
        if run(command) and os.path.exists(target):
            made.append(target)
    if pillow_heif and kind in ("avif", "heic") and newer_libheif(path, out + ".n.png"):
        made.append(out + ".n.png")
    return made

def main():
    kind, folder = sys.argv[1], sys.argv[2]
    if kind in ("avif", "heic"):
        print(f"references: {'libheif ' + pillow_heif.libheif_version() + ' (pillow-heif) and ' if pillow_heif else ''}Debian's tools")
    extension = {"avif": ".avif", "heic": (".heic", ".heif", ".hif"), "webp": ".webp"}[kind]
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(folder) for f in names if f.lower().endswith(extension))
    counts = {"alike": 0, "refused alike": 0, "differ": 0, "ours only": 0, "reference only": 0}
    with tempfile.TemporaryDirectory() as scratch:
        recipe = os.path.join(scratch, "identity.json")
        open(recipe, "w").write(IDENTITY)
        for i, path in enumerate(files):
            ours, theirs = os.path.join(scratch, f"ours{i}.png"), os.path.join(scratch, f"ref{i}.png")
            # Code values as stored on both sides: no profile or tone map applied (avifdec and dwebp apply none).
            ok_ours = run([FILTERRUN, recipe, path, ours, "--depth", "8", "--ignore-profiles"])
            made = references(kind, path, theirs)
            ok_ref = bool(made)
            name = os.path.relpath(path, folder)
            if ok_ours and ok_ref:
                mine = rgb(ours)
                values = [v for v in (psnr(mine, rgb(t)) for t in made) if v is not None]
                value = max(values) if values else None
                if value is not None and value >= 35:
                    counts["alike"] += 1
                else:
                    counts["differ"] += 1
                    print(f"differ: {name}: " + ("sizes differ" if value is None else f"{value:.1f} dB"))
            elif ok_ours:
                counts["ours only"] += 1
                print(f"ours only: {name}")
            elif ok_ref:
                counts["reference only"] += 1
                result = subprocess.run([FILTERRUN, recipe, path, ours], capture_output=True, text=True)
                print(f"reference only: {name}: {result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ''}")
            else:
                counts["refused alike"] += 1
    print(f"{kind}: {len(files)} files: " + ", ".join(f"{v} {k}" for k, v in counts.items()))

main()
