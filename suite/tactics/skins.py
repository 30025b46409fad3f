"""Piece skins drawn per army: filmstrip frames as RGBA arrays (numpy only, no pygame).

A skin is an 8-bit filmstrip of square frames (frame width = image height; the frames are
`FRAME_NAMES`; columns past the fifth frame are ignored, RULINGS T15). Drawing one for an
army, with the palette the skin's own bitmap carries:
- palette index `TRANSPARENT_INDEX` (6) becomes alpha 0, every other index is opaque;
- T15: palette index 0 on a frame's first row, its first column and its shadow line
  (row height - height // 6) is the artist's guide grid and is not drawn (alpha 0);
- T14: the pack's team-colour indices (`Pack.team_color_indices()`: 43 and 83, the dark
  and light orange of the team flag, unless the pack names others) are recoloured with
  the army's colour, shade kept: each index's luminance, normalised over the team
  indices (darkest 0, lightest 1) and lifted to start at `low`, picks a point on the ramp
  `dark -> army colour -> light` (43 becomes the darker shade, 83 the lighter);
- `with_shadow` puts a soft oval (an alpha-blended ellipse, dark, leaning slightly
  towards the army colour) under the piece's footprint, measured on the stand frame,
  behind every frame but the credits portrait.

The army colours, the ramp and the shadow's shape are data: `assets/tactics/skins.toml`
(`read_style`, `default_style`). Armies are numbered in start order, `TEAM_NAMES` (0 red,
1 green, 2 yellow, 3 blue).

    cache = SkinCache(pack)                       # per (piece, army, shadow)
    frames = cache.frames(piece_id, army=2)       # (frames, h, h, 4) uint8, read-only
    stand = pick_frame(frames, STAND)             # (h, h, 4)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import msgspec
import numpy as np
import numpy.typing as npt

from suite.core.datafile import DataError, read_rules
from suite.paths import asset
from suite.tactics.assets.bmp import Bitmap
from suite.tactics.assets.model import SKIN_FRAMES, TEAM_NAMES, TRANSPARENT_INDEX, Pack
from suite.tactics.assets.placeholders import skin_bitmap

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]
RGB = tuple[int, int, int]

FRAME_NAMES = ("credits", "stand", "attack", "pain", "alt_stand")
CREDITS, STAND, ATTACK, PAIN, ALT_STAND = FRAME_NAMES
STYLE_FILE = ("tactics", "skins.toml")
OPAQUE = 255
# ITU-R BT.601 luma weights: how bright a team-colour shade looks
_LUMA = np.array([0.299, 0.587, 0.114])


class SkinError(ValueError):
    """A bitmap that is not a filmstrip of square skin frames."""


SkinStyleError = DataError
"""A broken skin style file: the core rules-data error, naming the file and the key."""

Byte = Annotated[int, msgspec.Meta(ge=0, le=OPAQUE)]
Share = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Inside = Annotated[float, msgspec.Meta(gt=0.0, lt=1.0)]
Fine = Annotated[float, msgspec.Meta(ge=0.01, le=1.0)]
Scale = Annotated[float, msgspec.Meta(ge=0.0, le=10.0)]
Colour = tuple[Byte, Byte, Byte]


class ShadowStyle(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The oval under a piece (see `assets/tactics/skins.toml` [shadow])."""

    colour: Colour
    alpha: Byte
    footprint_rows: Share
    width_scale: Scale
    min_width: Share
    max_width: Share
    aspect: Fine
    softness: Fine
    tint: Share

    def colour_for(self, army: RGB) -> RGB:
        """The shadow's colour under a piece of colour `army`: `colour` leaning `tint` of the
        way towards the army colour (a dark team-coloured base tells the armies apart even
        for pieces that show little team colour)."""
        mixed = (c + (a - c) * self.tint for c, a in zip(self.colour, army, strict=True))
        r, g, b = (round(v) for v in mixed)
        return (r, g, b)


class _Armies(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    red: Colour
    green: Colour
    yellow: Colour
    blue: Colour


class _Shading(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    dark: Share
    mid: Inside
    light: Share
    low: Share = 0.0


class _StyleFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """`skins.toml` as written: [armies], [shading], [shadow]."""

    armies: _Armies
    shading: _Shading
    shadow: ShadowStyle


@dataclass(frozen=True)
class SkinStyle:
    """Army colours in `TEAM_NAMES` order, the team ramp (`dark`, `mid`, `light`, and
    `low`, where the darkest team index lands) and the shadow."""

    armies: tuple[RGB, ...]
    dark: float
    mid: float
    light: float
    shadow: ShadowStyle
    low: float = 0.0

    def colour(self, army: int) -> RGB:
        """The colour of army `army` (0-based, start order); ValueError when out of range."""
        if not 0 <= army < len(self.armies):
            names = ", ".join(TEAM_NAMES[: len(self.armies)])
            raise ValueError(f"army {army}: the armies are 0-{len(self.armies) - 1} ({names})")
        return self.armies[army]


def read_style(path: Path) -> SkinStyle:
    """Parse a skin style file in one typed conversion; `DataError` names the file and
    the bad key."""
    found = read_rules(path, _StyleFile)
    return SkinStyle(
        armies=tuple(getattr(found.armies, name) for name in TEAM_NAMES),
        dark=found.shading.dark,
        mid=found.shading.mid,
        light=found.shading.light,
        low=found.shading.low,
        shadow=found.shadow,
    )


@functools.cache
def default_style() -> SkinStyle:
    """The shipped `assets/tactics/skins.toml`, read once."""
    return read_style(asset(*STYLE_FILE))


# --------------------------------------------------------------------------- colours
def army_ramp(colour: RGB, shades: F64, style: SkinStyle) -> U8:
    """RGB (n x 3) of `colour`'s ramp at `shades` (0 = darkest, 1 = lightest): linear from
    `colour * dark` at 0 through `colour` at `mid` to `colour` blended `light` towards white
    at 1."""
    base = np.array(colour, dtype=np.float64)
    stops = np.array([0.0, style.mid, 1.0])
    out = np.empty((len(shades), 3), dtype=np.float64)
    for channel in range(3):
        c = base[channel]
        values = np.array([c * style.dark, c, c + (OPAQUE - c) * style.light])
        out[:, channel] = np.interp(shades, stops, values)
    return np.clip(np.rint(out), 0, OPAQUE).astype(np.uint8)


def team_palette(
    palette: U8, team_indices: Sequence[int], colour: RGB, style: SkinStyle | None = None
) -> U8:
    """A copy of `palette` (256 x 3) whose `team_indices` are the army ramp of `colour`,
    ordered by the luminance of the original shades (indices outside 0-255 are ignored)."""
    style = style or default_style()
    result = np.array(palette, dtype=np.uint8, copy=True)
    indices = np.array([i for i in team_indices if 0 <= i < len(result)], dtype=np.intp)
    if indices.size == 0:
        return result
    luma = result[indices].astype(np.float64) @ _LUMA
    low, high = float(luma.min()), float(luma.max())
    shades = (luma - low) / (high - low) if high > low else np.full(luma.shape, style.mid)
    result[indices] = army_ramp(colour, style.low + shades * (1.0 - style.low), style)
    return result


def rgba_palette(palette: U8) -> U8:
    """`palette` (256 x 3) as 256 x 4 RGBA: opaque, except `TRANSPARENT_INDEX` (alpha 0)."""
    rgba = np.full((len(palette), 4), OPAQUE, dtype=np.uint8)
    rgba[:, :3] = palette
    rgba[TRANSPARENT_INDEX] = 0
    return rgba


def to_rgba(indices: U8, palette: U8) -> U8:
    """Palette indices (h x w) as RGBA (h x w x 4), index 6 transparent (skins and tiles)."""
    result: U8 = rgba_palette(palette)[indices]
    return result


# --------------------------------------------------------------------------- frames
def frame_count(bitmap: Bitmap) -> int:
    """How many square frames are drawn (`SKIN_FRAMES`); `SkinError` unless the strip
    holds at least that many (columns past them are ignored, T15)."""
    if bitmap.height == 0:
        raise SkinError("an empty bitmap is not a skin")
    if bitmap.width < SKIN_FRAMES * bitmap.height:
        raise SkinError(
            f"a skin is a filmstrip of {SKIN_FRAMES} square frames (width = {SKIN_FRAMES} x "
            f"height); this is {bitmap.width}x{bitmap.height}"
        )
    return SKIN_FRAMES


def guide_mask(indices: U8, count: int) -> npt.NDArray[np.bool_]:
    """T15: True where a pixel of the strip (h x count*h) is part of the artist's guide
    grid: palette index 0 on a frame's first row, first column or shadow line."""
    size = indices.shape[0]
    guides = np.zeros(indices.shape, dtype=bool)
    shadow_row = size - size // 6
    guides[0, :] = True
    if 0 <= shadow_row < size:
        guides[shadow_row, :] = True
    guides[:, [k * size for k in range(count)]] = True
    result: npt.NDArray[np.bool_] = guides & (indices == 0)
    return result


def skin_frames(
    bitmap: Bitmap, team_indices: Sequence[int], army: int, style: SkinStyle | None = None
) -> U8:
    """The frames of a skin for `army`: (frames, h, h, 4) RGBA uint8, recoloured and with
    index 6 transparent, no shadow. `SkinError` when `bitmap` is not a filmstrip."""
    style = style or default_style()
    count = frame_count(bitmap)
    size = bitmap.height
    palette = team_palette(bitmap.palette, team_indices, style.colour(army), style)
    indices = bitmap.indices[:, : count * size]
    strip = to_rgba(indices, palette)
    strip[guide_mask(indices, count)] = 0
    return np.ascontiguousarray(strip.reshape(size, count, size, 4).transpose(1, 0, 2, 3))


def frame_index(name: str) -> int:
    """The position of frame `name` in a filmstrip; ValueError for an unknown name."""
    try:
        return FRAME_NAMES.index(name)
    except ValueError:
        raise ValueError(
            f"no skin frame {name!r}; the frames are {', '.join(FRAME_NAMES)}"
        ) from None


def pick_frame(frames: U8, name: str) -> U8:
    """The frame called `name` of `frames` (as `skin_frames` returns them)."""
    result: U8 = frames[frame_index(name)]
    return result


# --------------------------------------------------------------------------- shadow
def footprint(frame: U8, rows: float) -> tuple[float, int, int] | None:
    """Where a piece stands in an RGBA frame: (centre x, lowest opaque row, width) of the
    opaque pixels in its bottom `rows` share of the frame height; None when empty."""
    solid = frame[:, :, 3] > 0
    filled = np.nonzero(solid.any(axis=1))[0]
    if filled.size == 0:
        return None
    bottom = int(filled[-1])
    band = max(1, round(rows * frame.shape[0]))
    columns = np.nonzero(solid[max(0, bottom - band + 1) : bottom + 1].any(axis=0))[0]
    left, right = int(columns[0]), int(columns[-1])
    return (left + right + 1) / 2, bottom, right - left + 1


def shadow_layer(
    height: int,
    width: int,
    centre: tuple[float, float],
    radii: tuple[float, float],
    shadow: ShadowStyle,
    colour: RGB | None = None,
) -> U8:
    """An RGBA layer (height x width x 4) holding a soft ellipse of `colour` (default
    `shadow.colour`): alpha `shadow.alpha` inside, fading smoothly to 0 over the outer
    `softness` of each radius."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64) + 0.5
    dx = (xx - centre[0]) / max(radii[0], 1e-6)
    dy = (yy - centre[1]) / max(radii[1], 1e-6)
    edge = np.clip((1.0 - np.sqrt(dx * dx + dy * dy)) / shadow.softness, 0.0, 1.0)
    smooth = edge * edge * (3.0 - 2.0 * edge)
    layer = np.zeros((height, width, 4), dtype=np.uint8)
    layer[:, :, :3] = shadow.colour if colour is None else colour
    layer[:, :, 3] = np.rint(smooth * shadow.alpha).astype(np.uint8)
    return layer


def shadow_for(frame: U8, shadow: ShadowStyle, colour: RGB | None = None) -> U8:
    """The shadow layer (of `colour`, default `shadow.colour`) under the piece in `frame`,
    all transparent for an empty frame: centred on the footprint's lowest row, `width_scale`
    times its width (kept between `min_width` and `max_width` of the frame), moved up when
    it would leave the frame."""
    height, width = frame.shape[:2]
    spot = footprint(frame, shadow.footprint_rows)
    if spot is None:
        return np.zeros((height, width, 4), dtype=np.uint8)
    cx, bottom, foot = spot
    oval = float(
        np.clip(foot * shadow.width_scale, shadow.min_width * width, shadow.max_width * width)
    )
    rx, ry = oval / 2, oval / 2 * shadow.aspect
    cy = min(bottom + 0.5, height - ry)
    return shadow_layer(height, width, (cx, cy), (rx, ry), shadow, colour)


def over(top: U8, bottom: U8) -> U8:
    """`top` alpha-composited over `bottom` (RGBA arrays of one shape, straight alpha)."""
    a_top = top[..., 3:4].astype(np.float64) / OPAQUE
    a_bottom = bottom[..., 3:4].astype(np.float64) / OPAQUE
    alpha = a_top + a_bottom * (1.0 - a_top)
    weighted = top[..., :3] * a_top + bottom[..., :3] * a_bottom * (1.0 - a_top)
    rgb = np.divide(weighted, alpha, out=np.zeros_like(weighted), where=alpha > 0)
    out = np.empty(top.shape, dtype=np.uint8)
    out[..., :3] = np.clip(np.rint(rgb), 0, OPAQUE)
    out[..., 3] = np.rint(alpha[..., 0] * OPAQUE)
    return out


def with_shadow(frames: U8, army: int, style: SkinStyle | None = None) -> U8:
    """`frames` with the shadow of the stand frame's footprint behind every frame except
    the credits portrait (one shadow for all, so it stays put while the piece moves),
    tinted towards `army`'s colour as the style says."""
    style = style or default_style()
    colour = style.shadow.colour_for(style.colour(army))
    result = np.array(frames, dtype=np.uint8, copy=True)
    stand = frame_index(STAND)
    if len(frames) <= stand:
        return result
    layer = shadow_for(frames[stand], style.shadow, colour)
    for k in range(len(frames)):
        if k != frame_index(CREDITS):
            result[k] = over(frames[k], layer)
    return result


# --------------------------------------------------------------------------- cache
class SkinCache:
    """The drawn frames of a pack's pieces per (piece, army, shadow), computed once.

    A missing, unreadable or non-filmstrip skin (and an unknown piece id) is drawn as the
    placeholder of `placeholders.skin_bitmap`. Returned arrays are read-only.
    """

    def __init__(self, pack: Pack, style: SkinStyle | None = None) -> None:
        self.pack = pack
        self.style = style or default_style()
        self._bitmaps: dict[int, Bitmap] = {}
        self._frames: dict[tuple[int, int, bool], U8] = {}

    def bitmap(self, piece_id: int) -> Bitmap:
        """The skin bitmap of `piece_id`, or the placeholder filmstrip."""
        if piece_id not in self._bitmaps:
            self._bitmaps[piece_id] = skin_bitmap(self.pack, piece_id)
        return self._bitmaps[piece_id]

    def frames(self, piece_id: int, army: int, shadow: bool = True) -> U8:
        """(frames, h, h, 4) RGBA of `piece_id` for `army`, with the shadow unless asked."""
        key = (piece_id, army, shadow)
        if key not in self._frames:
            teams = self.pack.team_color_indices()
            drawn = skin_frames(self.bitmap(piece_id), teams, army, self.style)
            if shadow:
                drawn = with_shadow(drawn, army, self.style)
            drawn.flags.writeable = False
            self._frames[key] = drawn
        return self._frames[key]
