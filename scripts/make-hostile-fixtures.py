#!/usr/bin/env python3
"""Makes Tests/Fixtures/hostile/: damaged and hostile photos, each reproducing one class of defect (issue 26), from
the CC0 photo Tests/Fixtures/photos/chelsea_451x300_rgb8.png and libjpeg-turbo's cjpeg/jpegtran (Debian
libjpeg-turbo-progs). Deterministic: run it again and the files are byte-identical. Each file is also a fuzzing
seed (copied into Fuzz/seeds/jpeg by this script)."""
import os, shutil, struct, subprocess, sys
from png_rows import read_png

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "Tests/Fixtures/hostile")
seeds = os.path.join(root, "Fuzz/seeds/jpeg")
tmp = os.path.join(out, ".work")
os.makedirs(tmp, exist_ok=True)

def cjpeg(ppm, name, *args):
    path = os.path.join(tmp, name)
    subprocess.run(["cjpeg", *args, "-outfile", path, ppm], check=True)
    return open(path, "rb").read()

def segments(jpeg):
    """(marker, start, end) of each marker segment up to the first SOS; the SOS's data follows."""
    pos, found = 2, []
    while pos < len(jpeg):
        assert jpeg[pos] == 0xFF
        marker = jpeg[pos + 1]
        length = struct.unpack(">H", jpeg[pos + 2:pos + 4])[0]
        found.append((marker, pos, pos + 2 + length))
        if marker == 0xDA:
            break
        pos += 2 + length
    return found

def scans(jpeg):
    """Byte ranges of each SOS segment with its entropy-coded data (up to the next marker that is not RSTn)."""
    result, pos = [], 2
    while pos < len(jpeg) - 1:
        marker = jpeg[pos + 1]
        if marker == 0xD9:
            break
        length = struct.unpack(">H", jpeg[pos + 2:pos + 4])[0]
        end = pos + 2 + length
        if marker == 0xDA:
            while not (jpeg[end] == 0xFF and jpeg[end + 1] not in (0x00, *range(0xD0, 0xD8))):
                end += 1
            result.append((pos, end))
        pos = end
    return result

def write(name, data, why):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    shutil.copy(os.path.join(out, name), os.path.join(seeds, "hostile-" + name))
    print(f"{name}: {len(data)} bytes — {why}")

width, height, channels, samples = read_png(os.path.join(root, "Tests/Fixtures/photos/chelsea_451x300_rgb8.png"))
assert channels == 3
rows = [samples[y * width * 3:(y + 1) * width * 3] for y in range(height)]
ppm = os.path.join(tmp, "photo.ppm")
with open(ppm, "wb") as f:
    f.write(b"P6 %d %d 255\n" % (width, height) + b"".join(rows))
grey = os.path.join(tmp, "grey.pgm")  # a 64x64 grey crop: each scan of the flood stays small
with open(grey, "wb") as f:
    f.write(b"P5 64 64 255\n" + bytes(rows[100 + y][3 * (200 + x) + 1] for y in range(64) for x in range(64)))

base = cjpeg(ppm, "base.jpg", "-quality", "90", "-sample", "2x2")
write("intact.jpg", base, "the undamaged baseline file the others are made from")
sos = next(s for s in segments(base) if s[0] == 0xDA)
data_start, data_end = sos[2], len(base) - 2
# 1: cut in the middle of the scan, an end marker appended (no "premature end of file": the marker is there).
write("cut-scan-eoi.jpg", base[:data_start + (data_end - data_start) // 2] + b"\xFF\xD9",
      "baseline scan cut in half, FF D9 appended")
# 1: 40 bytes of the scan XORed with 0x5A, a quarter of the way in.
damaged = bytearray(base)
at = data_start + (data_end - data_start) // 4
for i in range(at, at + 40):
    damaged[i] ^= 0x5A
write("xor-scan.jpg", bytes(damaged), "40 scan bytes XOR 0x5A")
# 1: an optimised file without its DHT segments: libjpeg assumes the standard tables.
optimised = cjpeg(ppm, "optimised.jpg", "-quality", "90", "-optimize")
write("no-dht.jpg", b"".join([optimised[:2]] + [optimised[s:e] for m, s, e in segments(optimised)[:-1] if m != 0xC4]
                             + [optimised[segments(optimised)[-1][1]:]]), "-optimize'd file with its DHT removed")
# 1: the SOF's height doubled: the data ends half-way.
sof = next(s for s in segments(base) if s[0] == 0xC0)
taller = bytearray(base)
taller[sof[1] + 5:sof[1] + 7] = struct.pack(">H", height * 2)
write("sof-taller.jpg", bytes(taller), "SOF patched to twice the height")
# 12: every row is there, only the end marker is missing.
write("no-eoi.jpg", base[:-2], "the file ends without FF D9")
# 1 (truncated): the file ends in the scan, no end marker.
write("truncated-scan.jpg", base[:data_start + (data_end - data_start) * 3 // 5], "ends at 60 % of the scan")
# 2: a progressive grey file whose AC scan repeats 600 times (more than the scan bound, each a full pass).
progressive = cjpeg(grey, "progressive-grey.jpg", "-quality", "80", "-grayscale", "-progressive")
parts = scans(progressive)
first_scan_end = parts[0][1]
ac = progressive[first_scan_end:parts[-1][1]]  # the AC scans with the Huffman tables defined between them
write("scan-flood.jpg", progressive[:first_scan_end] + ac * 120 + b"\xFF\xD9",
      f"progressive grey, its {len(parts) - 1} AC scans repeated 120 times ({1 + 120 * (len(parts) - 1)} scans)")
# 3: a progressive 4:4:4 file whose SOF claims 13300x13300: 1.0 GiB of coefficients (0.5 GiB if it were 4:2:0).
p444 = cjpeg(ppm, "progressive-444.jpg", "-quality", "90", "-sample", "1x1", "-progressive")
sof = next(s for s in segments(p444) if s[0] == 0xC2)
big = bytearray(p444)
big[sof[1] + 5:sof[1] + 9] = struct.pack(">HH", 13300, 13300)
write("progressive-444-13300.jpg", bytes(big), "progressive 4:4:4 claiming 13300x13300")
# 12: a 12-bit file (SOF1, precision 12), a lossless one (SOF3) and a hierarchical one (SOF5): valid processes
# libjpeg-turbo 2.1 does not read; only the header matters for the message.
for name, marker, precision in [("precision-12.jpg", 0xC1, 12), ("lossless-sof3.jpg", 0xC3, 8),
                                ("hierarchical-sof5.jpg", 0xC5, 8)]:
    patched = bytearray(base)
    sof = next(s for s in segments(base) if s[0] == 0xC0)
    patched[sof[1] + 1] = marker
    patched[sof[1] + 4] = precision
    write(name, bytes(patched), f"SOF 0x{marker:02X}, {precision}-bit")
# 12: 65535x65535 declared (over libjpeg's 65500 a side).
huge = bytearray(base)
sof = next(s for s in segments(base) if s[0] == 0xC0)
huge[sof[1] + 5:sof[1] + 9] = struct.pack(">HH", 65535, 65535)
write("dimension-65535.jpg", bytes(huge), "SOF claiming 65535x65535")
shutil.rmtree(tmp)
