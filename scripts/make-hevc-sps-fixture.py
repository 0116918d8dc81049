#!/usr/bin/env python3
"""Writes Tests/Fixtures/heif/hostile/sps-16384x16384.heic: heic_q80_96x64.heic with its HEVC sequence parameter set
rewritten to declare a 16384×16384 picture (its 'ispe' still says 96×64), the damage that makes a decoder allocate
for a picture the image does not have. The SPS is re-coded bit for bit (H.265 §7.3.2.2) and the file re-assembled
by make-heif-fixtures.py's ISOBMFF writer. Run from the repository root: python3 scripts/make-hevc-sps-fixture.py
"""
import importlib.util, os, struct

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(here, "make-heif-fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)


def unescape(nal):
    out, zeros = bytearray(), 0
    for byte in nal:
        if zeros >= 2 and byte == 3:
            zeros = 0
            continue
        out.append(byte)
        zeros = zeros + 1 if byte == 0 else 0
    return bytes(out)


def escape(rbsp):
    out, zeros = bytearray(), 0
    for byte in rbsp:
        if zeros >= 2 and byte <= 3:
            out.append(3)
            zeros = 0
        out.append(byte)
        zeros = zeros + 1 if byte == 0 else 0
    return bytes(out)


def golomb(value):
    code = bin(value + 1)[2:]
    return "0" * (len(code) - 1) + code


def rewrite_sps(nal, width, height):
    bits = "".join(f"{b:08b}" for b in unescape(nal))
    at = 16 + 4  # NAL header, sps_video_parameter_set_id
    sub_layers = int(bits[at:at + 3], 2); at += 3 + 1 + 88 + 8
    present = []
    for _ in range(sub_layers):
        present.append((bits[at] == "1", bits[at + 1] == "1")); at += 2
    if sub_layers:
        at += 2 * (8 - sub_layers)
    for profile, level in present:
        at += (88 if profile else 0) + (8 if level else 0)

    def skip_golomb():
        nonlocal at
        zeros = 0
        while bits[at] == "0":
            zeros += 1; at += 1
        value = int(bits[at:at + zeros + 1], 2) - 1
        at += zeros + 1
        return value
    skip_golomb()  # sps_seq_parameter_set_id
    if skip_golomb() == 3:  # chroma_format_idc
        at += 1
    start = at
    skip_golomb(); skip_golomb()  # pic_width_in_luma_samples, pic_height_in_luma_samples
    payload = bits[:start] + golomb(width) + golomb(height) + bits[at:bits.rindex("1")]
    payload += "1" + "0" * (-(len(payload) + 1) % 8)  # rbsp_trailing_bits
    return escape(bytes(int(payload[i:i + 8], 2) for i in range(0, len(payload), 8)))


def main():
    kind, data, props = fixtures.coded_primary("Tests/Fixtures/heif/heic_q80_96x64.heic")
    rewritten = []
    for prop in props:
        if prop[4:8] != b"hvcC":
            rewritten.append(prop)
            continue
        body = bytearray(prop[8:])
        head, arrays, at = bytes(body[:22]), [], 23
        for _ in range(body[22]):
            nal_type, count = body[at], struct.unpack(">H", body[at + 1:at + 3])[0]; at += 3
            units = []
            for _ in range(count):
                length = struct.unpack(">H", body[at:at + 2])[0]; at += 2
                unit = bytes(body[at:at + length]); at += length
                units.append(rewrite_sps(unit, 16384, 16384) if (nal_type & 63) == 33 else unit)
            arrays.append((nal_type, units))
        payload = head + bytes([len(arrays)]) + b"".join(
            bytes([t]) + struct.pack(">H", len(us)) + b"".join(struct.pack(">H", len(u)) + u for u in us) for t, us in arrays)
        rewritten.append(fixtures.box("hvcC", payload))
    fixtures.OUT = "Tests/Fixtures/heif/hostile"
    fixtures.write("sps-16384x16384.heic", "heic", [{"id": 1, "type": kind, "data": data, "props": rewritten}], 1)


if __name__ == "__main__":
    main()
