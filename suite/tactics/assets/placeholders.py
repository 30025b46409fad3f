"""Stand-in bitmaps for a tile or skin that is missing or unreadable, so a pack with
problems still draws (as palette indices, like every other bitmap of the pack).

The tile is a diamond of alternating `ALERT_A`/`ALERT_B` squares on a transparent field;
the skin is five frames of a question-mark-like block. Both use the pack's own palette.
"""

from __future__ import annotations

import numpy as np

from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.model import (
    SKIN_FRAMES,
    TILE_SIZE,
    TRANSPARENT_INDEX,
    Pack,
)
from suite.tactics.assets.pack import load_bitmap

ALERT_A = 253  # magenta in the default palette
ALERT_B = 0  # black
_CHECK = 8  # pixels per checker square


def placeholder_tile(palette: np.ndarray) -> Bitmap:
    """A 128x128 checkered diamond (top half), transparent elsewhere."""
    yy, xx = np.mgrid[0:TILE_SIZE, 0:TILE_SIZE]
    half = TILE_SIZE / 2
    diamond = (
        np.abs(xx * 2 - (TILE_SIZE - 1)) / TILE_SIZE + np.abs(yy * 2 - (half - 1)) / half
    ) <= 1
    checker = ((xx // _CHECK + yy // _CHECK) % 2).astype(bool)
    indices = np.full((TILE_SIZE, TILE_SIZE), TRANSPARENT_INDEX, dtype=np.uint8)
    indices[diamond & checker] = ALERT_A
    indices[diamond & ~checker] = ALERT_B
    return Bitmap(indices, palette.astype(np.uint8))


def placeholder_skin(palette: np.ndarray, height: int = 96) -> Bitmap:
    """A filmstrip of five frames, each a checkered block standing on the frame's floor."""
    frame = np.full((height, height), TRANSPARENT_INDEX, dtype=np.uint8)
    top, bottom = height // 3, height - height // 6
    left, right = height // 3, height - height // 3
    yy, xx = np.mgrid[top:bottom, left:right]
    frame[top:bottom, left:right] = np.where((xx // _CHECK + yy // _CHECK) % 2, ALERT_A, ALERT_B)
    return Bitmap(np.tile(frame, (1, SKIN_FRAMES)), palette.astype(np.uint8))


def _palette(pack: Pack) -> np.ndarray:
    """A palette to draw placeholders with: the first readable tile's, else greys."""
    for tile in pack.tiles.values():
        bitmap = load_bitmap(pack, tile.bitmap, "tile")
        if bitmap is not None:
            return bitmap.palette
    greys = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)
    greys[ALERT_A] = (255, 0, 255)
    return greys


def tile_bitmap(pack: Pack, index: int) -> Bitmap:
    """The bitmap of tile `index`, or the placeholder when it is undefined or unreadable."""
    tile = pack.tiles.get(index)
    bitmap = load_bitmap(pack, tile.bitmap, "tile") if tile else None
    return bitmap if bitmap is not None else placeholder_tile(_palette(pack))


def skin_bitmap(pack: Pack, piece_id: int) -> Bitmap:
    """The filmstrip of piece `piece_id`, or the placeholder when missing, unreadable or
    narrower than five square frames (columns past them are ignored, RULINGS T15)."""
    piece = pack.pieces.get(piece_id)
    bitmap = load_bitmap(pack, piece.bitmap, "skin") if piece else None
    if bitmap is not None and bitmap.width >= SKIN_FRAMES * bitmap.height > 0:
        return bitmap
    return placeholder_skin(_palette(pack))
