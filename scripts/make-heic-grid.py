#!/usr/bin/env python3
"""Writes a HEIC laid out as phones write them: the picture coded as a grid of 512×512 HEVC tiles (iPhones write
4032×3024 as 8×6 of them), the right and bottom tiles cropped by the canvas. Tiles are coded by heif-enc (x265,
quality 80) and assembled by make-heif-fixtures.py's ISOBMFF writer. Needs heif-enc and vips (libvips-tools).
Usage: python3 scripts/make-heic-grid.py SOURCE.png OUT.heic [TILE]
"""
import importlib.util, math, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(here, "make-heif-fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)


def main():
    source, out = sys.argv[1], os.path.abspath(sys.argv[2])
    tile = int(sys.argv[3]) if len(sys.argv) > 3 else 512
    width, height = (int(subprocess.check_output(["vipsheader", "-f", f, source]).decode()) for f in ("width", "height"))
    columns, rows = math.ceil(width / tile), math.ceil(height / tile)
    work = tempfile.mkdtemp()
    # The picture extended to whole tiles by repeating its edges, as an encoder pads a partial tile.
    padded = os.path.join(work, "padded.v")
    subprocess.run(["vips", "embed", source, padded, "0", "0", str(columns * tile), str(rows * tile),
                    "--extend", "copy"], check=True)
    items = []
    for row in range(rows):
        for column in range(columns):
            png, coded = os.path.join(work, "tile.png"), os.path.join(work, "tile.heic")
            subprocess.run(["vips", "crop", padded, png, str(column * tile), str(row * tile), str(tile), str(tile)],
                           check=True)
            subprocess.run(["heif-enc", "-q", "80", "-o", coded, png], check=True, stdout=subprocess.DEVNULL)
            kind, data, props = fixtures.coded_primary(coded)
            assert kind == "hvc1", "heif-enc wrapped a tile in a grid of its own"
            items.append({"id": len(items) + 1, "type": kind, "data": data, "props": props, "hidden": True})
    grid_id = len(items) + 1
    # version 0, flags 1 (32-bit output sizes), rows − 1, columns − 1, canvas.
    grid = fixtures.struct.pack(">BBBBII", 0, 1, rows - 1, columns - 1, width, height)
    pixi = fixtures.full("pixi", 0, 0, bytes([3, 8, 8, 8]))
    items.append({"id": grid_id, "type": "grid", "idat": (0, len(grid)),
                  "props": [fixtures.ispe(width, height), pixi]})
    fixtures.OUT = os.path.dirname(out)
    fixtures.write(os.path.basename(out), "heic", items, grid_id,
                   refs=[("dimg", grid_id, list(range(1, grid_id)))], idat=grid)


if __name__ == "__main__":
    main()
