"""A Domination map's own artwork: its picture and its colour-indexed territory image.

A Domination `.map` names two images in its `[files]` section: `pic` (what players see)
and `map` (the same size; each pixel's value is the number of the territory there, as
in Domination, which reads the low byte of the pixel: the blue channel of a grey or
palette image; 0 and values past the last territory are sea). When both lie beside the
`.map` and load, the map screen draws the picture and takes the territories' shapes and
clicks from the index image; otherwise (`load_artwork` returns None) it draws the map
from its graph (`suite.worldwar.screens.drawn`). Nothing here raises: a missing or broken
image is simply no artwork.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from suite.core.board import Board
from suite.worldwar.rules.domination import artwork_files

MAX_PIXELS = 16_000_000
"""Images past this many pixels are not used (a broken or hostile file)."""


@dataclass(frozen=True)
class Artwork:
    """The picture and, per pixel, the territory there: `index[x, y]` is the board index
    of the territory plus one (0: none). Both are `size` pixels. A map drawn from its
    graph alone (`suite.worldwar.screens.drawn`) has an index and no picture."""

    picture: pygame.Surface | None
    index: npt.NDArray[np.int32]

    @property
    def size(self) -> tuple[int, int]:
        w, h = self.index.shape
        return (int(w), int(h))


def load_artwork(board: Board) -> Artwork | None:
    """The artwork of a board read from a Domination `.map` file, when its images lie
    beside it, load, have the same size and name at least one territory (else None)."""
    source = board.source
    if source is None or not source.lower().endswith(".map"):
        return None
    files = artwork_files(Path(source))
    if files is None or not all(f.is_file() for f in files):
        return None
    try:
        picture = pygame.image.load(str(files[0]))
        indexed = pygame.image.load(str(files[1]))
    except (pygame.error, OSError, ValueError):
        return None
    w, h = picture.get_size()
    if indexed.get_size() != (w, h) or not 0 < w * h <= MAX_PIXELS:
        return None
    values = pygame.surfarray.array3d(_rgb(indexed))[:, :, 2].astype(np.int32)
    # Domination numbers countries 1..n in file order; our board keeps that order.
    ids = board.ids()
    lookup = np.zeros(256, dtype=np.int32)
    for position, node_id in enumerate(ids):
        if node_id.isdigit() and 1 <= int(node_id) <= 255:
            lookup[int(node_id)] = position + 1
    index = lookup[values]
    if not index.any():
        return None
    return Artwork(_rgb(picture), index)


def _rgb(image: pygame.Surface) -> pygame.Surface:
    """`image` as a plain 24-bit surface (palette and alpha images alike; no display
    needed)."""
    out = pygame.Surface(image.get_size(), depth=24)
    out.fill((0, 0, 0))
    out.blit(image, (0, 0))
    return out
