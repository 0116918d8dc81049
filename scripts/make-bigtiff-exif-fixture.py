#!/usr/bin/env python3
"""Rewrites a classic single-page TIFF as a BigTIFF (8-byte counts and offsets, 20-byte entries), its Exif and GPS
directories included, so the reader's BigTIFF walk has a fixture. Strip data is copied; pointers and strip offsets
become LONG8/IFD8. Usage: make-bigtiff-exif-fixture.py IN.tif OUT.tif"""
import struct, sys

SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4}
POINTERS = {34665, 34853}          # Exif, GPS
OFFSETS = {273: 279, 324: 325}     # strip/tile offsets -> their byte counts

data = open(sys.argv[1], 'rb').read()
e = '<' if data[:2] == b'II' else '>'
assert struct.unpack(e + 'H', data[2:4])[0] == 42, 'a classic TIFF'

def read_ifd(offset):
    n = struct.unpack(e + 'H', data[offset:offset + 2])[0]
    entries = []
    for i in range(n):
        tag, typ, count = struct.unpack(e + 'HHI', data[offset + 2 + 12 * i: offset + 10 + 12 * i])
        size = SIZES[typ] * count
        raw = data[offset + 10 + 12 * i: offset + 14 + 12 * i]
        value = raw[:size] if size <= 4 else data[struct.unpack(e + 'I', raw)[0]:][:size]
        entries.append([tag, typ, count, value])
    return entries

def ints(entry):
    tag, typ, count, value = entry
    fmt = {3: 'H', 4: 'I', 13: 'I'}[typ]
    return list(struct.unpack(e + fmt * count, value))

ifd0 = read_ifd(struct.unpack(e + 'I', data[4:8])[0])
subs = {tag: read_ifd(ints(entry)[0]) for entry in ifd0 for tag in [entry[0]] if tag in POINTERS}

out = bytearray(b'II' if e == '<' else b'MM') + struct.pack(e + 'HHHQ', 43, 8, 0, 0)

def align():
    while len(out) % 8: out.append(0)

# Strips first, then each directory with its out-of-line values.
strips = {}
for tag, counts in OFFSETS.items():
    entry = next((x for x in ifd0 if x[0] == tag), None)
    if entry is None: continue
    lengths = ints(next(x for x in ifd0 if x[0] == counts))
    new = []
    for offset, length in zip(ints(entry), lengths):
        align(); new.append(len(out)); out.extend(data[offset:offset + length])
    strips[tag] = new

def write_ifd(entries, pointers):
    values = []
    for tag, typ, count, value in sorted(entries, key=lambda x: x[0]):
        if tag in strips:
            typ, count, value = 16, len(strips[tag]), struct.pack(e + 'Q' * len(strips[tag]), *strips[tag])
        elif tag in pointers:
            typ, count, value = 18, 1, struct.pack(e + 'Q', pointers[tag])
        values.append((tag, typ, count, value))
    # Out-of-line values first.
    placed = []
    for tag, typ, count, value in values:
        if len(value) > 8:
            align(); placed.append(len(out)); out.extend(value)
        else:
            placed.append(None)
    align()
    start = len(out)
    out.extend(struct.pack(e + 'Q', len(values)))
    for (tag, typ, count, value), at in zip(values, placed):
        out.extend(struct.pack(e + 'HHQ', tag, typ, count))
        out.extend(struct.pack(e + 'Q', at) if at is not None else value.ljust(8, b'\0'))
    out.extend(struct.pack(e + 'Q', 0))
    return start

pointers = {tag: write_ifd(entries, {}) for tag, entries in subs.items()}
first = write_ifd(ifd0, pointers)
out[8:16] = struct.pack(e + 'Q', first)
open(sys.argv[2], 'wb').write(out)
