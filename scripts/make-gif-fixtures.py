#!/usr/bin/python3
"""Writes the GIF fixtures in Tests/Fixtures/gif/ from the project's own photo fixtures (their licences apply).

Palette conversions are Pillow's (python3-pil); the files themselves are written by the small GIF89a writer below
(LZW per the GIF89a specification, appendix F), so every variant is exact: a global or only a local colour table,
interlaced rows, a transparent index, a first frame smaller than the canvas and placed inside it, two frames,
and a header declaring a canvas far larger than the data. Each `NAME.expected.png` holds the first frame as a viewer
composes it (RGBA; the canvas outside the frame transparent, grown to hold a frame that reaches past it), computed
here from the indices and palettes.
Run from the repository root with Debian's Python (python3-pil): /usr/bin/python3 scripts/make-gif-fixtures.py
"""
import os, struct
from PIL import Image

OUT = "Tests/Fixtures/gif"
PHOTOS = "Tests/Fixtures/photos"


def lzw(indices, min_code_size):
    """GIF LZW: variable-length codes, LSB first, a clear code first and the end code last."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    table = {bytes([i]): i for i in range(clear)}
    size, next_code = min_code_size + 1, end + 1
    out, acc, bits = bytearray(), 0, 0

    def emit(code):
        nonlocal acc, bits
        acc |= code << bits
        bits += size
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    emit(clear)
    w = b""
    for i in indices:
        wc = w + bytes([i])
        if wc in table:
            w = wc
            continue
        emit(table[w])
        if next_code < 4096:
            table[wc] = next_code
            next_code += 1
            if next_code > (1 << size) and size < 12:
                size += 1
        else:
            emit(clear)
            table = {bytes([k]): k for k in range(clear)}
            size, next_code = min_code_size + 1, end + 1
        w = bytes([i])
    if w:
        emit(table[w])
    emit(end)
    if bits:
        out.append(acc & 0xFF)
    return bytes(out)


def blocks(data):
    return b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255] for i in range(0, len(data), 255)) + b"\0"


def table(palette):
    size = 2
    while size < len(palette):
        size *= 2
    padded = palette + [(0, 0, 0)] * (size - len(palette))
    return size.bit_length() - 2, b"".join(bytes(c) for c in padded)


def frame(width, height, indices, palette=None, left=0, top=0, interlace=False, transparent=None, delay=0, disposal=0):
    gce = b""
    if transparent is not None or delay or disposal:
        packed = disposal << 2 | (1 if transparent is not None else 0)
        gce = b"\x21\xf9\x04" + bytes([packed]) + struct.pack("<H", delay) + bytes([transparent or 0]) + b"\0"
    rows = [indices[y * width:(y + 1) * width] for y in range(height)]
    if interlace:
        order = list(range(0, height, 8)) + list(range(4, height, 8)) + list(range(2, height, 4)) + list(range(1, height, 2))
        rows = [rows[y] for y in order]
    flags = 0x40 if interlace else 0
    local = b""
    if palette is not None:
        bits, local = table(palette)
        flags |= 0x80 | bits
    desc = b"\x2c" + struct.pack("<HHHH", left, top, width, height) + bytes([flags])
    code_size = max(2, (max(indices) + 1 - 1).bit_length())
    data = lzw(b"".join(bytes(r) for r in rows), code_size)
    return gce + desc + local + bytes([code_size]) + blocks(data)


def gif(path, width, height, frames, palette=None, loop=False, repeats=0):
    flags = 0
    global_table = b""
    if palette is not None:
        bits, global_table = table(palette)
        flags = 0x80 | 0x70 | bits
    head = b"GIF89a" + struct.pack("<HH", width, height) + bytes([flags, 0, 0]) + global_table
    if loop:
        head += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", repeats) + b"\x00"
    with open(os.path.join(OUT, path), "wb") as f:
        f.write(head + b"".join(frames) + b"\x3b")


def expected(path, width, height, layers):
    """The first frame composed: layers are (left, top, w, h, indices, palette, transparent). The canvas is the
    logical screen, grown to hold a first frame that reaches past it (as Pillow and browsers do)."""
    left, top, w, h, indices, palette, transparent = layers
    width, height = max(width, left + w), max(height, top + h)
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for y in range(h):
        for x in range(w):
            i = indices[y * w + x]
            if i == transparent:
                continue
            r, g, b = palette[i] if i < len(palette) else (0, 0, 0)
            canvas.putpixel((left + x, top + y), (r, g, b, 255))
    canvas.save(os.path.join(OUT, path))


def quantised(name, box, colours):
    im = Image.open(os.path.join(PHOTOS, name)).convert("RGB").crop(box).quantize(colours)
    pal = im.getpalette()[:3 * colours]
    return im.size, list(im.getdata()), [tuple(pal[i:i + 3]) for i in range(0, len(pal), 3)]


def main():
    os.makedirs(OUT, exist_ok=True)
    (w, h), idx, pal = quantised("chelsea_451x300_rgb8.png", (150, 60, 246, 124), 256)
    gif("global_96x64.gif", w, h, [frame(w, h, idx)], palette=pal)
    expected("global_96x64.expected.png", w, h, (0, 0, w, h, idx, pal, None))
    gif("interlaced_96x64.gif", w, h, [frame(w, h, idx, interlace=True)], palette=pal)
    gif("local_table_96x64.gif", w, h, [frame(w, h, idx, palette=pal)])
    # 16 colours, index 0 transparent where the logo's alpha is low.
    im = Image.open(os.path.join(PHOTOS, "emerald_crop_320x240_rgba8.png")).crop((100, 80, 196, 144))
    alpha = list(im.getchannel("A").getdata())
    q = im.convert("RGB").quantize(15)
    qpal = q.getpalette()[:45]
    tpal = [(0, 0, 0)] + [tuple(qpal[i:i + 3]) for i in range(0, 45, 3)]
    tidx = [0 if a < 128 else i + 1 for i, a in zip(q.getdata(), alpha)]
    gif("transparent_96x64.gif", 96, 64, [frame(96, 64, tidx, transparent=0)], palette=tpal)
    expected("transparent_96x64.expected.png", 96, 64, (0, 0, 96, 64, tidx, tpal, 0))
    # A 40×30 first frame at (20, 10) on a 96×64 canvas, then a second frame: the first is what is read.
    (fw, fh), fidx, fpal = quantised("chelsea_451x300_rgb8.png", (200, 100, 240, 130), 64)
    second = frame(96, 64, idx[:96 * 64], palette=pal, delay=20)
    gif("partial_animated_96x64.gif", 96, 64, [frame(fw, fh, fidx, left=20, top=10, delay=10), second],
        palette=fpal, loop=True)
    expected("partial_animated_96x64.expected.png", 96, 64, (20, 10, fw, fh, fidx, fpal, None))
    # An animation exercising every disposal: a full first frame kept; a frame with transparent pixels cleared to
    # the background after it; an interlaced frame with its own table restored to the canvas before it; a last frame
    # over the result. NETSCAPE2.0 asks for 2 repeats (3 plays).
    (aw, ah), aidx, apal = quantised("chelsea_451x300_rgb8.png", (180, 80, 228, 112), 32)
    (bw, bh), bidx, bpal = quantised("emerald_crop_320x240_rgba8.png", (120, 90, 136, 102), 31)
    bidx = [0 if (x + y) % 5 == 0 else i + 1 for (i, (x, y)) in zip(bidx, ((x, y) for y in range(bh) for x in range(bw)))]
    (cw, ch), cidx, cpal = quantised("emerald_crop_320x240_rgba8.png", (10, 10, 30, 20), 16)
    (dw, dh), didx, dpal = quantised("chelsea_451x300_rgb8.png", (300, 200, 310, 210), 8)
    gif("disposal_animated_48x32.gif", aw, ah, [
        frame(aw, ah, aidx, delay=10, disposal=1),
        frame(bw, bh, bidx, palette=[(0, 0, 0)] + bpal, left=8, top=6, transparent=0, delay=20, disposal=2),
        frame(cw, ch, cidx, palette=cpal, left=20, top=16, interlace=True, delay=30, disposal=3),
        frame(dw, dh, didx, palette=dpal, left=34, top=2, delay=40, disposal=1)], palette=apal, loop=True, repeats=2)
    # Hostile: a 65535×65535 canvas declared over a 4×4 frame; a frame reaching past the canvas.
    gif("huge_canvas.gif", 65535, 65535, [frame(4, 4, [0, 1] * 8)], palette=[(0, 0, 0), (255, 255, 255)])
    gif("frame_past_canvas_16x16.gif", 16, 16, [frame(16, 16, [0, 1] * 128, left=8, top=8)],
        palette=[(255, 0, 0), (0, 0, 255)])
    expected("frame_past_canvas_16x16.expected.png", 16, 16, (8, 8, 16, 16, [0, 1] * 128, [(255, 0, 0), (0, 0, 255)], None))


if __name__ == "__main__":
    main()
