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
    """RLE8 pixels in file row order (bottom row first for bottom-up images), with numpy.

    Every command starts on an even offset (an absolute run is padded to a word), so the
    body is read as (count, value) pairs. Only escape pairs (count 0) can skip pairs: the
    escapes that are commands are the chain of jumps from the first escape, found by
    pointer doubling; each command's (x, y) comes from cumulative sums, and runs and
    literals are painted at once."""
    data = np.frombuffer(body, dtype=np.uint8)
    n = len(data) // 2
    count = data[0 : 2 * n : 2].astype(np.int64)
    value = data[1 : 2 * n : 2].astype(np.int64)
    escapes = np.flatnonzero(count == 0)
    if len(escapes) == 0:
        raise BmpError("RLE8 data has no end-of-bitmap marker")
    kind = value[escapes]
    ahead = escapes + 1
    ahead[kind == 2] += 1
    literal = kind >= 3
    ahead[literal] += (kind[literal] + 1) // 2
    heads = escapes[_chain(np.searchsorted(escapes, ahead))]
    kind = value[heads]
    ends = np.flatnonzero(kind == 1)
    cut = heads[(kind >= 3) & (2 * heads + 2 + kind > len(data))]
    if len(cut) and (not len(ends) or cut[0] < heads[ends[0]]):
        raise BmpError("RLE8 data is truncated")
    if not len(ends):
        raise BmpError("RLE8 data has no end-of-bitmap marker")
    stop = int(heads[ends[0]])
    heads, kind = heads[: ends[0]], kind[: ends[0]]
    # every pair before the end that no command skips is a command too
    width_of = np.where(kind == 2, 1, np.where(kind >= 3, (kind + 1) // 2, 0))
    if width_of.any():
        skipped = np.zeros(stop + 1, dtype=np.int64)
        np.add.at(skipped, heads + 1, 1)
        np.add.at(skipped, np.minimum(heads + 1 + width_of, stop), -1)
        command = np.flatnonzero(np.cumsum(skipped[:stop]) == 0)
    else:  # runs and line ends only: every pair is a command
        command = np.arange(stop, dtype=np.int64)
    c_count, c_value = count[command], value[command]
    is_line = (c_count == 0) & (c_value == 0)
    is_delta = (c_count == 0) & (c_value == 2)
    is_literal = (c_count == 0) & (c_value >= 3)
    delta_x = np.where(is_delta, count[np.minimum(command + 1, n - 1)], 0)
    delta_y = np.where(is_delta, value[np.minimum(command + 1, n - 1)], 0)
    advance = np.where(c_count > 0, c_count, np.where(is_literal, c_value, 0)) + delta_x
    down = is_line.astype(np.int64) + delta_y
    y = np.cumsum(down) - down
    total = np.cumsum(advance)
    line_start = np.maximum.accumulate(np.where(is_line, total, 0))
    x = total - advance - np.concatenate(([0], line_start[:-1]))
    out = np.zeros(height * width, dtype=np.uint8)
    visible = (y < height) & (x < width)
    run = visible & (c_count > 0)
    _paint(
        out, y[run] * width + x[run], np.minimum(c_count[run], width - x[run]), None, c_value[run]
    )
    lit = visible & is_literal
    source = 2 * command[lit] + 2
    _paint(out, y[lit] * width + x[lit], np.minimum(c_value[lit], width - x[lit]), data, source)
    return out.reshape(height, width)


def _chain(jump: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Indices on the chain 0 -> jump[0] -> ... (jump only grows; len(jump) ends it), in
    order, by pointer doubling: after round k the first 2^k links are known."""
    size = len(jump)
    hop = np.append(jump, size)
    marked = np.zeros(size + 1, dtype=bool)
    marked[0] = True
    known = np.array([0], dtype=np.int64)
    while True:
        reached = hop[known]
        new = reached[~marked[reached]]
        if not len(new):
            break
        marked[new] = True
        known = np.concatenate([known, new])
        hop = hop[hop]
    return np.flatnonzero(marked[:size])


def _paint(
    out: npt.NDArray[np.uint8],
    starts: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    data: npt.NDArray[np.uint8] | None,
    values: npt.NDArray[np.int64],
) -> None:
    """Fill `lengths[i]` pixels from `starts[i]`: with `values[i]` (a run), or with the
    bytes of `data` from offset `values[i]` (a literal)."""
    total = int(lengths.sum())
    if total == 0:
        return
    if data is None and total == len(starts):  # 1-pixel runs: no spreading needed
        out[starts] = values.astype(np.uint8)
        return
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    where = np.repeat(starts, lengths) + offsets
    if data is None:
        out[where] = np.repeat(values, lengths).astype(np.uint8)
    else:
        out[where] = data[np.repeat(values, lengths) + offsets]


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
