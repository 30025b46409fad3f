"""What the server works out of a board for the browser (`boardshapes`): the links where
neighbours' shapes do not touch, from the outlines or a Domination index image, and the
index image itself as a PNG of board indices."""

from __future__ import annotations

import struct
import zlib

import numpy as np

from suite.core.board import Board, Node, Region
from suite.net.server.boardshapes import drawn_links, index_png, touching_pixels
from suite.worldwar.rules.maps import classic_map, generate_map


def square(x: float, y: float, size: float = 10.0) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + size, y), (x + size, y + size), (x, y + size))


def board(*nodes: Node) -> Board:
    return Board(list(nodes), [Region("r", "R")], name="t")


def test_neighbours_whose_outlines_do_not_touch_are_linked() -> None:
    touching = board(
        Node("a", "A", "r", ("b", "c"), polygon=square(0, 0)),
        Node("b", "B", "r", ("a",), polygon=square(10, 0)),  # shares an edge with a
        Node("c", "C", "r", ("a",), sea_lanes=(), polygon=square(100, 0)),  # far away
    )
    assert drawn_links(touching) == {"a": ("c",), "c": ("a",)}
    by_sea = board(
        Node("a", "A", "r", ("c",), sea_lanes=("c",), polygon=square(0, 0)),
        Node("c", "C", "r", ("a",), sea_lanes=("a",), polygon=square(100, 0)),
    )
    assert drawn_links(by_sea) == {}  # a sea lane is drawn as such
    shapeless = board(Node("a", "A", "r", ("b",)), Node("b", "B", "r", ("a",)))
    assert drawn_links(shapeless) == {"a": ("b",), "b": ("a",)}


def test_the_shipped_and_generated_maps_link_only_neighbours() -> None:
    for b in (classic_map(), generate_map(20, 3, 5)):
        links = drawn_links(b)
        for t, others in links.items():
            for o in others:
                assert o in b.nodes[t].neighbours and o not in b.nodes[t].sea_lanes
                assert t in links[o]
    assert drawn_links(classic_map()) is drawn_links(classic_map())  # made once per map


def test_an_index_image_says_which_territories_touch() -> None:
    index = np.zeros((30, 10), dtype=np.int32)
    index[0:10, :] = 1
    index[12:20, :] = 2  # two pixels of border between 1 and 2: they touch
    index[25:30, :] = 3  # five pixels away from 2: they do not
    assert touching_pixels(index) == frozenset({(0, 1)})
    b = board(
        Node("1", "A", "r", ("2",)),
        Node("2", "B", "r", ("1", "3")),
        Node("3", "C", "r", ("2",)),
    )
    assert drawn_links(b, touching_pixels(index)) == {"2": ("3",), "3": ("2",)}


def test_the_index_png_holds_the_indices_row_by_row() -> None:
    index = np.arange(12, dtype=np.int32).reshape(4, 3)  # index[x, y]
    data = index_png(index)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert (width, height, depth, colour) == (4, 3, 8, 0)
    start = data.index(b"IDAT") + 4
    (length,) = struct.unpack(">I", data[start - 8 : start - 4])
    raw = zlib.decompress(data[start : start + length])
    rows = [raw[y * 5 + 1 : y * 5 + 5] for y in range(3)]
    assert [list(r) for r in rows] == [[int(index[x, y]) for x in range(4)] for y in range(3)]
