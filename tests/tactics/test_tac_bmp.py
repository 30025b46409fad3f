"""8-bit palette BMP reading: uncompressed, RLE8 (hand-made streams), headers, bad files."""

from __future__ import annotations

import io
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from suite.tactics.assets.bmp import BmpError, encode_bmp, read_bmp

PAL = np.stack([np.arange(256), 255 - np.arange(256), np.zeros(256)], axis=1).astype(np.uint8)


def handmade(width: int, height: int, pixels: bytes, compression: int, bits: int = 8) -> bytes:
    """A BMP with a 40-byte header, a 256-entry palette (red = index) and raw pixel bytes."""
    table = b"".join(bytes((0, 255 - i, i, 0)) for i in range(256))
    offset = 14 + 40 + len(table)
    head = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack(
        "<IiiHHIIiiII", 40, width, height, 1, bits, compression, len(pixels), 0, 0, 256, 0
    )
    return head + info + table + pixels


def test_uncompressed_rows_are_padded_and_bottom_up() -> None:
    # 3x2: file rows bottom first, each padded to 4 bytes
    data = handmade(3, 2, bytes([7, 8, 9, 0, 1, 2, 3, 0]), 0)
    bitmap = read_bmp(data)
    assert bitmap.indices.tolist() == [[1, 2, 3], [7, 8, 9]]
    assert bitmap.palette[200].tolist() == [200, 55, 0]


def test_top_down_image() -> None:
    data = handmade(2, -2, bytes([1, 2, 0, 0, 3, 4, 0, 0]), 0)
    assert read_bmp(data).indices.tolist() == [[1, 2], [3, 4]]


def test_rle8_runs_absolute_mode_delta_and_end_markers() -> None:
    stream = bytes(
        [
            3,
            5,  # run: 5 5 5 (bottom row)
            0,
            3,
            1,
            2,
            3,
            0,  # absolute: 1 2 3, padded to a word
            0,
            0,  # end of line
            0,
            2,
            2,
            1,  # delta: right 2, up 1 (skips the middle row)
            2,
            9,  # run: 9 9 in the top row at x = 2
            0,
            1,  # end of bitmap
        ]
    )
    bitmap = read_bmp(handmade(6, 3, stream, 1))
    assert bitmap.indices.tolist() == [
        [0, 0, 9, 9, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [5, 5, 5, 1, 2, 3],
    ]


def test_rle8_odd_and_even_absolute_runs() -> None:
    stream = bytes([0, 4, 1, 2, 3, 4, 0, 0, 0, 3, 7, 8, 9, 0, 1, 6, 0, 1])
    bitmap = read_bmp(handmade(4, 2, stream, 1))
    assert bitmap.indices.tolist() == [[7, 8, 9, 6], [1, 2, 3, 4]]


def test_rle8_without_end_marker_is_rejected() -> None:
    with pytest.raises(BmpError, match="no end-of-bitmap"):
        read_bmp(handmade(2, 1, bytes([2, 1]), 1))


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(
        np.uint8, st.tuples(st.integers(1, 9), st.integers(1, 300)), elements=st.integers(0, 5)
    )
)
def test_rle8_and_plain_round_trip(indices: np.ndarray) -> None:
    for rle in (False, True):
        decoded = read_bmp(encode_bmp(indices, PAL, rle8=rle), "skin")
        assert np.array_equal(decoded.indices, indices)
        assert np.array_equal(decoded.palette, PAL)


def test_sdl_reads_our_rle8_the_same_way() -> None:
    pygame = pytest.importorskip("pygame")
    rng = np.random.default_rng(3)
    indices = rng.integers(0, 4, (11, 13)).astype(np.uint8)
    indices[4] = 6
    surface = pygame.image.load(io.BytesIO(encode_bmp(indices, PAL, rle8=True)), "x.bmp")
    assert np.array_equal(pygame.surfarray.array2d(surface).T, indices)


def test_os2_header() -> None:
    table = b"".join(bytes((0, 0, i)) for i in range(256))
    offset = 14 + 12 + len(table)
    pixels = bytes([4, 5, 0, 0])
    data = (
        struct.pack("<2sIHHI", b"BM", offset + 4, 0, 0, offset)
        + struct.pack("<IHHHH", 12, 2, 1, 1, 8)
        + table
        + pixels
    )
    bitmap = read_bmp(data)
    assert bitmap.indices.tolist() == [[4, 5]]
    assert bitmap.red().tolist() == [[4, 5]]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PK\x03\x04" + bytes(40), "no 'BM' signature"),
        (handmade(2, 2, bytes(16), 0, bits=24), "not an 8-bit palette BMP \\(24 bits"),
        (handmade(2, 2, bytes(8), 3), "unsupported BMP compression 3"),
        (handmade(4, 4, bytes(3), 0), "pixel data is truncated"),
        (handmade(0, 4, bytes(3), 0), "bad BMP size"),
    ],
)
def test_bad_files(data: bytes, message: str) -> None:
    with pytest.raises(BmpError, match=message):
        read_bmp(data)


def reference_rle8(body: bytes, width: int, height: int) -> np.ndarray:
    """The plain one-command-at-a-time RLE8 reader the numpy decoder replaced (kept here
    as the specification the fuzz test compares against)."""
    out = np.zeros((height, width), dtype=np.uint8)
    x = y = i = 0
    n = len(body)
    while i + 1 < n:
        count, value = body[i], body[i + 1]
        i += 2
        if count:
            if y < height and x < min(width, x + count):
                out[y, x : min(width, x + count)] = value
            x += count
        elif value == 0:
            x, y = 0, y + 1
        elif value == 1:
            return out
        elif value == 2:
            if i + 1 >= n:
                break
            x, y, i = x + body[i], y + body[i + 1], i + 2
        else:
            literal = body[i : i + value]
            if len(literal) < value:
                raise BmpError("RLE8 data is truncated")
            if y < height and x < width:
                take = min(width - x, value)
                out[y, x : x + take] = np.frombuffer(literal[:take], dtype=np.uint8)
            x += value
            i += value + (value & 1)
    raise BmpError("RLE8 data has no end-of-bitmap marker")


COMMAND = st.one_of(
    st.tuples(st.integers(1, 12), st.integers(0, 255)).map(bytes),  # a run
    st.just(b"\x00\x00"),  # end of line
    st.tuples(st.integers(0, 9), st.integers(0, 3)).map(lambda d: bytes((0, 2, *d))),  # delta
    st.lists(st.integers(0, 255), min_size=3, max_size=11).map(
        lambda lit: bytes((0, len(lit), *lit)) + bytes(len(lit) & 1)
    ),
    st.binary(min_size=1, max_size=3),  # junk that shifts or cuts the stream
)


@settings(max_examples=400, deadline=None)
@given(st.lists(COMMAND, max_size=30), st.booleans(), st.integers(1, 12), st.integers(1, 6))
def test_numpy_rle8_matches_the_plain_reader(
    commands: list[bytes], end: bool, width: int, height: int
) -> None:
    body = b"".join(commands) + (b"\x00\x01" if end else b"")
    try:
        expected = reference_rle8(body, width, height)
    except BmpError as exc:
        with pytest.raises(BmpError, match=str(exc)):
            read_bmp(handmade(width, height, body, 1))
        return
    assert read_bmp(handmade(width, height, body, 1)).indices[::-1].tolist() == expected.tolist()


def test_one_pixel_runs_decode_in_one_pass() -> None:
    """The report's slow case (a wide skin of 1-pixel runs) decodes to the right pixels."""
    width, height = 2048, 64
    values = (np.arange(width * height) % 251).astype(np.uint8).reshape(height, width)
    pairs = np.stack([np.ones_like(values), values], axis=2).reshape(height, -1)
    body = b"".join(bytes(row) + b"\x00\x00" for row in pairs)[:-2] + b"\x00\x01"
    assert np.array_equal(read_bmp(handmade(width, height, body, 1), "skin").indices[::-1], values)
