#!/usr/bin/env python3
"""Writes the HEIF-family fixtures in Tests/Fixtures/heif/ from the project's own photo fixtures.

Plain variants come from Debian's libheif-examples 1.15 `heif-enc` (x265 for HEIC, libaom for AVIF); the variants
heif-enc cannot make (grid images, irot/imir transforms, a collection whose primary image is not the first, an EXIF
block that contradicts the transforms) are re-assembled here from heif-enc's coded images by a small ISOBMFF writer
(ISO/IEC 23008-12: ftyp, meta with hdlr/pitm/iloc/iinf/iref/idat/iprp, mdat). The photos' licences apply (see
Tests/Fixtures/README.md). Needs heif-enc and vips (libvips-tools). Run from the repository root:
python3 scripts/make-heif-fixtures.py
"""
import os, struct, subprocess, tempfile

OUT = "Tests/Fixtures/heif"
PHOTOS = "Tests/Fixtures/photos"
tmp = tempfile.mkdtemp()


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def crop(name, x, y, w, h, out):
    path = os.path.join(tmp, out)
    # Without the photos' own ICC chunks (chelsea's is an old sRGB one libpng refuses to write back).
    run("vips", "crop", os.path.join(PHOTOS, name), path + "[strip]", str(x), str(y), str(w), str(h))
    return path


def enc(src, out, *options):
    run("heif-enc", *options, "-o", os.path.join(OUT, out), src)


# --- ISOBMFF reading: the primary item's coded bytes and its properties ------------------------------------------

def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
            header = 16
        elif size == 0:
            size = end - start
        yield kind.decode("latin1"), start, start + header, start + size
        start += size


def child(data, parent_body, parent_end, kind):
    for k, s, b, e in boxes(data, parent_body, parent_end):
        if k == kind:
            return s, b, e
    raise KeyError(kind)


def coded_primary(path, item=None):
    """(item type, coded bytes, [property boxes]) of the primary image of a heif-enc output (or of `item`)."""
    d = open(path, "rb").read()
    _, mb, me = child(d, 0, len(d), "meta")
    mb += 4  # FullBox
    _, pb, _ = child(d, mb, me, "pitm")
    primary = item or struct.unpack(">H", d[pb + 4:pb + 6])[0]
    # item types
    _, ib, ie = child(d, mb, me, "iinf")
    types = {}
    for k, s, b, e in boxes(d, ib + 4 + 2, ie):
        item, _, kind = struct.unpack(">HH4s", d[b + 4:b + 12])
        types[item] = kind.decode()
    # extents (iloc version 0/1, as heif-enc writes)
    _, lb, le = child(d, mb, me, "iloc")
    version = d[lb]
    sizes = d[lb + 4], d[lb + 5]
    off_size, len_size, base_size = sizes[0] >> 4, sizes[0] & 15, sizes[1] >> 4
    index_size = sizes[1] & 15 if version >= 1 else 0
    p = lb + 6
    count = struct.unpack(">H", d[p:p + 2])[0]; p += 2

    def num(n):
        nonlocal p
        v = int.from_bytes(d[p:p + n], "big") if n else 0
        p += n
        return v
    data = {}
    for _ in range(count):
        item = num(2)
        if version >= 1:
            num(2)
        num(2)
        base = num(base_size)
        chunks = b""
        for _ in range(num(2)):
            num(index_size)
            off, length = num(off_size), num(len_size)
            chunks += d[base + off:base + off + length]
        data[item] = chunks
    # properties
    _, rb, re_ = child(d, mb, me, "iprp")
    _, cb, ce = child(d, rb, re_, "ipco")
    props = [d[s:e] for _, s, _, e in boxes(d, cb, ce)]
    _, ab, ae = child(d, rb, re_, "ipma")
    flags = int.from_bytes(d[ab + 1:ab + 4], "big")
    q = ab + 4
    entries = struct.unpack(">I", d[q:q + 4])[0]; q += 4
    assoc = {}
    for _ in range(entries):
        item = struct.unpack(">H", d[q:q + 2])[0]; q += 2
        n = d[q]; q += 1
        indices = []
        for _ in range(n):
            if flags & 1:
                v = struct.unpack(">H", d[q:q + 2])[0]; q += 2; indices.append(v & 0x7FFF)
            else:
                indices.append(d[q] & 0x7F); q += 1
        assoc[item] = indices
    return types[primary], data[primary], [props[i - 1] for i in assoc[primary] if i > 0]


def identities():
    """Identity-derived items (iden, ISO/IEC 23008-12 §6.6.2.1), which libheif 1.15 neither decodes nor opens a
    file holding, laid out as nokiatech's heif_conformance C008, C014 and C023 are: a primary identity whose clean
    aperture and rotation apply in order to a hidden coded item; an identity (a mirror, then a half turn) over an
    item with a rotation of its own, alone and with an alpha image whose auxl names the identity (refused: the alpha
    image's own transforms make it the identity's size, which libheif 1.15 cannot be told); and a plain primary
    beside hidden identities and a hidden grid of them. (MIAF forbids an identity of an identity: libheif 1.23 refuses one.)"""
    kind, data, props = coded_primary(os.path.join(OUT, "heic_q80_96x64.heic"))
    # clap: 48×40, its centre 6 right and 2 up of the picture's (−4/2) — then a quarter turn anticlockwise.
    clap = box("clap", struct.pack(">IIIIiIiI", 48, 1, 40, 1, 6, 1, -4, 2))
    irot = lambda turns: box("irot", bytes([turns]))
    imir = lambda axis: box("imir", bytes([axis]))
    write("heic_iden_clap_irot_40x48.heic", "heic",
          [{"id": 1, "type": kind, "data": data, "props": props, "hidden": True},
           {"id": 2, "type": "iden", "props": [ispe(96, 64), clap, irot(1)]}], 2, refs=[("dimg", 2, [1])])
    alpha_file = os.path.join(OUT, "heic_alpha_96x64.heic")
    kind, colour, colour_props = coded_primary(alpha_file)
    _, alpha, alpha_props = coded_primary(alpha_file, 2)
    write("heic_iden_mirror_64x96.heic", "heic",
          [{"id": 1, "type": kind, "data": colour, "props": colour_props + [irot(1)], "hidden": True},
           {"id": 2, "type": "iden", "props": [ispe(64, 96), imir(1), irot(2)]}], 2, refs=[("dimg", 2, [1])])
    write("heic_iden_alpha_64x96.heic", "heic",
          [{"id": 1, "type": kind, "data": colour, "props": colour_props + [irot(1)], "hidden": True},
           {"id": 2, "type": kind, "data": alpha, "props": alpha_props + [irot(1)], "hidden": True},
           {"id": 3, "type": "iden", "props": [ispe(64, 96), imir(1), irot(2)]}], 3,
          refs=[("dimg", 3, [1]), ("auxl", 2, [3])])
    grid = struct.pack(">BBBBHH", 0, 0, 0, 1, 96, 64)
    write("heic_iden_beside_96x64.heic", "heic",
          [{"id": 1, "type": kind, "data": data, "props": props},
           {"id": 2, "type": "iden", "props": [ispe(96, 64), imir(0)], "hidden": True},
           {"id": 3, "type": "iden", "props": [ispe(96, 64), irot(2)], "hidden": True},
           {"id": 4, "type": "grid", "idat": (0, len(grid)), "props": [ispe(192, 64)], "hidden": True}], 1,
          refs=[("dimg", 2, [1]), ("dimg", 3, [1]), ("dimg", 4, [2, 3])], idat=grid)


# --- ISOBMFF writing ---------------------------------------------------------------------------------------------

def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind.encode()) + body


def full(kind, version, flags, body):
    return box(kind, struct.pack(">I", version << 24 | flags) + body)


def ispe(w, h):
    return full("ispe", 0, 0, struct.pack(">II", w, h))


def write(path, brand, items, primary, refs=(), idat=b""):
    """items: dicts with id, type, data (bytes in mdat) or idat (offset, length), props [boxes], hidden."""
    props, assoc = [], []
    for item in items:
        indices = []
        for p in item["props"]:
            if p not in props:
                props.append(p)
            essential = p[4:8] in (b"hvcC", b"av1C", b"irot", b"imir", b"clap")
            indices.append((props.index(p) + 1) | (0x80 if essential else 0))
        assoc.append((item["id"], indices))
    ipma = struct.pack(">I", len(assoc)) + b"".join(
        struct.pack(">HB", i, len(ix)) + bytes(ix) for i, ix in assoc)
    iprp = box("iprp", box("ipco", b"".join(props)) + full("ipma", 0, 0, ipma))
    iinf = full("iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(
        full("infe", 2, 1 if it.get("hidden") else 0, struct.pack(">HH4s", it["id"], 0, it["type"].encode()) + b"\0")
        for it in items))
    iref = full("iref", 0, 0, b"".join(
        box(kind, struct.pack(">HH", src, len(to)) + b"".join(struct.pack(">H", t) for t in to))
        for kind, src, to in refs)) if refs else b""
    ftyp = box("ftyp", brand.encode() + struct.pack(">I", 0) + b"".join(
        b.encode() for b in (brand, "mif1", "miaf")))

    def meta(mdat_start):
        entries, offset = b"", mdat_start + 8
        for it in items:
            if "idat" not in it and "data" not in it:
                continue
            if "idat" in it:
                off, length = it["idat"]
                entries += struct.pack(">HHHHII", it["id"], 1, 0, 1, off, length)
            else:
                entries += struct.pack(">HHHHII", it["id"], 0, 0, 1, offset, len(it["data"]))
                offset += len(it["data"])
        located = sum(1 for it in items if "idat" in it or "data" in it)
        iloc = full("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", located) + entries)
        body = (full("hdlr", 0, 0, struct.pack(">I4s12s", 0, b"pict", b"\0" * 12) + b"\0")
                + full("pitm", 0, 0, struct.pack(">H", primary)) + iloc + iinf + iref
                + (box("idat", idat) if idat else b"") + iprp)
        return full("meta", 0, 0, body)
    size = len(meta(0))
    m = meta(len(ftyp) + size)
    mdat = box("mdat", b"".join(it["data"] for it in items if "data" in it))
    with open(os.path.join(OUT, path), "wb") as f:
        f.write(ftyp + m + mdat)


def set_nclx(name, primaries, transfer):
    """Rewrites the primaries and transfer of a file's nclx colour box (same size, so nothing else moves)."""
    path = os.path.join(OUT, name)
    d = bytearray(open(path, "rb").read())
    at = d.find(b"colrnclx")
    assert at > 0, name
    d[at + 8:at + 12] = struct.pack(">HH", primaries, transfer)
    open(path, "wb").write(bytes(d))


def without(props, kind):
    return [p for p in props if p[4:8] != kind.encode()]


def main():
    os.makedirs(OUT, exist_ok=True)
    rgb8 = crop("chelsea_451x300_rgb8.png", 150, 60, 96, 64, "rgb8.png")
    rgba8 = crop("emerald_crop_320x240_rgba8.png", 100, 80, 96, 64, "rgba8.png")
    rgb16 = crop("kleiber_crop_320x240_rgb16.png", 100, 80, 96, 64, "rgb16.png")
    for src, name in ((rgb8, "rgb8"), (rgba8, "rgba8"), (rgb16, "rgb16")):
        run("cp", src, os.path.join(OUT, f"{name}_96x64.source.png"))

    enc(rgb8, "heic_q80_96x64.heic", "-q", "80")
    enc(rgb8, "avif_q80_96x64.avif", "-A", "-q", "80")
    # Lossless AV1 of YCbCr 4:4:4 (heif-enc 1.15 ignores --matrix_coefficients=0, see below), so a few samples
    # come back one code off the source.
    enc(rgb8, "avif_lossless_96x64.avif", "-A", "-L", "-p", "chroma=444")
    enc(rgba8, "avif_alpha_96x64.avif", "-A", "-q", "90")
    enc(rgba8, "heic_alpha_96x64.heic", "-q", "90")
    # libheif 1.15 asks libaom for profile 2 at every depth over 8 bits, where 10 bits allows only 4:2:2.
    enc(rgb16, "avif_10bit_96x64.avif", "-A", "-b", "10", "-q", "90", "-p", "chroma=422")
    enc(rgb16, "avif_12bit_96x64.avif", "-A", "-b", "12", "-q", "90")
    enc(rgb16, "heic_10bit_96x64.heic", "-b", "10", "-q", "90")
    # Display P3 (SMPTE EG 432-1 primaries) with the sRGB curve: colour a viewer converts. heif-enc 1.15 writes
    # its default code points whatever it is told (the encoder reads the image's, not the options'), so the colr
    # box is rewritten: the samples are then declared P3, which is what a P3 camera file is.
    enc(rgb8, "avif_p3_96x64.avif", "-A", "-q", "90")
    set_nclx("avif_p3_96x64.avif", 12, 13)
    # HDR: BT.2020 primaries with the PQ and HLG curves, 10-bit.
    for curve, name in ((16, "pq"), (18, "hlg")):
        enc(rgb16, f"avif_{name}_10bit_96x64.avif", "-A", "-b", "10", "-q", "90", "-p", "chroma=422")
        set_nclx(f"avif_{name}_10bit_96x64.avif", 9, curve)

    # Grids of 2×2 tiles, the right and bottom ones cropped by the canvas. HEVC tiles are 64×64: x265 codes in
    # 64-pixel blocks and heif-enc wraps any other size in a grid of its own.
    for kind, brand, (tw, th, cw, ch), options in (
            ("avif", "avif", (48, 32, 90, 60), ["-A", "-L", "-p", "chroma=444"]),
            ("heic", "heic", (64, 64, 120, 100), ["-q", "90"])):
        tiles = []
        for row in range(2):
            for col in range(2):
                t = crop("chelsea_451x300_rgb8.png", 150 + tw * col, 60 + th * row, tw, th, f"tile{row}{col}.png")
                coded = os.path.join(tmp, f"tile{row}{col}.{kind}")
                run("heif-enc", *options, "-o", coded, t)
                tiles.append(coded_primary(coded))
                assert tiles[-1][0] in ("av01", "hvc1"), "heif-enc wrapped a tile in a grid"
        items = [{"id": i + 1, "type": t[0], "data": t[1], "props": t[2], "hidden": True} for i, t in enumerate(tiles)]
        grid = struct.pack(">BBBBHH", 0, 0, 1, 1, cw, ch)
        # The grid's own bit depth (readers take the canvas's depth from it).
        pixi = full("pixi", 0, 0, bytes([3, 8, 8, 8]))
        items.append({"id": 5, "type": "grid", "idat": (0, len(grid)), "props": [ispe(cw, ch), pixi]})
        write(f"{kind}_grid_2x2_{cw}x{ch}.{kind}", brand, items, 5, refs=[("dimg", 5, [1, 2, 3, 4])], idat=grid)
        # What the grid shows: the tiles' source region, for the lossless AVIF tiles.
        crop("chelsea_451x300_rgb8.png", 150, 60, cw, ch, f"grid_{kind}.png")
    run("cp", os.path.join(tmp, "grid_avif.png"), os.path.join(OUT, "grid_90x60.source.png"))

    # Transforms: irot 1 (90° anticlockwise) then imir (axis 1: left and right swap), on the lossless image.
    kind, data, props = coded_primary(os.path.join(OUT, "avif_lossless_96x64.avif"))
    irot = box("irot", bytes([1]))
    imir = box("imir", bytes([1]))
    write("avif_irot90_64x96.avif", "avif", [{"id": 1, "type": kind, "data": data, "props": props + [irot]}], 1)
    write("avif_irot90_imir_64x96.avif", "avif",
          [{"id": 1, "type": kind, "data": data, "props": props + [irot, imir]}], 1)
    # An EXIF block saying orientation 6 beside no transform at all: HEIF's transforms are the only ones applied.
    tiff = b"MM\0\x2a\0\0\0\x08" + struct.pack(">HHHIHH", 1, 0x0112, 3, 1, 6, 0) + b"\0\0\0\0"
    exif = struct.pack(">I", 0) + tiff
    write("avif_exif6_no_irot_96x64.avif", "avif",
          [{"id": 1, "type": kind, "data": data, "props": props},
           {"id": 2, "type": "Exif", "data": exif, "props": []}], 1, refs=[("cdsc", 2, [1])])
    # A collection of two images whose primary is the second (the lossless one).
    _, lossy, lossy_props = coded_primary(os.path.join(OUT, "avif_q80_96x64.avif"))
    write("avif_collection_primary2_96x64.avif", "avif",
          [{"id": 1, "type": kind, "data": lossy, "props": lossy_props},
           {"id": 2, "type": kind, "data": data, "props": props}], 2)
    light_levels()
    sequences()
    identities()


def sequences():
    """AVIF image sequences (brand avis) from avifenc (Debian's libavif-bin 0.11, libaom): four lossless 96×64
    crops of chelsea with durations of 10, 20, 30 and 40 hundredths (timescale 100), the crops kept beside it as
    `sequence_frame{0..3}.source.png`; and three lossless RGBA crops of emerald (partly transparent), 50 ms each."""
    frames, alpha = [], []
    for i in range(4):
        frames += ["--duration", str(10 * (i + 1)), crop("chelsea_451x300_rgb8.png", 40 * i, 20 * i, 96, 64, f"seq{i}.png")]
        run("cp", frames[-1], os.path.join(OUT, f"sequence_frame{i}.source.png"))
    run("avifenc", "-l", "--timescale", "100", *frames, os.path.join(OUT, "avif_sequence_4frames_96x64.avif"))
    for i in range(3):
        alpha.append(crop("emerald_crop_320x240_rgba8.png", 60 * i, 40, 96, 64, f"alpha{i}.png"))
        run("cp", alpha[-1], os.path.join(OUT, f"sequence_alpha{i}.source.png"))
    run("avifenc", "-l", "--timescale", "1000", "--duration", "50", *alpha, os.path.join(OUT, "avif_sequence_alpha_96x64.avif"))
    """The PQ file again with the light levels a grade declares: clli (MaxCLL 4000, MaxFALL 400 cd/m²) and mdcv
    (BT.2020 primaries, D65, a 4000 cd/m² mastering display), as the HDR tone map reads them."""
    kind, data, props = coded_primary(os.path.join(OUT, "avif_pq_10bit_96x64.avif"))
    clli = box("clli", struct.pack(">HH", 4000, 400))
    # Primaries in G, B, R order and the white point, in 0.00002 units; luminance in 0.0001 cd/m².
    mdcv = box("mdcv", struct.pack(">8H2I", 8500, 39850, 6550, 2300, 35400, 14600, 15635, 16450, 40000000, 50))
    write("avif_pq_clli4000_96x64.avif", "avif", [{"id": 1, "type": kind, "data": data, "props": props + [clli, mdcv]}], 1)


if __name__ == "__main__":
    main()
