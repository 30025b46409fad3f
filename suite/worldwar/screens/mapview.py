"""The map: territories in their owners' colours, continents, sea lanes, army counts.

The static picture (sea, fills, antialiased borders, continent outlines and dashed sea
lanes) is rendered once per zoom level into one surface; a change of owner only
recolours it through a territory-id raster with numpy. A frame then costs one blit plus
the army badges and the hover outlines. The same id raster answers "which territory is
under the mouse" by a single array lookup.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pygame

from suite.core.board import Board
from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import draw_star
from suite.worldwar.rules.topology import topology
from suite.worldwar.screens.artwork import Artwork, load_artwork
from suite.worldwar.screens.drawn import drawn_map, touching_pairs

SEA: Colour = (18, 38, 62)
SEA_GRID: Colour = (26, 50, 78)
EDGE: Colour = (16, 20, 28)
LANE: Colour = (170, 196, 222)
ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 1.0, 3.0, 1.25
SPOT_STEP = 8  # pixels between the spots tried for a panel over the map
SETTLE_FRAMES = 12  # frames without zooming before the sharp layer is rebuilt
MARGIN = 14  # pixels of sea around the map at every zoom
NAME_MIN, NAME_MAX = 10, 15  # font sizes of territory names on the map
NAME_INK: Colour = (246, 244, 236)
STAR = 1.15  # a capital's star (its shadow) in badge radii, at the badge's top right

IntArray = npt.NDArray[np.int32]


def hex_colour(text: str) -> Colour:
    """'#rrggbb' as a colour (grey when it cannot be read)."""
    try:
        value = int(text.lstrip("#"), 16)
    except ValueError:
        return (128, 128, 128)
    return ((value >> 16) & 255, (value >> 8) & 255, value & 255)


class MapView:
    """Draws `board` into `rect` of the window and maps the mouse to territories.

    `owner_colours[t]` is each territory's fill (set with `set_colours`); `zoom` runs from
    1 (whole map fits) to ZOOM_MAX; `pan` is the layer pixel shown at the rect's corner.
    """

    def __init__(self, board: Board, rect: pygame.Rect) -> None:
        self.board = board
        self.tables = topology(board)
        topo = self.tables
        self.polygons = [board[t].polygon for t in topo.ids]
        labels = []
        for t in topo.ids:
            node = board[t]
            labels.append(node.label if node.label is not None else _centre(node.polygon))
        self.labels: list[tuple[float, float]] = labels
        xs = [p[0] for poly in self.polygons for p in poly] or [0.0, 1.0]
        ys = [p[1] for poly in self.polygons for p in poly] or [0.0, 1.0]
        self.world = (min(xs), min(ys), max(xs), max(ys))
        self.art = load_artwork(board)
        """The Domination picture and index image, when the map has them (else None)."""
        self.lanes = sorted(
            {
                tuple(sorted((topo.index[t], topo.index[o])))
                for t in topo.ids
                for o in board[t].sea_lanes
            }
        )
        shapeless = any(len(board[t].polygon) < 3 for t in topo.ids)
        self.drawn = self.art is None and (_is_domination(board) or shapeless)
        """True: a Domination map without its picture (or a board with territories that
        have no shape), drawn from its graph (see `suite.worldwar.screens.drawn`)."""
        if self.drawn:
            layout = drawn_map(board)
            self.art = Artwork(None, layout.index)
            self.labels = list(layout.points)
        self.honest = self.art is None or self.art.picture is None
        """True (every map but a Domination picture): the drawing shows exactly the
        board's neighbours. Pixels where two territories that are not neighbours would
        touch are sea, and neighbours whose shapes do not touch at this zoom (and have
        no sea lane) are joined by a line drawn over the land (`links`)."""
        self.links: list[tuple[int, int]] = []
        if self.art is not None:
            self.world = (0.0, 0.0, float(self.art.size[0]), float(self.art.size[1]))
        n = len(topo.ids)
        self._compatible = np.eye(n + 1, dtype=bool)
        self._compatible[0, :] = self._compatible[:, 0] = True
        for t, near in enumerate(topo.adj):
            self._compatible[t + 1, [o + 1 for o in near]] = True
        self.continent_colours = [hex_colour(board.regions[c].colour) for c in topo.continents]
        self.rect = pygame.Rect(rect)
        self.zoom = 1.0
        self.pan = [0.0, 0.0]
        self.colours: list[Colour] = [theme.DISABLED] * len(topo.ids)
        self._layer: pygame.Surface | None = None
        self._ids: IntArray | None = None
        self._base_rgb: npt.NDArray[np.uint8] | None = None
        self._layer_scale = 0.0
        self._badges: dict[tuple[Colour, int, int], pygame.Surface] = {}
        self.dirty_fills = True
        self._settle = 0
        self._spots: dict[tuple[Any, ...], tuple[pygame.Rect, int]] = {}
        self._occupied: npt.NDArray[np.int64] | None = None
        self.names: list[tuple[int, pygame.Rect, pygame.Surface, pygame.Surface]] = []
        self._edges: dict[tuple[int, Colour, int], tuple[pygame.Surface, tuple[int, int]]] = {}
        self.badges_only = False
        """True: no names on the map (a small preview)."""
        self.marked: frozenset[int] = frozenset()
        """Territories with a star beside their badge (capitals): names keep off it."""
        self.set_rect(rect)

    # -- geometry ----------------------------------------------------------------------------

    @property
    def base_scale(self) -> float:
        x0, y0, x1, y1 = self.world
        w = max(1.0, x1 - x0)
        h = max(1.0, y1 - y0)
        return min((self.rect.width - 2 * MARGIN) / w, (self.rect.height - 2 * MARGIN) / h)

    @property
    def scale(self) -> float:
        return self.base_scale * self.zoom

    def layer_size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.world
        s = self.scale
        return (round((x1 - x0) * s) + 2 * MARGIN, round((y1 - y0) * s) + 2 * MARGIN)

    def to_layer(self, p: tuple[float, float]) -> tuple[float, float]:
        s = self.scale
        return ((p[0] - self.world[0]) * s + MARGIN, (p[1] - self.world[1]) * s + MARGIN)

    def to_screen(self, p: tuple[float, float]) -> tuple[int, int]:
        lx, ly = self.to_layer(p)
        return (round(self.rect.x + lx - self.pan[0]), round(self.rect.y + ly - self.pan[1]))

    def set_rect(self, rect: pygame.Rect) -> None:
        """Lay the map out in `rect` (the window was resized): the zoom and its centre stay."""
        self.rect = pygame.Rect(rect)
        self._layer = None
        self._clamp_pan()

    def _clamp_pan(self) -> None:
        w, h = self.layer_size()
        for axis, (size, view) in enumerate(((w, self.rect.width), (h, self.rect.height))):
            if size <= view:
                self.pan[axis] = -(view - size) / 2
            else:
                self.pan[axis] = max(0.0, min(float(size - view), self.pan[axis]))

    def zoom_at(self, pos: tuple[int, int], steps: float) -> None:
        """Zoom by ZOOM_STEP ** steps keeping the map point under `pos` in place."""
        new = max(ZOOM_MIN, min(ZOOM_MAX, self.zoom * ZOOM_STEP**steps))
        if abs(new - self.zoom) < 1e-9:
            return
        lx = pos[0] - self.rect.x + self.pan[0]
        ly = pos[1] - self.rect.y + self.pan[1]
        ratio = new / self.zoom
        self.zoom = new
        self.pan = [
            (lx - MARGIN) * ratio + MARGIN - (pos[0] - self.rect.x),
            (ly - MARGIN) * ratio + MARGIN - (pos[1] - self.rect.y),
        ]
        self._settle = SETTLE_FRAMES
        self._clamp_pan()

    def pan_by(self, dx: float, dy: float) -> None:
        self.pan[0] -= dx
        self.pan[1] -= dy
        self._clamp_pan()

    def reset_view(self) -> None:
        self.zoom = 1.0
        self._settle = SETTLE_FRAMES
        self._clamp_pan()

    def territory_at(self, pos: tuple[int, int]) -> int | None:
        """The territory index under the screen point `pos`, or None (sea, off the map)."""
        if not self.rect.collidepoint(pos):
            return None
        self._ensure_layer(settle=True)
        assert self._ids is not None
        x, y = self._old_layer(
            pos[0] - self.rect.x + self.pan[0], pos[1] - self.rect.y + self.pan[1]
        )
        w, h = self._ids.shape
        if not (0 <= x < w and 0 <= y < h):
            return None
        t = int(self._ids[x, y]) - 1
        return t if t >= 0 else None

    def _old_layer(self, lx: float, ly: float) -> tuple[int, int]:
        """A point of the current zoom's layer in the built layer's pixels."""
        k = self._layer_scale / self.scale if self.stale else 1.0
        return (int((lx - MARGIN) * k + MARGIN), int((ly - MARGIN) * k + MARGIN))

    def quiet_spot(
        self, size: tuple[int, int], avoid: Sequence[tuple[int, int]] = ()
    ) -> tuple[pygame.Rect, int]:
        """Where a box of `size` (a panel over the map) goes: inside the view (12 px in),
        on no territory, name or army badge when such a spot exists (the nearest to a
        corner), else where it covers the fewest of their pixels, and never over a screen
        point of `avoid` (the territories being acted on) while another spot is clear of
        them. Returns the box and how many covered pixels lie under it (0: none)."""
        self._ensure_layer(settle=True)
        assert self._ids is not None
        key = (size, round(self.pan[0]), round(self.pan[1]), self.zoom, tuple(self.rect))
        key += (tuple(avoid),)
        if key in self._spots:
            box, covered_there = self._spots[key]
            return pygame.Rect(box), covered_there
        r = self.rect.inflate(-24, -24)
        w, h = min(size[0], r.width), min(size[1], r.height)
        xs = np.unique(np.r_[np.arange(r.left, r.right - w + 1, SPOT_STEP), r.right - w])
        ys = np.unique(np.r_[np.arange(r.top, r.bottom - h + 1, SPOT_STEP), r.bottom - h])
        gx, gy = (a.ravel() for a in np.meshgrid(xs, ys, indexing="ij"))
        sums = self._occupied_sums()
        lw, lh = sums.shape[0] - 1, sums.shape[1] - 1
        ox, oy = self.pan[0] - self.rect.x, self.pan[1] - self.rect.y
        x0 = np.clip(np.round(gx + ox).astype(np.int64), 0, lw)
        y0 = np.clip(np.round(gy + oy).astype(np.int64), 0, lh)
        x1 = np.clip(np.round(gx + w + ox).astype(np.int64), 0, lw)
        y1 = np.clip(np.round(gy + h + oy).astype(np.int64), 0, lh)
        covered = sums[x1, y1] - sums[x0, y1] - sums[x1, y0] + sums[x0, y0]
        pad = self.badge_radius()
        blocked = np.zeros(len(gx), dtype=bool)
        for ax, ay in avoid:
            blocked |= (
                (gx - pad <= ax) & (ax < gx + w + pad) & (gy - pad <= ay) & (ay < gy + h + pad)
            )
        # Nearest a corner: the smaller of the distances to a side, then their sum.
        side_x = np.minimum(gx - r.left, r.right - w - gx)
        side_y = np.minimum(gy - r.top, r.bottom - h - gy)
        best = int(np.lexsort((side_x + side_y, np.maximum(side_x, side_y), covered, blocked))[0])
        box = pygame.Rect(int(gx[best]), int(gy[best]), w, h)
        if len(self._spots) > 16:
            self._spots.clear()
        self._spots[key] = (box, int(covered[best]))
        return pygame.Rect(box), int(covered[best])

    def _occupied_sums(self) -> npt.NDArray[np.int64]:
        """Summed-area table of the layer's occupied pixels (land, names, badges)."""
        if self._occupied is None:
            assert self._ids is not None
            taken = self._ids > 0
            w, h = taken.shape
            radius = self.badge_radius()
            boxes = [pygame.Rect(r) for _, r, *_ in self.names]
            for label in self.labels:
                x, y = self.to_layer(label)
                boxes.append(
                    pygame.Rect(round(x) - radius, round(y) - radius, 2 * radius, 2 * radius)
                )
            for box in boxes:
                box = box.clip(pygame.Rect(0, 0, w, h))
                taken[box.left : box.right, box.top : box.bottom] = True
            sums = np.zeros((w + 1, h + 1), dtype=np.int64)
            sums[1:, 1:] = taken.cumsum(axis=0).cumsum(axis=1)
            self._occupied = sums
        return self._occupied

    def point_in(self, t: int) -> tuple[int, int] | None:
        """A screen point that hits territory `t`: its label when that does, else a pixel
        of the territory (None when none of it is in view)."""
        label = self.label_screen(t)
        if self.territory_at(label) == t:
            return label
        assert self._ids is not None
        xs, ys = np.nonzero(self._ids == t + 1)
        for k in (len(xs) // 2, *range(0, len(xs), max(1, len(xs) // 50))):
            x, y = self._layer_to_screen(int(xs[k]), int(ys[k]))
            if self.territory_at((x, y)) == t:
                return (x, y)
        return None

    def _layer_to_screen(self, x: int, y: int) -> tuple[int, int]:
        k = self.scale / self._layer_scale if self.stale else 1.0
        lx, ly = (x - MARGIN) * k + MARGIN, (y - MARGIN) * k + MARGIN
        return (round(self.rect.x + lx - self.pan[0]), round(self.rect.y + ly - self.pan[1]))

    def label_screen(self, t: int) -> tuple[int, int]:
        return self.to_screen(self.labels[t])

    # -- colours -----------------------------------------------------------------------------

    def set_colours(self, colours: Sequence[Colour]) -> None:
        """Territory fills (by index); the static layer is recoloured on the next draw."""
        if list(colours) != self.colours:
            self.colours = list(colours)
            self.dirty_fills = True

    # -- rendering ---------------------------------------------------------------------------

    @property
    def settling(self) -> bool:
        """True while a zoom waits to be redrawn sharp (the screen must keep drawing)."""
        return self._settle > 0 or self.stale

    @property
    def stale(self) -> bool:
        """True while the layer is from another zoom (drawn scaled until it settles)."""
        return self._layer is not None and abs(self._layer_scale - self.scale) > 1e-9

    def _ensure_layer(self, settle: bool = False) -> None:
        """Build what is missing; a zoom change is rebuilt only once it has settled (or
        `settle` is False), so turning the wheel stays smooth."""
        if self._layer is None or (self.stale and not (settle and self._settle > 0)):
            self._build_geography()
            self.dirty_fills = True
        if self.dirty_fills:
            self._paint_fills()
            self.dirty_fills = False

    def _build_geography(self) -> None:
        """Per zoom: the id raster and the sea with the continents' coloured coasts."""
        size = self.layer_size()
        self._layer_scale = self.scale
        screen_polys = [[self.to_layer(p) for p in poly] for poly in self.polygons]
        if self.art is not None:
            ids = self._art_ids(size)
        else:
            raster = pygame.Surface(size)
            raster.fill((0, 0, 0))
            for i, pts in enumerate(screen_polys):
                if len(pts) >= 3:
                    code = i + 1
                    pygame.draw.polygon(raster, (0, code >> 8, code & 255), pts)
            rgb = pygame.surfarray.pixels3d(raster)
            ids = (rgb[:, :, 1].astype(np.int32) << 8) | rgb[:, :, 2]
            del rgb
        if self.honest:
            _cut_contacts(ids, self._compatible)
            shown = touching_pairs(ids) | self._sea_lines()
            self.links = sorted(self.tables_pairs() - shown)
        self._ids = ids
        self._edges.clear()
        sea = pygame.Surface(size)
        sea.fill(SEA)
        step = max(40, round(90 * self.scale))
        for x in range(0, size[0], step):
            pygame.draw.line(sea, SEA_GRID, (x, 0), (x, size[1]))
        for y in range(0, size[1], step):
            pygame.draw.line(sea, SEA_GRID, (0, y), (size[0], y))
        if self.art is not None and self.art.picture is not None:
            w, h = self.art.size
            shown = (max(1, round(w * self.scale)), max(1, round(h * self.scale)))
            sea.blit(pygame.transform.smoothscale(self.art.picture, shown), (MARGIN, MARGIN))
        if not self.drawn:
            self._draw_lanes(sea, self.lanes)  # on the sea only: the land fills cover them
        base = pygame.surfarray.array3d(sea)
        cont_of = np.array([-1, *self.tables.continent_of], dtype=np.int8)
        cont = cont_of[ids]
        halo = cont.copy()
        for _ in range(max(2, round(3 * self.scale))):
            _grow(halo)
        coast = (halo >= 0) & (cont < 0)
        palette = np.array(self.continent_colours or [(128, 128, 128)], dtype=np.uint16)
        glow = palette[halo[coast]]
        base[coast] = ((glow * 3 + base[coast] * 2) // 5).astype(np.uint8)
        # Inland borders between continents: a light seam on both sides of the border.
        seam = np.zeros(cont.shape, dtype=bool)
        land = cont >= 0
        d0 = (cont[1:, :] != cont[:-1, :]) & land[1:, :] & land[:-1, :]
        seam[1:, :] |= d0
        seam[:-1, :] |= d0
        d1 = (cont[:, 1:] != cont[:, :-1]) & land[:, 1:] & land[:, :-1]
        seam[:, 1:] |= d1
        seam[:, :-1] |= d1
        # Each side of the seam in its own continent's colour (lightened), so continents
        # read at a glance; the coasts already glow in the continent's colour.
        seam_rgb = (palette[cont[seam]] * 2 + 255) // 3
        base[seam] = seam_rgb.astype(np.uint8)
        if self.drawn:
            # No picture draws the borders inside a continent: a dark line does.
            edge = _borders(ids) & ~seam
            base[edge] = EDGE
            seam |= edge
        self._land = np.nonzero(ids.ravel() * ~seam.ravel())[0]
        self._land_ids = ids.ravel()[self._land]
        self._base_rgb = base
        self._screen_polys = screen_polys
        self._layer = pygame.Surface(size)
        self._badges.clear()
        self.names = self._place_names()
        self._occupied = None
        self._spots.clear()

    def _paint_fills(self) -> None:
        assert self._ids is not None and self._base_rgb is not None and self._layer is not None
        shade = np.array(
            [1.0] + [0.93 + 0.07 * ((i * 37) % 5) / 4 for i in range(len(self.colours))]
        )
        palette = np.array([(0, 0, 0), *self.colours], dtype=np.float64)
        fills = (palette * shade[:, None] * 0.86).astype(np.uint8)
        rgb = self._base_rgb.copy()
        flat = rgb.reshape(-1, 3)
        if self.art is None or self.art.picture is None:
            flat[self._land] = fills[self._land_ids]
        else:
            # The artwork shows through its owner's colour.
            picture = flat[self._land].astype(np.uint16)
            mixed = (fills[self._land_ids].astype(np.uint16) * 3 + picture * 2) // 5
            flat[self._land] = mixed.astype(np.uint8)
        pygame.surfarray.blit_array(self._layer, rgb)
        for pts in self._screen_polys if self.art is None else ():
            if len(pts) >= 3:
                pygame.draw.aalines(self._layer, EDGE, True, pts)
        for a, b in self.links:
            self._draw_link(a, b)
        for _, rect, image, shadow in self.names:
            self._layer.blit(shadow, rect.move(1, 1))
            self._layer.blit(image, rect)

    def name_size(self) -> int:
        """The font size of the territory names at the current zoom."""
        return max(NAME_MIN, min(NAME_MAX, round(self.badge_radius() * 0.8)))

    def _place_names(self) -> list[tuple[int, pygame.Rect, pygame.Surface, pygame.Surface]]:
        """Territory names on the map (layer pixels), biggest territories first, beside
        their army badges: below, above, right or left, on one line or (a name of several
        words) on two; a name that would cover another name or a badge anywhere is left
        out (zooming in makes room). (territory, rect, text, shadow) per name drawn."""
        if self.badges_only:
            return []
        radius = self.badge_radius()
        size = self.name_size()
        fonts = [theme.font(size, True)]
        if size > NAME_MIN:  # a name short of room tries a smaller size last
            fonts.append(theme.font(max(NAME_MIN, size - 2), True))
        badges = []
        for label in self.labels:
            x, y = self.to_layer(label)
            badges.append(pygame.Rect(round(x) - radius, round(y) - radius, 2 * radius, 2 * radius))
        star = round(radius * STAR)
        for t in sorted(self.marked):
            x, y = self.to_layer(self.labels[t])
            centre = (round(x) + radius, round(y) - radius)
            badges.append(pygame.Rect(centre[0] - star, centre[1] - star, 2 * star, 2 * star))
        w, h = self.layer_size()
        room = pygame.Rect(0, 0, w, h)
        choices = [
            [
                (font, lines)
                for font in fonts
                for lines in _name_lines(self.board[self.tables.ids[t]].name)
            ]
            for t in range(len(self.labels))
        ]
        options = [
            [_render_lines(font, lines, NAME_INK) for font, lines in choice] for choice in choices
        ]
        # The names with the fewest free spots (among the badges alone) go first.
        free = [
            sum(
                len(_free_spots(image.get_rect(), badges[t], room, [], badges))
                for image in options[t]
            )
            for t in range(len(self.labels))
        ]
        order = sorted(range(len(self.labels)), key=lambda t: (free[t], -_area(self.polygons[t])))
        placed: list[tuple[int, pygame.Rect, pygame.Surface, pygame.Surface]] = []
        taken: list[pygame.Rect] = []
        for t in order:
            for (font, lines), image in zip(choices[t], options[t], strict=True):
                spots = _free_spots(image.get_rect(), badges[t], room, taken, badges)
                spot = spots[0] if spots else None
                if spot is not None:
                    shadow = _render_lines(font, lines, theme.SHADOW)
                    placed.append((t, spot, image, shadow))
                    taken.append(spot.inflate(4, 0))
                    break
        return placed

    def _draw_link(self, a: int, b: int) -> None:
        """Neighbours whose shapes do not touch: a line, dark under light dashes, across
        the gap between their nearest edge pixels (between their labels when the link
        runs around the world), with a dot at each end."""
        assert self._layer is not None and self._ids is not None
        w = self._layer.get_width()
        pa, pb = self.to_layer(self.labels[a]), self.to_layer(self.labels[b])
        if abs(pa[0] - pb[0]) > w / 2:
            self._draw_lanes(self._layer, [(a, b)], over_land=True)
            return
        p, q = _nearest_edges(self._ids, a + 1, b + 1, pa, pb)
        dx, dy = q[0] - p[0], q[1] - p[1]
        length = math.hypot(dx, dy) or 1.0
        thick = max(2, min(4, round(4 * self.scale)))  # thin on a small preview
        reach = max(float(thick), self.badge_radius() * 0.5 * min(1.0, self.scale))
        p = (p[0] - dx / length * reach, p[1] - dy / length * reach)
        q = (q[0] + dx / length * reach, q[1] + dy / length * reach)
        pygame.draw.line(self._layer, EDGE, p, q, thick)
        _dashed(self._layer, p, q, self.scale * 0.5)
        for end in (p, q):
            pygame.draw.circle(self._layer, EDGE, end, thick)
            pygame.draw.circle(self._layer, LANE, end, max(1, thick // 2))

    def _draw_lanes(
        self, layer: pygame.Surface, pairs: Sequence[tuple[int, int]], over_land: bool = False
    ) -> None:
        """Dashed lines between the labels of `pairs` (sea lanes, links around the world);
        `over_land` lays each on a dark line first so that it reads on any fill."""
        w = layer.get_width()
        for a, b in pairs:
            pa, pb = self.to_layer(self.labels[a]), self.to_layer(self.labels[b])
            if abs(pa[0] - pb[0]) > w / 2:
                # The lane wraps around the world: run each end off its nearer edge.
                left, right = (pa, pb) if pa[0] < pb[0] else (pb, pa)
                mid_y = (left[1] + right[1]) / 2
                parts = [(left, (0.0, mid_y)), (right, (float(w), mid_y))]
            else:
                parts = [(pa, pb)]
            for p, q in parts:
                if over_land:
                    pygame.draw.line(layer, EDGE, p, q, max(2, min(4, round(4 * self.scale))))
                _dashed(layer, p, q, self.scale)

    def draw(
        self,
        surface: pygame.Surface,
        armies: Sequence[int],
        owners: Sequence[int],
        *,
        hover: int | None = None,
        selected: int | None = None,
        targets: Sequence[int] = (),
        extra: dict[int, int] | None = None,
        badges: bool = True,
        group: Sequence[int] = (),
        marks: Mapping[int, Colour] | None = None,
    ) -> None:
        """Paint the map: the static layer, then outlines for the hovered territory (and its
        neighbours), a `group` (a continent), the selection and its targets, then the army
        badges. `extra` adds armies not yet committed (shown as "+n"); `marks` puts a star in
        a colour on territories (the capitals)."""
        self._settle -= 1
        marked = frozenset(marks or ())
        if marked != self.marked and self._layer is not None and not self.stale:
            self.marked = marked
            self.names = self._place_names()
            self._occupied = None
            self._spots.clear()
            self.dirty_fills = True
        self.marked = marked
        self._ensure_layer(settle=True)
        assert self._layer is not None
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        surface.fill(SEA, self.rect)
        if self.stale:
            self._blit_scaled(surface)
        else:
            surface.blit(
                self._layer, (self.rect.x - round(self.pan[0]), self.rect.y - round(self.pan[1]))
            )
        if hover is not None:
            for n in self.tables.adj[hover]:
                self._outline(surface, n, theme.TEXT_MUTED, 2, smooth=False)
        for t in group:
            self._outline(surface, t, theme.HOVER, 3)
        for t in targets:
            self._outline(surface, t, theme.DANGER, 3)
        if hover is not None:
            self._outline(surface, hover, theme.TEXT, 3)
        if selected is not None:
            self._outline(surface, selected, theme.ACCENT, 4)
        radius = self.badge_radius()
        for t in range(len(armies) if badges else 0):
            self._badge(surface, t, armies[t], radius, (extra or {}).get(t, 0))
        for t, colour in (marks or {}).items():
            x, y = self.label_screen(t)
            centre = (x + radius, y - radius)
            draw_star(surface, centre, radius * STAR, theme.SHADOW)
            draw_star(surface, centre, radius * 0.9, colour)
        surface.set_clip(clip)

    def _blit_scaled(self, surface: pygame.Surface) -> None:
        """The built layer stretched to the current zoom (cheap, a little blurry)."""
        assert self._layer is not None
        k = self._layer_scale / self.scale
        x0, y0 = self._old_layer(self.pan[0], self.pan[1])
        size = (max(1, round(self.rect.width * k)), max(1, round(self.rect.height * k)))
        window = pygame.Surface(size)
        window.fill(SEA)
        window.blit(self._layer, (-x0, -y0))
        surface.blit(pygame.transform.scale(window, self.rect.size), self.rect)

    def _outline(
        self, surface: pygame.Surface, t: int, colour: Colour, width: int, smooth: bool = True
    ) -> None:
        ox, oy = self.rect.x - self.pan[0], self.rect.y - self.pan[1]
        if self.art is not None:
            if not self.stale:  # while a zoom settles only the picture is stretched
                image, corner = self._edge_image(t, colour, width)
                surface.blit(image, (round(corner[0] + ox), round(corner[1] + oy)))
            return
        k = self.scale / self._layer_scale if self.stale else 1.0
        pts = [
            ((x - MARGIN) * k + MARGIN + ox, (y - MARGIN) * k + MARGIN + oy)
            for x, y in self._screen_polys[t]
        ]
        if len(pts) >= 3:
            pygame.draw.lines(surface, colour, True, pts, width)
            if smooth:
                pygame.draw.aalines(surface, colour, True, pts)

    def _art_ids(self, size: tuple[int, int]) -> IntArray:
        """The artwork's index image sampled at every layer pixel (nearest pixel)."""
        assert self.art is not None
        w, h = self.art.size
        s = self.scale
        xs = np.floor((np.arange(size[0]) - MARGIN) / s).astype(np.int64)
        ys = np.floor((np.arange(size[1]) - MARGIN) / s).astype(np.int64)
        inside = (xs[:, None] >= 0) & (xs[:, None] < w) & (ys[None, :] >= 0) & (ys[None, :] < h)
        ids = self.art.index[np.clip(xs, 0, w - 1)[:, None], np.clip(ys, 0, h - 1)[None, :]]
        return np.where(inside, ids, 0).astype(np.int32)

    def tables_pairs(self) -> set[tuple[int, int]]:
        """The board's neighbours (land and sea) as (a, b) index pairs, a < b."""
        return {(a, b) for a, near in enumerate(self.tables.adj) for b in near if a < b}

    def shown_adjacency(self) -> set[tuple[int, int]]:
        """The (a, b) territory pairs, a < b, that the map shows as neighbours at this
        zoom: territories whose pixels touch in the id raster, plus the sea lanes and
        links drawn between labels."""
        self._ensure_layer(settle=True)
        assert self._ids is not None
        return touching_pairs(self._ids) | self._sea_lines() | set(self.links)

    def _sea_lines(self) -> set[tuple[int, int]]:
        """The sea lanes drawn as such (on the sea: not on a map drawn from its graph,
        where a lane that does not touch is a link over the land)."""
        return set() if self.drawn else {(a, b) for a, b in self.lanes}

    def _edge_image(
        self, t: int, colour: Colour, width: int
    ) -> tuple[pygame.Surface, tuple[int, int]]:
        """Territory `t`'s outline drawn from the id raster (artwork maps): an image and its
        layer corner, cached per zoom."""
        key = (t, colour, width)
        cached = self._edges.get(key)
        if cached is not None:
            return cached
        assert self._ids is not None
        xs, ys = np.nonzero(self._ids == t + 1)
        if len(xs) == 0:
            empty = (pygame.Surface((1, 1), pygame.SRCALPHA), (0, 0))
            self._edges[key] = empty
            return empty
        pad = width + 1
        x0, y0 = int(xs.min()) - pad, int(ys.min()) - pad
        mask = np.zeros((int(xs.max()) - x0 + pad + 1, int(ys.max()) - y0 + pad + 1), dtype=bool)
        mask[xs - x0, ys - y0] = True
        inner = mask.copy()
        for _ in range(width):
            shrunk = inner.copy()
            shrunk[1:, :] &= inner[:-1, :]
            shrunk[:-1, :] &= inner[1:, :]
            shrunk[:, 1:] &= inner[:, :-1]
            shrunk[:, :-1] &= inner[:, 1:]
            inner = shrunk
        ring = mask & ~inner
        image = pygame.Surface(mask.shape, pygame.SRCALPHA)
        image.fill((*colour, 0))
        alpha = pygame.surfarray.pixels_alpha(image)
        alpha[ring] = 255
        del alpha
        self._edges[key] = (image, (x0, y0))
        return image, (x0, y0)

    def badge_radius(self) -> int:
        return max(9, min(18, round(11 * math.sqrt(self.scale / 0.6))))

    def _badge(self, surface: pygame.Surface, t: int, armies: int, radius: int, extra: int) -> None:
        colour = self.colours[t]
        key = (colour, armies, radius)
        image = self._badges.get(key)
        if image is None:
            image = _badge_image(colour, armies, radius)
            self._badges[key] = image
        centre = self.label_screen(t)
        surface.blit(image, image.get_rect(center=centre))
        if extra:
            font = theme.font(max(12, radius), True)
            text = font.render(f"+{extra}", True, theme.HOVER)
            back = text.get_rect(midleft=(centre[0] + radius + 2, centre[1])).inflate(8, 2)
            pygame.draw.rect(surface, (12, 16, 25), back, border_radius=6)
            surface.blit(text, text.get_rect(center=back.center))


def _badge_image(colour: Colour, armies: int, radius: int) -> pygame.Surface:
    text = str(armies)
    font = theme.font(max(11, round(radius * 1.15)), True)
    label = font.render(text, True, _ink(colour))
    w = max(2 * radius, label.get_width() + 10)
    size = (w + 4, 2 * radius + 4)
    image = pygame.Surface(size, pygame.SRCALPHA)
    body = pygame.Rect(2, 2, w, 2 * radius)
    pygame.draw.rect(image, (*theme.SHADOW, 150), body.move(0, 2), border_radius=radius)
    pygame.draw.rect(image, theme.lighten(colour, 0.18), body, border_radius=radius)
    pygame.draw.rect(image, EDGE, body, 2, border_radius=radius)
    image.blit(label, label.get_rect(center=body.center))
    return image


def _name_lines(name: str) -> list[tuple[str, ...]]:
    """A name on one line, then (several words) split in two at the middlemost space."""
    words = name.split()
    out: list[tuple[str, ...]] = [(name,)]
    if len(words) > 1:
        cut = min(
            range(1, len(words)),
            key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))),
        )
        out.append((" ".join(words[:cut]), " ".join(words[cut:])))
    return out


def _render_lines(font: pygame.font.Font, lines: Sequence[str], colour: Colour) -> pygame.Surface:
    """Lines of text centred under each other on a transparent surface."""
    images = [font.render(line, True, colour) for line in lines]
    if len(images) == 1:
        return images[0]
    step = font.get_linesize() - 2
    out = pygame.Surface(
        (max(i.get_width() for i in images), step * (len(images) - 1) + images[-1].get_height()),
        pygame.SRCALPHA,
    )
    for k, image in enumerate(images):
        out.blit(image, image.get_rect(midtop=(out.get_width() // 2, k * step)))
    return out


def _free_spots(
    rect: pygame.Rect,
    badge: pygame.Rect,
    room: pygame.Rect,
    taken: Sequence[pygame.Rect],
    badges: Sequence[pygame.Rect],
) -> list[pygame.Rect]:
    """`rect` moved beside `badge` (below, above, right, left, then below or above but
    reaching out to one side): the spots that stay in `room` and cover no taken rect nor
    any badge, best first."""
    out = []
    for anchor, point in (
        ("midtop", badge.midbottom),
        ("midbottom", badge.midtop),
        ("midleft", (badge.right + 2, badge.centery)),
        ("midright", (badge.left - 2, badge.centery)),
        ("topleft", (badge.centerx, badge.bottom)),
        ("topright", (badge.centerx, badge.bottom)),
        ("bottomleft", (badge.centerx, badge.top)),
        ("bottomright", (badge.centerx, badge.top)),
    ):
        spot = pygame.Rect(rect)
        setattr(spot, anchor, point)
        if room.contains(spot) and spot.collidelist(taken) < 0 and spot.collidelist(badges) < 0:
            out.append(spot)
    return out


def capital_marks(capitals: Sequence[int], colour: Callable[[int], Colour]) -> dict[int, Colour]:
    """The `marks` of `MapView.draw` for capitals (territory per seat, -1: none): a star
    in the seat's colour."""
    return {t: colour(seat) for seat, t in enumerate(capitals) if t >= 0}


def _nearest_edges(
    ids: IntArray, a: int, b: int, pa: tuple[float, float], pb: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The nearest pair of edge pixels of ids `a` and `b` (their labels `pa`, `pb` when
    either has no pixel at this zoom)."""
    ends = []
    for code in (a, b):
        mask = ids == code
        inner = mask.copy()
        inner[1:, :] &= mask[:-1, :]
        inner[:-1, :] &= mask[1:, :]
        inner[:, 1:] &= mask[:, :-1]
        inner[:, :-1] &= mask[:, 1:]
        xs, ys = np.nonzero(mask & ~inner)
        if len(xs) == 0:
            return pa, pb
        step = max(1, len(xs) // 600)  # bounded cost on huge layers
        ends.append(np.stack([xs[::step], ys[::step]], axis=1).astype(np.float64))
    d = np.hypot(
        ends[0][:, None, 0] - ends[1][None, :, 0], ends[0][:, None, 1] - ends[1][None, :, 1]
    )
    i, j = np.unravel_index(int(np.argmin(d)), d.shape)
    return (
        (float(ends[0][i, 0]), float(ends[0][i, 1])),
        (float(ends[1][j, 0]), float(ends[1][j, 1])),
    )


def _cut_contacts(ids: IntArray, compatible: npt.NDArray[np.bool_]) -> None:
    """Turn to sea (in place) both pixels of every 4-adjacent pair whose territories are
    not neighbours (shapes that meet at a corner, or a strip of sea lost when shrunk)."""
    for a, b in ((ids[1:, :], ids[:-1, :]), (ids[:, 1:], ids[:, :-1])):
        clash = ~compatible[a, b]
        a[clash] = 0
        b[clash] = 0


def _is_domination(board: Board) -> bool:
    return board.source is not None and board.source.lower().endswith(".map")


def _borders(ids: IntArray) -> npt.NDArray[np.bool_]:
    """Land pixels next to a pixel of another territory (the right or lower side)."""
    out = np.zeros(ids.shape, dtype=bool)
    d0 = (ids[1:, :] != ids[:-1, :]) & (ids[1:, :] > 0) & (ids[:-1, :] > 0)
    out[1:, :] |= d0
    d1 = (ids[:, 1:] != ids[:, :-1]) & (ids[:, 1:] > 0) & (ids[:, :-1] > 0)
    out[:, 1:] |= d1
    return out


def _grow(halo: npt.NDArray[np.int8]) -> None:
    """Spread continent ids one pixel into the sea (in place)."""
    for dst, src in (
        (halo[1:, :], halo[:-1, :]),
        (halo[:-1, :], halo[1:, :]),
        (halo[:, 1:], halo[:, :-1]),
        (halo[:, :-1], halo[:, 1:]),
    ):
        take = (dst < 0) & (src >= 0)
        dst[take] = src[take]


def _ink(colour: Colour) -> Colour:
    """Dark text on light fills, light text on dark ones."""
    r, g, b = colour
    return (16, 18, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 120 else theme.TEXT


def _dashed(
    surface: pygame.Surface, a: tuple[float, float], b: tuple[float, float], scale: float
) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    dash = max(5.0, 9 * scale)
    ux, uy = dx / length, dy / length
    pos = 0.0
    while pos < length:
        end = min(length, pos + dash)
        pygame.draw.aaline(
            surface, LANE, (a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)
        )
        pos += 2 * dash


def _area(poly: Sequence[tuple[float, float]]) -> float:
    """The polygon's area (shoelace formula; 0 for fewer than 3 points)."""
    n = len(poly)
    nxt = [poly[(i + 1) % n] for i in range(n)]
    twice = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, nxt, strict=True))
    return abs(twice) / 2


def _centre(poly: Sequence[tuple[float, float]]) -> tuple[float, float]:
    if not poly:
        return (0.0, 0.0)
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
