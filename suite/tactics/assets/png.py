"""RGBA arrays as PNG files, with numpy and zlib only (no pygame): how the server hands a
pack's decoded bitmaps to a browser (`suite.net.server.tactics_art`).

`encode_png` writes one 8-bit RGBA image, no filtering, at a fixed compression level, so
the same pixels always give the same bytes (their hash names them in a URL).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
import numpy.typing as npt

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 6
"""zlib level: the bytes depend on it, so it never changes between calls."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_png(rgba: npt.NDArray[np.uint8]) -> bytes:
    """`rgba` (h x w x 4 uint8, straight alpha) as a PNG file; ValueError for another
    shape or an empty image."""
    if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.shape[0] == 0 or rgba.shape[1] == 0:
        raise ValueError(f"a PNG is made of an h x w x 4 array, not {rgba.shape}")
    height, width = int(rgba.shape[0]), int(rgba.shape[1])
    rows = np.zeros((height, width * 4 + 1), dtype=np.uint8)  # filter byte 0 per row
    rows[:, 1:] = np.ascontiguousarray(rgba, dtype=np.uint8).reshape(height, width * 4)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), LEVEL))
        + _chunk(b"IEND", b"")
    )
