"""A Domination map's own artwork: its picture and its colour-indexed territory image.

A Domination `.map` names two images in its `[files]` section: `pic` (what players see)
and `map` (the same size; each pixel's value is the number of the territory there: see
`suite.worldwar.artindex`). When both lie beside the
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
from suite.worldwar.artindex import MAX_PIXELS, read_index, rgb
from suite.worldwar.rules.domination import artwork_files

__all__ = ["MAX_PIXELS", "Artwork", "artwork_files", "load_artwork"]


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
    except (pygame.error, OSError, ValueError):
        return None
    index = read_index(board, files[1], picture.get_size())
    if index is None:
        return None
    return Artwork(rgb(picture), index)
