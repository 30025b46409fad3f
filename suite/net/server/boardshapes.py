"""What the browser needs to draw a World War board honestly, worked out once per map.

- `drawn_links`: the neighbours whose shapes do not touch (and are not joined by a sea
  lane, which is drawn anyway), so the board draws a line between them: without it a
  player could not see that they border. Shapes touch when their outlines come within
  `TOUCH` of the board's larger side (two pixels of a board drawn 900 pixels wide); a
  Domination map with its own index image is judged on that image instead (pixels of
  the two territories at most `GAP` pixels apart); a board without shapes links every
  land neighbour.
- `index_png`: a Domination map's index image (`suite.worldwar.artindex`) as an 8-bit
  grey PNG whose pixel values are the board index plus one (0: none), for the browser
  to pick the territory under the pointer by the exact pixel.

Both are cached per map (by its content) so rooms on one map share the work.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from suite.core.board import Board

TOUCH = 2.0 / 900
"""Outlines this close (a fraction of the board's larger side) touch."""
GAP = 3
"""Pixels of another value (a drawn border, say) two territories of an index image may
have between them and still touch."""
KEEP = 32
"""Maps whose results are kept."""

Pair = tuple[int, int]
_links: OrderedDict[str, dict[str, tuple[str, ...]]] = OrderedDict()
_indexes: OrderedDict[tuple[str, int, int], tuple[str, frozenset[Pair]] | None] = OrderedDict()


def _remember(cache: OrderedDict, key: object, value: object) -> None:  # type: ignore[type-arg]
    cache[key] = value
    while len(cache) > KEEP:
        cache.popitem(last=False)


def drawn_links(
    board: Board, touching: frozenset[Pair] | None = None
) -> dict[str, tuple[str, ...]]:
    """Per territory id, its land neighbours drawn joined by a line (both ways listed):
    those whose shapes do not touch, judged on `touching` (index pairs, a < b, from an
    index image) when given, else on the outlines."""
    ids = board.ids()
    key = hashlib.sha256(
        repr(
            (
                [(n.id, n.neighbours, n.sea_lanes, n.polygon) for n in board.nodes.values()],
                None if touching is None else sorted(touching),
            )
        ).encode()
    ).hexdigest()
    cached = _links.get(key)
    if cached is not None:
        _links.move_to_end(key)
        return cached
    pos = {t: i for i, t in enumerate(ids)}
    pairs = {
        (min(pos[t], pos[o]), max(pos[t], pos[o]))
        for t in ids
        for o in board.nodes[t].neighbours
        if o not in board.nodes[t].sea_lanes
    }
    if touching is None:
        touching = _touching_outlines(board, pairs)
    found: dict[str, list[str]] = {}
    for a, b in sorted(pairs - touching):
        found.setdefault(ids[a], []).append(ids[b])
        found.setdefault(ids[b], []).append(ids[a])
    links = {t: tuple(others) for t, others in found.items()}
    _remember(_links, key, links)
    return links


def _touching_outlines(board: Board, pairs: set[Pair]) -> frozenset[Pair]:
    nodes = list(board.nodes.values())
    shapes = [np.asarray(n.polygon, dtype=np.float64).reshape(-1, 2) for n in nodes]
    points = [s for s in shapes if len(s)]
    if not points:
        return frozenset()
    every = np.concatenate(points)
    size = float(max(np.ptp(every[:, 0]), np.ptp(every[:, 1]), 1e-9))
    near = TOUCH * size
    out = set()
    for a, b in pairs:
        pa, pb = shapes[a], shapes[b]
        if len(pa) < 3 or len(pb) < 3:
            continue
        if (pa.min(0) - near > pb.max(0)).any() or (pb.min(0) - near > pa.max(0)).any():
            continue
        if min(_gap(pa, pb, near), _gap(pb, pa, near)) <= near:
            out.add((a, b))
    return frozenset(out)


def _gap(points: npt.NDArray[np.float64], outline: npt.NDArray[np.float64], near: float) -> float:
    """The least distance from any of `points` to the closed `outline`'s edges (only the
    points within `near` of the outline's bounding box count: the others are farther)."""
    inside = ((points >= outline.min(0) - near) & (points <= outline.max(0) + near)).all(1)
    points = points[inside]
    if not len(points):
        return float("inf")
    start = outline[None, :, :]
    edge = np.roll(outline, -1, axis=0)[None, :, :] - start
    rel = points[:, None, :] - start
    length = (edge**2).sum(-1)
    t = np.clip((rel * edge).sum(-1) / np.where(length > 0, length, 1.0), 0.0, 1.0)
    off = rel - t[..., None] * edge
    return float(np.sqrt((off**2).sum(-1)).min())


def touching_pixels(index: npt.NDArray[np.int32]) -> frozenset[Pair]:
    """(a, b) board index pairs, a < b, whose pixels in `index` (index + 1; 0: none) come
    within `GAP` pixels of each other across or down."""
    out: set[Pair] = set()
    for k in range(1, GAP + 1):
        for a, b in ((index[k:, :], index[:-k, :]), (index[:, k:], index[:, :-k])):
            meet = (a != b) & (a > 0) & (b > 0)
            lo = np.minimum(a[meet], b[meet]).astype(np.int64)
            hi = np.maximum(a[meet], b[meet]).astype(np.int64)
            for code in np.unique(lo * (1 << 20) + hi):
                out.add((int(code >> 20) - 1, int(code & ((1 << 20) - 1)) - 1))
    return frozenset(out)


def published_index(
    board: Board, image: Path, size: tuple[int, int], publish: Callable[[bytes, str], str]
) -> tuple[str, frozenset[Pair]] | None:
    """A Domination board's index image `image` (`size` pixels, as its picture) published
    as a PNG (`publish(data, ".png")` gives its URL), with the pairs that touch in it;
    None when it cannot be read. Read once per file version."""
    from suite.worldwar.artindex import read_index

    try:
        stat = image.stat()
    except OSError:
        return None
    key = (str(image), stat.st_mtime_ns, stat.st_size)
    if key in _indexes:
        _indexes.move_to_end(key)
        return _indexes[key]
    index = read_index(board, image, size)
    found = None
    if index is not None and int(index.max()) <= 255:
        found = (publish(index_png(index), ".png"), touching_pixels(index))
    _remember(_indexes, key, found)
    return found


def index_png(index: npt.NDArray[np.int32]) -> bytes:
    """`index[x, y]` (values 0 to 255) as an 8-bit grey PNG, one pixel a value."""
    rows = np.ascontiguousarray(index.T.astype(np.uint8))
    height, width = rows.shape
    raw = np.zeros((height, width + 1), dtype=np.uint8)
    raw[:, 1:] = rows

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 9))
        + chunk(b"IEND", b"")
    )
