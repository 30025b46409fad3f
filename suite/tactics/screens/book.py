"""The pieces of the Book of Tactics: the mini-map, the player list, the 3x3 army
formation with its piece menu, and the stats table.

They draw into a rect they are given and report clicks through callbacks, so the set-up
screen (before the battle) and the battle's HUD (the book re-opened during the battle)
share them. Everything they show comes from the pack (static data), the player's profile
and ratings, or the seat's view.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from suite.tactics.assets.model import BORDER_INDEX, MapGrid, Pack, Piece
from suite.tactics.render import PackArt
from suite.tactics.rules.data import load_rules
from suite.tactics.rules.requirements import Profile, satisfied
from suite.tactics.skins import STAND, default_style, frame_index
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.scale import px, ui_factor
from suite.ui.theme import Colour
from suite.ui.widgets import Button, draw_panel, draw_text, fit_text, text_image


def formation_side() -> int:
    """The formation is side x side slots (RULINGS T8, from the rules data)."""
    return load_rules().army.formation_side


def team_colour(army: int) -> Colour:
    """The RGB of army `army` (0 red, 1 green, 2 yellow, 3 blue), as skins are recoloured."""
    return default_style().colour(army % 4)


def short_form(piece: Piece) -> str:
    """The original's "17/7": HP + STR + DEF + AGI, then MOB + RANGE."""
    body = piece.hp + piece.strength + piece.defense + piece.agility
    return f"{body}/{piece.mobility + piece.range}"


# -- the mini-map ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _tile_colour(art: PackArt, index: int) -> Colour:
    surface = art.tile(index)
    w = surface.get_width()
    r, g, b, _ = pygame.transform.average_color(
        surface, pygame.Rect(w // 4, w // 8, w // 2, w // 4)
    )
    return int(r), int(g), int(b)


class MiniMap:
    """A coarse picture of a map: one square per cell, the four starts, the pieces."""

    def __init__(self, art: PackArt) -> None:
        self.art = art
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._key: tuple[int, int] | None = None
        self._image: pygame.Surface | None = None
        self.grid: MapGrid | None = None

    def picture(self, grid: MapGrid, side: int) -> pygame.Surface:
        key = (grid.map_id, side)
        if self._image is None or self._key != key:
            n = grid.size
            small = pygame.Surface((n, n))
            small.fill((8, 10, 16))
            for y in range(n):
                for x in range(n):
                    index = int(grid.tiles[y, x])
                    if index != BORDER_INDEX:
                        small.set_at((x, y), _tile_colour(self.art, index))
            self._image = pygame.transform.scale(small, (side, side))
            self._key = key
        return self._image

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        if self.grid is None or not self.rect.collidepoint(pos):
            return None
        n = self.grid.size
        x = (pos[0] - self.rect.x) * n // max(1, self.rect.width)
        y = (pos[1] - self.rect.y) * n // max(1, self.rect.height)
        return max(0, min(n - 1, x)), max(0, min(n - 1, y))

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        grid: MapGrid,
        pieces: Sequence[tuple[int, int, int]] = (),
    ) -> None:
        """Draw `grid` square in `rect`; `pieces` are (x, y, army) dots."""
        side = max(8, min(rect.width, rect.height))
        self.rect = pygame.Rect(0, 0, side, side)
        self.rect.center = rect.center
        self.grid = grid
        surface.blit(self.picture(grid, side), self.rect)
        pygame.draw.rect(surface, theme.PANEL_BORDER, self.rect, 1)
        cell = side / grid.size
        dot = max(3, min(12, round(cell * 0.8)))
        for army, start in enumerate(grid.starts):
            if start is None:
                continue
            centre = (self.rect.x + (start[0] + 0.5) * cell, self.rect.y + (start[1] + 0.5) * cell)
            pygame.draw.circle(surface, (0, 0, 0), centre, dot + 2)
            pygame.draw.circle(surface, team_colour(army), centre, dot, 2 if pieces else 0)
        for x, y, army in pieces:
            box = pygame.Rect(0, 0, max(3, round(cell)), max(3, round(cell)))
            box.center = (
                round(self.rect.x + (x + 0.5) * cell),
                round(self.rect.y + (y + 0.5) * cell),
            )
            pygame.draw.rect(surface, team_colour(army), box)
            pygame.draw.rect(surface, (0, 0, 0), box, 1)


# -- the player list -------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerLine:
    """One line of the player list. `note` replaces the score (e.g. "random army" before a
    battle); `reserve` pixels at the right are left for the caller's buttons."""

    army: int
    name: str
    version: str
    pieces: int
    hp: int
    kind: str  # "you", "human" or a bot level
    current: bool = False
    out: bool = False
    note: str = ""
    reserve: int = 0


def draw_players(
    surface: pygame.Surface, rect: pygame.Rect, lines: Sequence[PlayerLine], k: float = 1.0
) -> int:
    """The player list (colour, name, pack version, score line) at UI factor `k`; returns
    the row height."""
    row = max(px(34, k), min(px(52, k), rect.height // max(4, len(lines) or 1)))
    y = rect.y
    for line in lines:
        box = pygame.Rect(rect.x, y, rect.width, row - 6)
        draw_panel(
            surface,
            box,
            colour=theme.PANEL_LIGHT if line.current else theme.PANEL,
            border=theme.ACCENT if line.current else theme.PANEL_BORDER,
            radius=8,
            shadow=2,
        )
        swatch = pygame.Rect(box.x + 8, box.y + 6, px(14, k), box.height - 12)
        pygame.draw.rect(surface, team_colour(line.army), swatch, border_radius=4)
        ink = theme.DISABLED if line.out else theme.TEXT
        x = swatch.right + 8
        if line.current:
            cy = box.centery
            pygame.draw.polygon(
                surface, theme.ACCENT, [(x, cy - px(6, k)), (x + px(9, k), cy), (x, cy + px(6, k))]
            )
        x += px(16, k)
        right_edge = box.right - 10 - px(line.reserve, k)
        width = 0
        if not line.note:
            score = text_image(f"{line.pieces} / {line.hp}", px(16, k), ink, True)
            surface.blit(score, score.get_rect(midright=(right_edge, box.centery)))
            width = score.get_width() + 10
        room = right_edge - width - x
        tall = box.height >= px(40, k)
        name_y = box.y + 4 if tall else box.centery - px(11, k)
        draw_text(
            surface,
            fit_text(line.name, px(16, k), room, True),
            (x, name_y),
            size=px(16, k),
            colour=ink,
            bold=True,
        )
        if tall:
            detail = f"v{line.version}  {line.kind}" + (
                f"  \u2022  {line.note}" if line.note else ""
            )
            draw_text(
                surface,
                fit_text(detail, px(13, k), room),
                (x, box.y + 4 + theme.font(px(16, k), True).get_linesize()),
                size=px(13, k),
                colour=theme.TEXT_MUTED,
            )
        y += row
    return row


# -- the army formation ----------------------------------------------------------------------
class ArmyGrid:
    """The 3x3 formation: each slot shows its piece (stand frame in the army's colour),
    name and "17/7"; a right click on a slot asks for a piece (`on_menu(slot)`); a left
    click runs `on_pick(slot)` (in battle: the slot is a proxy of that piece)."""

    def __init__(
        self,
        art: PackArt,
        pack: Pack,
        on_menu: Callable[[int], None] | None,
        on_pick: Callable[[int], None] | None = None,
    ) -> None:
        self.art = art
        self.pack = pack
        self.on_menu = on_menu
        self.on_pick = on_pick
        self.side = formation_side()
        self.slots = [pygame.Rect(0, 0, 0, 0) for _ in range(self.side * self.side)]
        self.hovered: int | None = None
        self._images: dict[tuple[int, int, int], pygame.Surface] = {}

    def image(self, kind: int, army: int, side: int) -> pygame.Surface:
        key = (kind, army, side)
        if key not in self._images:
            frame = self.art.frames(kind, army, True)[frame_index(STAND)]
            self._images[key] = pygame.transform.smoothscale(frame, (side, side))
        return self._images[key]

    def layout(self, rect: pygame.Rect) -> None:
        side = self.side
        cell = min(rect.width, rect.height) // side
        left = rect.centerx - cell * side // 2
        top = rect.centery - cell * side // 2
        for i in range(side * side):
            self.slots[i] = pygame.Rect(
                left + (i % side) * cell, top + (i // side) * cell, cell - 6, cell - 6
            )

    def slot_at(self, pos: tuple[int, int]) -> int | None:
        for i, slot in enumerate(self.slots):
            if slot.collidepoint(pos):
                return i
        return None

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.slot_at(event.pos)
            return False
        if event.type != pygame.MOUSEBUTTONUP:
            return False
        slot = self.slot_at(event.pos)
        if slot is None:
            return False
        if event.button == 3 and self.on_menu is not None:
            self.on_menu(slot)
            return True
        if event.button == 1 and self.on_pick is not None:
            self.on_pick(slot)
            return True
        return False

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        formation: Sequence[int],
        army: int,
        *,
        life: Sequence[float | None] = (),
        dim: Sequence[bool] = (),
        k: float = 1.0,
    ) -> None:
        """Draw the formation (piece ids row by row) at UI factor `k`; `life` (0..1, None =
        dead) and `dim` per slot are shown in battle."""
        self.layout(rect)
        for i, slot in enumerate(self.slots):
            kind = formation[i] if i < len(formation) else 0
            hot = self.hovered == i
            draw_panel(
                surface,
                slot,
                colour=theme.PANEL_LIGHT if hot else theme.PANEL,
                border=theme.ACCENT if hot else theme.PANEL_BORDER,
                radius=8,
                shadow=2,
            )
            piece = self.pack.pieces.get(kind) if kind else None
            alive = i >= len(life) or life[i] is not None
            if piece is None or not alive:
                label = "empty" if piece is None else "fallen"
                draw_text(
                    surface,
                    label,
                    slot.center,
                    size=px(13, k),
                    colour=theme.TEXT_MUTED,
                    anchor="center",
                )
                continue
            side = max(16, slot.height - px(34, k))
            image = self.image(kind, army, side)
            if i < len(dim) and dim[i]:
                image = image.copy()
                image.set_alpha(110)
            surface.blit(image, image.get_rect(midtop=(slot.centerx, slot.y + 2)))
            draw_text(
                surface,
                short_form(piece),
                (slot.right - 6, slot.y + 4),
                size=px(16, k),
                bold=True,
                colour=theme.ACCENT,
                anchor="topright",
            )
            draw_text(
                surface,
                fit_text(piece.name, px(13, k), slot.width - 8),
                (slot.centerx, slot.bottom - 6),
                size=px(13, k),
                anchor="midbottom",
            )
            if i < len(life) and life[i] is not None:
                bar = pygame.Rect(slot.x + 5, slot.y + 6, px(5, k), slot.height - px(30, k))
                pygame.draw.rect(surface, (20, 20, 24), bar)
                filled = round(bar.height * float(life[i] or 0.0))
                pygame.draw.rect(
                    surface, theme.SUCCESS, (bar.x, bar.bottom - filled, bar.width, filled)
                )


def menu_entries(
    pieces: dict[int, Piece],
    formation: Sequence[int],
    slot: int,
    profile: Profile,
) -> list[tuple[int, str, str, bool]]:
    """The piece menu of `slot`: (piece id, label, why greyed, enabled); id 0 = empty.

    A piece is greyed when the army already holds its max# (not counting this slot) or
    the profile does not meet its requirement (RULINGS T8, T12)."""
    entries = [(0, "(empty)", "Leave this slot empty", True)]
    others = [p for i, p in enumerate(formation) if i != slot and p]
    for pid, piece in pieces.items():
        count = others.count(pid)
        label = f"{piece.name}  {short_form(piece)}"
        if count >= piece.max_count:
            entries.append((pid, label, f"Your army already holds {piece.max_count} (max#)", False))
        elif not satisfied(piece.requirements, profile):
            entries.append((pid, label, f"Needs {piece.requirements}", False))
        else:
            tip = (
                f"HP {piece.hp}  STR {piece.strength}  DEF {piece.defense}  AGI {piece.agility}"
                f"  MOB {piece.mobility}  RNG {piece.range}  (max# {piece.max_count})"
            )
            entries.append((pid, label, tip, True))
    return entries


class PieceMenu(Scene):
    """The right-click menu of a formation slot: every piece with its "17/7", greyed when
    it cannot be chosen (the tooltip says why). A click picks; Esc or a click outside
    closes it. A long list (real packs hold 100+ pieces) runs in columns, and when they
    do not all fit the window the wheel pages through them."""

    transparent = True
    ROW = 30
    COLUMN = 230
    MIN_COLUMN = 170

    def __init__(
        self,
        app: App,
        at: tuple[int, int],
        entries: list[tuple[int, str, str, bool]],
        on_pick: Callable[[int], None],
    ) -> None:
        super().__init__(app)
        self.on_pick = on_pick
        self.at = at
        self.first = 0  # the first column shown
        self.buttons: list[tuple[int, Button]] = [
            (
                pid,
                Button(
                    label,
                    pygame.Rect(0, 0, 0, 0),
                    functools.partial(self.pick, pid),
                    tooltip=tip,
                    enabled=enabled,
                    font_size=14,
                ),
            )
            for pid, label, tip, enabled in entries
        ]
        self.labels = [label for _, label, _, _ in entries]
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.k = 1.0
        self.on_resize(app.size)

    @property
    def shown(self) -> list[tuple[int, Button]]:
        """The entries of the columns on screen."""
        start = self.first * self.rows
        return self.buttons[start : start + self.rows * self.columns]

    def on_resize(self, size: tuple[int, int]) -> None:
        k = self.k = ui_factor(size)
        row_h = px(self.ROW, k)
        self.rows = max(4, min(len(self.buttons), (size[1] - 24) // row_h))
        needed = -(-len(self.buttons) // self.rows)
        width = max(px(self.MIN_COLUMN, k), min(px(self.COLUMN, k), (size[0] - 24) // needed))
        self.columns = max(1, min(needed, (size[0] - 24) // width))
        self.pages = needed - self.columns
        self.first = max(0, min(self.first, self.pages))
        height = self.rows * row_h + 12 + (px(20, k) if self.pages else 0)
        self.rect = pygame.Rect(self.at[0], self.at[1], width * self.columns + 12, height)
        self.rect.clamp_ip(pygame.Rect((0, 0), size))
        for (_, button), label in zip(self.buttons, self.labels, strict=True):
            button.rect = pygame.Rect(0, 0, 0, 0)
            button.label = fit_text(label, px(14, k), width - 20, True)
            button.font_size = px(14, k)
        for i, (_, button) in enumerate(self.shown):
            col, row = divmod(i, self.rows)
            x = self.rect.x + 6 + col * width
            button.rect = pygame.Rect(x, self.rect.y + 6 + row * row_h, width - 6, row_h - 2)

    def pick(self, pid: int) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()
        self.on_pick(pid)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL and self.pages:
            self.first = max(0, min(self.pages, self.first - event.y))
            self.on_resize(self.app.size)
            return
        if event.type == pygame.MOUSEBUTTONUP and not self.rect.collidepoint(event.pos):
            self.app.pop()
            return
        for _, button in self.shown:
            if button.handle_event(event):
                return

    def animating(self) -> bool:
        """Nothing here moves by itself: drawn after input only (the app keeps drawing a
        moment after each input for hover and tooltips)."""
        return False

    def update(self, dt: float) -> None:
        for _, button in self.shown:
            button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        draw_panel(
            surface, self.rect, colour=(16, 20, 30), border=theme.ACCENT, radius=8, alpha=250
        )
        for _, button in self.shown:
            button.draw(surface)
        if self.pages:
            last = self.first + self.columns
            total = self.pages + self.columns
            draw_text(
                surface,
                f"columns {self.first + 1}-{last} of {total}: wheel for more",
                (self.rect.centerx, self.rect.bottom - 6),
                size=px(12, self.k),
                colour=theme.TEXT_MUTED,
                anchor="midbottom",
            )
        for _, button in self.shown:
            button.draw_tooltip(surface)


# -- the stats table -------------------------------------------------------------------------
@dataclass(frozen=True)
class StatsRow:
    """A stats line: own totals, or another player's record relative to you."""

    name: str
    army: int
    wins: int
    losses: int
    rating: float | None  # None: a bot (its rating never changes)
    war_points: int
    guild: str
    own: bool


WIDE_COLUMNS = (
    ("Player", 0.0),
    ("Won", 0.42),
    ("Lost", 0.52),
    ("Win %", 0.62),
    ("Rating", 0.75),
    ("War pts", 0.88),
)
NARROW_COLUMNS = (
    ("Player", 0.0),
    ("W", 0.46),
    ("L", 0.55),
    ("%", 0.64),
    ("Elo", 0.76),
    ("WP", 0.9),
)


def draw_stats(
    surface: pygame.Surface,
    rect: pygame.Rect,
    rows: Sequence[StatsRow],
    wars: Sequence[str],
    empty_wars: str = "none",
    k: float = 1.0,
) -> None:
    """The stats view: one line per player (yours: totals; others: against you), then
    the guilds at open war (`empty_wars` when there are none). Narrow rects get short
    column titles (W, L, %, Elo, WP). Sizes at UI factor `k`."""
    narrow = rect.width < px(420, k)
    columns = NARROW_COLUMNS if narrow else WIDE_COLUMNS
    size = px(13 if narrow else 15, k)
    for title, at in columns:
        draw_text(
            surface,
            title,
            (rect.x + round(rect.width * at), rect.y),
            size=px(13 if narrow else 14, k),
            colour=theme.TEXT_MUTED,
            bold=True,
        )
    y = rect.y + px(24, k)
    for row in rows:
        ink = theme.ACCENT if row.own else theme.TEXT
        pygame.draw.rect(
            surface, team_colour(row.army), (rect.x, y + 4, px(8, k), px(14, k)), border_radius=3
        )
        name = row.name + (f" [{row.guild}]" if row.guild else "") + ("" if row.own else " vs you")
        room = round(rect.width * columns[1][1]) - px(18, k)
        draw_text(
            surface,
            fit_text(name, size, room, row.own),
            (rect.x + px(14, k), y),
            size=size,
            colour=ink,
            bold=row.own,
        )
        games = row.wins + row.losses
        cells = (
            str(row.wins),
            str(row.losses),
            f"{100 * row.wins / games:.0f}%" if games else "-",
            "bot" if row.rating is None else f"{row.rating:.0f}",
            str(row.war_points) if row.own else "",
        )
        for (_, at), text in zip(columns[1:], cells, strict=True):
            draw_text(surface, text, (rect.x + round(rect.width * at), y), size=size, colour=ink)
        y += px(26, k)
    y += 10
    draw_text(
        surface,
        "Guilds at open war",
        (rect.x, y),
        size=px(14, k),
        colour=theme.TEXT_MUTED,
        bold=True,
    )
    y += px(22, k)
    if not wars:
        draw_text(
            surface,
            fit_text(empty_wars, px(14, k), rect.width),
            (rect.x, y),
            size=px(14, k),
            colour=theme.TEXT_MUTED,
        )
    for war in wars:
        if y > rect.bottom - px(18, k):
            break
        draw_text(surface, fit_text(war, px(14, k), rect.width), (rect.x, y), size=px(14, k))
        y += px(20, k)
