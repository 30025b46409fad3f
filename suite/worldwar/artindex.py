"""A Domination map's colour-indexed territory image, as the board's indices.

A Domination `.map` names a `map` image beside it (the same size as its picture): each
pixel's value is the number of the territory there, as Domination reads it (the low byte
of the pixel: the blue channel of a grey or palette image; 0 and values past the last
territory are sea). `read_index` turns it into, per pixel, the board index of the
territory there plus one (0: none). The desktop map screen takes shapes and clicks from
it, the match server sends it to the browser (which picks territories by it) and finds
from it which neighbours do not touch. pygame decodes the image (PNG, GIF, BMP, JPEG; no
display needed) and is imported only when an image is read. Nothing here raises: a
missing or broken image is no index.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from suite.core.board import Board

MAX_PIXELS = 16_000_000
"""Images past this many pixels are not used (a broken or hostile file)."""

Index = npt.NDArray[np.int32]
"""`index[x, y]`: the board index of the territory at pixel (x, y) plus one (0: none)."""


def read_index(board: Board, image: Path, size: tuple[int, int] | None = None) -> Index | None:
    """The index image `image` of `board` (a Domination board: its node ids are the
    country numbers), None when it does not load, is too large, is not `size` pixels
    (when given) or names no territory."""
    try:
        import pygame

        indexed = pygame.image.load(str(image))
    except Exception:  # no pygame, an unreadable file, or pygame.error (a bad image)
        return None
    w, h = indexed.get_size()
    if (size is not None and (w, h) != size) or not 0 < w * h <= MAX_PIXELS:
        return None
    values = pygame.surfarray.array3d(rgb(indexed))[:, :, 2].astype(np.int32)
    # Domination numbers countries 1..n in file order; the board keeps that order.
    lookup = np.zeros(256, dtype=np.int32)
    for position, node_id in enumerate(board.ids()):
        if node_id.isdigit() and 1 <= int(node_id) <= 255:
            lookup[int(node_id)] = position + 1
    index: Index = lookup[values]
    return index if index.any() else None


def rgb(image: Any) -> Any:
    """A pygame `image` as a plain 24-bit surface (palette and alpha images alike; no
    display needed)."""
    import pygame

    out = pygame.Surface(image.get_size(), depth=24)
    out.fill((0, 0, 0))
    out.blit(image, (0, 0))
    return out
