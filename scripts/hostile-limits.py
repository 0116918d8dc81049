#!/usr/bin/env python3
"""Issue 52's hostile files at the scale the outside pass used, each through filterrun under the default limits
(--max-memory 1 GiB, --max-work 4e10): its exit, seconds and peak resident memory, and whether the peak stays
within 10 % of the memory limit. The files are written here (byte by byte, or by Pillow and by filterrun itself
from a flat picture), never fetched; they are large on disk only while the script runs.

Usage: scripts/hostile-limits.py [FILTERRUN] (default .build/release/filterrun). Needs Pillow (python3-pil).
Prints a Markdown table; exits 1 when any peak is over 1.1 GiB, or a case crashed.
"""
import os, struct, subprocess, sys, tempfile, time, zlib

sys.path.insert(0, os.path.dirname(__file__))
root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
filterrun = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/filterrun"))
LIMIT = 1 << 30
work = tempfile.mkdtemp(prefix="hostile-limits-")

def load_fixture_maker():
    # The byte-by-byte writers of the checked-in fixtures, at other sizes.
    import importlib.util
    spec = importlib.util.spec_from_file_location("fixtures", os.path.join(root, "scripts/make-declared-size-fixtures.py"))
    module = importlib.util.module_from_spec(spec)
    argv, sys.argv = sys.argv, [sys.argv[0], os.path.join(work, "fixtures")]
    try:
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try: spec.loader.exec_module(module)
            finally: sys.stdout = stdout
    finally:
        sys.argv = argv
    return module

def write(name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f: f.write(data)
    return path

def gif_frames(size, frames, name):
    """A GIF of `frames` identical flat frames of `size`², the one frame's coded bytes (Pillow's) repeated."""
    from PIL import Image
    one = os.path.join(work, "one.gif")
    Image.new("P", (size, size), 0).save(one)
    data = open(one, "rb").read()
    # Header (13 bytes) and the global colour table, then the image block up to the trailer.
    packed = data[10]
    table = 3 * (2 << (packed & 7)) if packed & 0x80 else 0
    head, rest = data[:13 + table], data[13 + table:-1]
    start = rest.index(b",")
    image = rest[start:]
    gce = b"\x21\xf9\x04\x04\x0a\x00\x00\x00"   # 0.1 s, keep the frame
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(head + loop)
        for _ in range(frames): f.write(gce + image)
        f.write(b";")
    return path

def flat_lossless_webp(size):
    from PIL import Image
    path = os.path.join(work, f"vp8l-{size}.webp")
    Image.new("RGB", (size, size), (40, 90, 160)).save(path, lossless=True, quality=0, method=0)
    return path

def run(args):
    # GNU time measures the peak: a child's own rusage from here would carry this process's high-water mark (Pillow's
    # pictures) across the fork.
    report = os.path.join(work, "time.txt")
    began = time.monotonic()
    process = subprocess.run(["/usr/bin/time", "-o", report, "-f", "%x %M"] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    seconds = time.monotonic() - began
    err = [l for l in process.stderr.decode(errors="replace").strip().splitlines() if not l.startswith("Command ")]
    fields = open(report).read().split()[-2:]
    code = int(fields[0])
    if code == 0 and process.returncode != 0: code = process.returncode
    return code, seconds, int(fields[1]) / 1024, (err[-1] if err else "")

fixtures = load_fixture_maker()
out = lambda ext: os.path.join(work, "out." + ext)
thumb = os.path.join(root, "recipes/web-thumbnail.json")
identity = write("identity.json", b'{"version": 1, "steps": []}')

cases = []
def case(label, before, make, args_for):
    cases.append((label, before, make, args_for))

case("animated WebP 12000² × 2 frames (132 B), --frames all", "SIGABRT (double free)",
     lambda: write("c12000.webp", fixtures.animated_webp(12000, 2)),
     lambda p: [filterrun, thumb, p, out("webp"), "--frames", "all", "--force"])
case("animated WebP 8192² × 2 frames, --frames all", "2 323 MiB",
     lambda: write("c8192.webp", fixtures.animated_webp(8192, 2)),
     lambda p: [filterrun, thumb, p, out("webp"), "--frames", "all", "--force"])
case("animated WebP 1000² × 5000 1×1 frames, --frames all", "1 968 MiB, 46 s",
     lambda: write("c1000x5000.webp", fixtures.animated_webp(1000, 5000)),
     lambda p: [filterrun, thumb, p, out("webp"), "--frames", "all", "--force"])
case("animated WebP 4096² × 100 frames, --frames all", "81 s",
     lambda: write("c4096x100.webp", fixtures.animated_webp(4096, 100)),
     lambda p: [filterrun, thumb, p, out("webp"), "--frames", "all", "--force"])
case("animated WebP 16383² × 5000 frames, --frames all", "SIGSEGV",
     lambda: write("c16383x5000.webp", fixtures.animated_webp(16383, 5000)),
     lambda p: [filterrun, thumb, p, out("webp"), "--frames", "all", "--force"])
case("TIFF 64² declaring a 65536² tile (146 B)", "12.3 GB, 30 s",
     lambda: write("tile.tif", fixtures.tiled_tiff()),
     lambda p: [filterrun, thumb, p, out("png"), "--force"])
case("lossless WebP 16383² flat, 256 px thumbnail", "1.2 GB",
     lambda: flat_lossless_webp(16383),
     lambda p: [filterrun, thumb, p, out("webp"), "--force"])
def progressive_jpeg(size):
    # A flat size² picture through cjpeg, progressive 4:4:4 (libjpeg-turbo-progs), fed as a PPM on a pipe.
    path = os.path.join(work, f"progressive-{size}.jpg")
    with open(path, "wb") as output:
        cjpeg = subprocess.Popen(["cjpeg", "-progressive", "-sample", "1x1", "-quality", "90"], stdin=subprocess.PIPE,
                                 stdout=output)
        cjpeg.stdin.write(b"P6\n%d %d\n255\n" % (size, size))
        row = bytes([90, 140, 200]) * size
        for _ in range(size): cjpeg.stdin.write(row)
        cjpeg.stdin.close()
        cjpeg.wait()
    return path
case("progressive 4:4:4 JPEG 13300² (flat, cjpeg)", "1 034 MiB",
     lambda: progressive_jpeg(13300),
     lambda p: [filterrun, thumb, p, out("jpg"), "--force"])
case("GIF 4096² × 300 frames to a 256 px WebP, --frames all", "69–109 s",
     lambda: gif_frames(4096, 300, "g4096x300.gif"),
     lambda p: [filterrun, thumb, p, out("webp"), "--frames", "all", "--force"])
case("GIF 16² × 100 000 frames to GIF, --frames all", "25–94 s",
     lambda: gif_frames(16, 100_000, "g16x100000.gif"),
     lambda p: [filterrun, identity, p, out("gif"), "--frames", "all", "--force"])

def jxl_animation():
    # 256² × 5000 frames of JPEG XL, written by filterrun from a GIF (lossless, effort 1, so it is quick).
    gif = gif_frames(256, 5000, "g256x5000.gif")
    path = os.path.join(work, "a256x5000.jxl")
    subprocess.run([filterrun, identity, gif, path, "--frames", "all", "--force", "--max-work", "1e12",
                    "--max-memory", str(8 << 30)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path
jxl = []
case("JPEG XL 256² × 5000 frames to WebP, --frames all", "1 152 MiB",
     lambda: jxl.append(jxl_animation()) or jxl[0],
     lambda p: [filterrun, identity, p, out("webp"), "--frames", "all", "--force"])
case("JPEG XL 256² × 5000 frames to AVIF, --frames all", "47 s",
     lambda: jxl[0],
     lambda p: [filterrun, identity, p, out("avif"), "--frames", "all", "--force"])

def batch():
    # 200 small JPEGs and two tile TIFFs in one folder.
    from PIL import Image
    folder = os.path.join(work, "batch")
    os.makedirs(folder, exist_ok=True)
    for i in range(200):
        Image.new("RGB", (64, 48), (i, 100, 200 - i)).save(os.path.join(folder, f"p{i:03d}.jpg"))
    for i in range(2):
        with open(os.path.join(folder, f"tile{i}.tif"), "wb") as f: f.write(fixtures.tiled_tiff())
    return folder
case("batch: 200 JPEGs and two 65536²-tile TIFFs", "12.3 GB",
     batch, lambda p: [filterrun, thumb, p, os.path.join(work, "batch-out") + "/", "--force"])

print(f"filterrun: {filterrun}; default limits (--max-memory 1 GiB, --max-work 4e10)\n")
print("| case | before | exit | seconds | peak MiB | within 1.1 GiB | message |")
print("|---|---|---|---|---|---|---|")
failed = False
for label, before, make, args_for in cases:
    path = make()
    code, seconds, peak, message = run(args_for(path))
    within = peak <= 1.1 * LIMIT / 1048576
    crashed = code < 0 or code > 128
    failed |= crashed or not within
    if path.startswith(work) and os.path.isfile(path) and not path.endswith(".jxl"): os.remove(path)
    message = message.replace("|", "\\|")[:160]
    print(f"| {label} | {before} | {code} | {seconds:.2f} | {peak:.0f} | {'yes' if within else '**no**'} | {message} |",
          flush=True)
subprocess.run(["rm", "-rf", work])
sys.exit(1 if failed else 0)
