#!/usr/bin/env python3
"""Writes the small hostile files of Tests/Fixtures/hostile/ that declare far more than they hold: each is a few
hundred bytes, built here byte by byte so its provenance is this script (no third-party data).

  webp-anim-canvas-12000.webp     animated WebP, 12000² canvas, two 1×1 lossless frames
  webp-anim-canvas-8192.webp      the same at 8192² (under the 1 GiB limit's canvas check, over the pipeline's)
  webp-anim-frames-100.webp       256² canvas, 100 1×1 frames (work, not memory: the tests lower the work limit; the
                                  outside check's 1000² × 5000 frames is this at scale)
  tiff-tile-65536.tif             64×64 RGB TIFF declaring one 65536×65536 tile (deflate, 10 bytes of data)
  gif-lzw-past-table.gif          8×8 GIF whose third code lies past the string table (Pillow: broken data stream)
  tiff-deflate-bad-adler.tif      64×64 grey deflate TIFF, one bit flipped: libtiff decodes wrong pixels, zlib fails
"""
import os, struct, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "hostile")

def chunk(tag, payload):
    pad = b"\0" if len(payload) % 2 else b""
    return tag + struct.pack("<I", len(payload)) + payload + pad

def u24(v):
    return struct.pack("<I", v)[:3]

# A 1×1 opaque red VP8L bitstream (cwebp -lossless of a 1×1 PNG).
VP8L_1x1 = bytes.fromhex("2f000000000710fd8ffe0722a2ff01")

def animated_webp(canvas, frames):
    vp8x = bytes([0x02 | 0x10, 0, 0, 0]) + u24(canvas - 1) + u24(canvas - 1)   # animation + alpha flags
    anim = struct.pack("<IH", 0, 0)
    body = chunk(b"VP8X", vp8x) + chunk(b"ANIM", anim)
    frame = chunk(b"ANMF", u24(0) + u24(0) + u24(0) + u24(0) + u24(100) + bytes([0]) + chunk(b"VP8L", VP8L_1x1))
    body += frame * frames
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body

def tiff(entries, data, data_offset_tag):
    # Little-endian TIFF: header, IFD at 8, the data after it.
    n = len(entries)
    ifd_size = 2 + 12 * n + 4
    data_at = 8 + ifd_size
    ifd = struct.pack("<H", n)
    for tag, typ, count, value in sorted(entries):
        if tag == data_offset_tag:
            value = data_at
        if typ == 3 and count == 1:
            ifd += struct.pack("<HHIHH", tag, typ, count, value, 0)
        else:
            ifd += struct.pack("<HHII", tag, typ, count, value)
    ifd += struct.pack("<I", 0)
    return b"II*\0" + struct.pack("<I", 8) + ifd + data

def tiled_tiff():
    data = zlib.compress(b"\0" * 64)
    entries = [(256, 3, 1, 64), (257, 3, 1, 64), (258, 3, 1, 8), (259, 3, 1, 8), (262, 3, 1, 1), (277, 3, 1, 1),
               (322, 4, 1, 65536), (323, 4, 1, 65536), (324, 4, 1, 0), (325, 4, 1, len(data))]
    return tiff(entries, data, 324)

def bad_adler_tiff():
    # A 64×64 grey strip with one bit flipped inside the deflate data, chosen so that inflating stops with the
    # strip's bytes all out but the stream unfinished — as libtiff inflates, so it reports nothing — while zlib,
    # inflating to the end, fails (a bad code or the Adler-32).
    size = 64
    pixels = bytes(((x * 7) ^ (y * 13) + (x * y) // 5) & 0xFF for y in range(size) for x in range(size))
    clean = zlib.compress(pixels, 9)
    for position in range(len(clean) // 3, len(clean) - 4):
        for bit in range(8):
            data = bytearray(clean)
            data[position] ^= 1 << bit
            try:
                partial = zlib.decompressobj().decompress(bytes(data), size * size)
            except zlib.error:
                continue
            try:
                zlib.decompress(bytes(data))
                continue
            except zlib.error:
                pass
            if len(partial) == size * size and partial != pixels:
                entries = [(256, 3, 1, size), (257, 3, 1, size), (258, 3, 1, 8), (259, 3, 1, 8), (262, 3, 1, 1),
                           (277, 3, 1, 1), (273, 4, 1, 0), (278, 3, 1, size), (279, 4, 1, len(data))]
                return tiff(entries, bytes(data), 273)
    raise SystemExit("no flip found")

def gif_past_table():
    # 8×8, a 4-colour global table, minimum code size 2: clear (4), 0, then code 7 while the next free code is 6.
    header = b"GIF89a" + struct.pack("<HHBBB", 8, 8, 0x81, 0, 0) + bytes([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    descriptor = b"," + struct.pack("<HHHHB", 0, 0, 8, 8, 0)
    codes = [4, 0, 7] + [0] * 70 + [5]
    bits, nbits, data, size, next_code = 0, 0, bytearray(), 3, 6
    for i, code in enumerate(codes):
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            data.append(bits & 0xFF); bits >>= 8; nbits -= 8
    if nbits:
        data.append(bits & 0xFF)
    blocks = b"".join(bytes([len(data[i:i + 255])]) + bytes(data[i:i + 255]) for i in range(0, len(data), 255))
    return header + descriptor + bytes([2]) + blocks + b"\0;"

files = {
    "webp-anim-canvas-12000.webp": animated_webp(12000, 2),
    "webp-anim-canvas-8192.webp": animated_webp(8192, 2),
    "webp-anim-frames-100.webp": animated_webp(256, 100),
    "tiff-tile-65536.tif": tiled_tiff(),
    "gif-lzw-past-table.gif": gif_past_table(),
    "tiff-deflate-bad-adler.tif": bad_adler_tiff(),
}
os.makedirs(out, exist_ok=True)
for name, data in files.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")
