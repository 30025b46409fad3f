"""8-bit palette BMP files, read and written with numpy only (no pygame).

`read_bmp` accepts uncompressed (BI_RGB) and RLE8 (BI_RLE8) 8-bit images with a Windows
(40+ byte) or OS/2 (12 byte) header, bottom-up or top-down, and returns the palette
indices (row 0 = top) with the palette as RGB. Anything else raises `BmpError` with a
message fit to show a modder. Readers name the `kind` of image ("map", "elevation",
"tile", "skin"): the file size and the size the header claims are checked against that
kind's limits (`limits.toml`) before anything is allocated (`PackLimitError`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from suite.tactics.assets.limits import check_dimensions, limits, read_limited

BI_RGB = 0
BI_RLE8 = 1


class BmpError(ValueError):
    """The bytes are not a readable 8-bit palette BMP."""


@dataclass(frozen=True)
class Bitmap:
    """`indices[y, x]` (uint8, row 0 at the top) and `palette[i] = (r, g, b)` (256 x 3)."""

    indices: npt.NDArray[np.uint8]
    palette: npt.NDArray[np.uint8]

    @property
    def width(self) -> int:
        return int(self.indices.shape[1])

    @property
    def height(self) -> int:
        return int(self.indices.shape[0])

    def red(self) -> npt.NDArray[np.uint8]:
        """The red component of each pixel's palette colour (elevation bitmaps)."""
        result: npt.NDArray[np.uint8] = self.palette[self.indices, 0]
        return result


def load_bmp(path: Path, kind: str = "tile") -> Bitmap:
    """Read a BMP file of `kind`; `BmpError` when it is not an 8-bit palette image,
    `PackLimitError` past the kind's limits, `OSError` when the file cannot be read."""
    data = read_limited(path, limits().image(kind)[2], f"a {kind} bitmap")
    return read_bmp(data, kind, path.name)


def read_bmp(data: bytes, kind: str = "tile", name: str = "bitmap") -> Bitmap:
    """Decode BMP bytes (see the module docstring for what is accepted); the size the
    header claims is checked against `kind`'s limit first (`PackLimitError` names `name`)."""
    if len(data) < 26 or data[:2] != b"BM":
        raise BmpError("not a BMP file (no 'BM' signature)")
    (pixel_offset,) = struct.unpack_from("<I", data, 10)
    (header_size,) = struct.unpack_from("<I", data, 14)
    if header_size == 12:
        width, height, _planes, bits = struct.unpack_from("<HHHH", data, 18)
        compression, colours_used, entry = BI_RGB, 0, 3
    elif header_size >= 40 and len(data) >= 14 + 40:
        width, height, _planes, bits, compression = struct.unpack_from("<iiHHI", data, 18)
        (colours_used,) = struct.unpack_from("<I", data, 46)
        entry = 4
    else:
        raise BmpError(f"unsupported BMP header size {header_size}")
    if bits != 8:
        raise BmpError(f"not an 8-bit palette BMP ({bits} bits per pixel)")
    if compression not in (BI_RGB, BI_RLE8):
        raise BmpError(f"unsupported BMP compression {compression}")
    top_down = height < 0
    height = abs(height)
    if width <= 0 or height <= 0:
        raise BmpError(f"bad BMP size {width}x{height}")
    check_dimensions(name, width, height, kind)
    count = colours_used or 256
    start = 14 + header_size
    table = data[start : start + count * entry]
    if len(table) < count * entry:
        raise BmpError("BMP palette is truncated")
    palette = np.zeros((256, 3), dtype=np.uint8)
    raw = np.frombuffer(table, dtype=np.uint8).reshape(count, entry)[:256]
    palette[: len(raw)] = raw[:, 2::-1]  # stored as B, G, R(, 0)
    body = data[pixel_offset:]
    if compression == BI_RLE8:
        rows = _decode_rle8(body, width, height)
    else:
        stride = (width + 3) & ~3
        if len(body) < stride * height:
            raise BmpError("BMP pixel data is truncated")
        rows = np.frombuffer(body[: stride * height], dtype=np.uint8)
        rows = rows.reshape(height, stride)[:, :width]
    indices = rows if top_down else rows[::-1]
    return Bitmap(np.ascontiguousarray(indices, dtype=np.uint8), palette)


def _decode_rle8(body: bytes, width: int, height: int) -> npt.NDArray[np.uint8]:
    """RLE8 pixels in file row order (bottom row first for bottom-up images)."""
    out = np.zeros((height, width), dtype=np.uint8)
    x = y = i = 0
    n = len(body)
    while i + 1 < n:
        count, value = body[i], body[i + 1]
        i += 2
        if count:
            if y < height:
                stop = min(width, x + count)
                if x < stop:
                    out[y, x:stop] = value
            x += count
        elif value == 0:  # end of line
            x, y = 0, y + 1
        elif value == 1:  # end of bitmap
            return out
        elif value == 2:  # delta
            if i + 1 >= n:
                break
            x += body[i]
            y += body[i + 1]
            i += 2
        else:  # absolute run of `value` literal bytes, padded to a word
            literal = body[i : i + value]
            if len(literal) < value:
                raise BmpError("RLE8 data is truncated")
            if y < height and x < width:
                take = min(width - x, value)
                out[y, x : x + take] = np.frombuffer(literal[:take], dtype=np.uint8)
            x += value
            i += value + (value & 1)
    raise BmpError("RLE8 data has no end-of-bitmap marker")


def encode_bmp(
    indices: npt.NDArray[np.uint8], palette: npt.NDArray[np.uint8], rle8: bool = False
) -> bytes:
    """BMP bytes of an 8-bit image (bottom-up, 256-colour palette), RLE8 when asked."""
    height, width = indices.shape
    rows = np.asarray(indices, dtype=np.uint8)[::-1]
    if rle8:
        pixels = _encode_rle8(rows)
        compression = BI_RLE8
    else:
        stride = (width + 3) & ~3
        padded = np.zeros((height, stride), dtype=np.uint8)
        padded[:, :width] = rows
        pixels = padded.tobytes()
        compression = BI_RGB
    table = np.zeros((256, 4), dtype=np.uint8)
    table[:, :3] = np.asarray(palette, dtype=np.uint8)[:256, ::-1]
    offset = 14 + 40 + 256 * 4
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack(
        "<IiiHHIIiiII", 40, width, height, 1, 8, compression, len(pixels), 2835, 2835, 256, 0
    )
    return header + info + table.tobytes() + pixels


def save_bmp(
    path: Path, indices: npt.NDArray[np.uint8], palette: npt.NDArray[np.uint8], rle8: bool = False
) -> None:
    """Write `encode_bmp(...)` to `path`."""
    path.write_bytes(encode_bmp(indices, palette, rle8))


def _flush_literal(out: bytearray, literal: bytes) -> None:
    """Append literal bytes: absolute runs of 3-255 bytes (word padded), shorter tails as
    runs of one."""
    for begin in range(0, len(literal), 255):
        chunk = literal[begin : begin + 255]
        if len(chunk) < 3:
            for byte in chunk:
                out.extend((1, byte))
            continue
        out.extend((0, len(chunk)))
        out.extend(chunk)
        if len(chunk) & 1:
            out.append(0)


def _encode_rle8(rows: npt.NDArray[np.uint8]) -> bytes:
    """RLE8: runs of 2+ equal bytes as (count, value), other stretches as absolute runs;
    each row ends with (0, 0) except the last, which ends with (0, 1)."""
    out = bytearray()
    for row in rows:
        data = bytes(row)
        i, n = 0, len(data)
        literal = bytearray()
        while i < n:
            run = 1
            while i + run < n and run < 255 and data[i + run] == data[i]:
                run += 1
            if run >= 2:
                _flush_literal(out, bytes(literal))
                literal.clear()
                out.extend((run, data[i]))
            else:
                literal.append(data[i])
            i += run
        _flush_literal(out, bytes(literal))
        out.extend((0, 0))
    out[-2:] = bytes((0, 1))
    return bytes(out)
