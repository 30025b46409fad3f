"""The battle's HUD: the top line, the proxy buttons down the side, the Book of Tactics
re-opened over the battle (map, army and stats views), and the F1 help.

All of it reads the seat's view (and static pack data); clicks come back through
callbacks to the battle screen, which turns them into actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from suite.tactics.assets.model import MapGrid, Pack
from suite.tactics.render import PackArt
from suite.tactics.rules.view import PieceView, TacticsView
from suite.tactics.screens.book import (
    ArmyGrid,
    MiniMap,
    PlayerLine,
    StatsRow,
    draw_players,
    draw_stats,
    team_colour,
)
from suite.ui import theme
from suite.ui.app import Scene
from suite.ui.dialogs import veil
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import Button, draw_panel, draw_text, fit_text

TOP = 46  # height of the top line
PROXY_W, PROXY_NARROW, PROXY_H = 150, 58, 40
WAIT_SHOWN_AFTER = 10.0  # seconds of waiting before the timer appears (as the original)
PHASES = {"select": "choosing a piece", "move": "walking", "attack": "attacking", "over": "over"}
VIEWS = ("map", "army", "stats")


def army_of(view: TacticsView, seat: int) -> int:
    """The army colour index (0 red .. 3 blue) of `seat`."""
    return next((line.colour for line in view.seats if line.seat == seat), seat % 4)


def top_line(
    view: TacticsView, names: Sequence[str], waiting: float, local: bool, compact: bool = False
) -> str:
    """Whose turn it is, the phase, the round and what is left of the turn; `compact`
    (for a narrow window) leaves out the team name, which the colour dot shows."""
    if view.outcome is not None or view.current is None:
        return f"Battle over after {view.round} rounds"
    name = names[view.current] if view.current < len(names) else f"Seat {view.current + 1}"
    team = next((s.team for s in view.seats if s.seat == view.current), "")
    whose = f"{name}, your turn" if local else f"{name}'s turn"
    phase = PHASES.get(view.phase, view.phase)
    if compact:
        text = f"R{view.round}  \u2022  {whose}  \u2022  {phase}"
    else:
        text = f"Round {view.round}  \u2022  {whose} ({team})  \u2022  {phase}"
    if view.pieces_left_this_turn is not None:
        text += f"  \u2022  {view.pieces_left_this_turn} to move"
    if not local and waiting >= WAIT_SHOWN_AFTER:
        text += f"  \u2022  waiting {int(waiting)} s"
    return text


def player_lines(
    view: TacticsView, names: Sequence[str], kinds: Sequence[str], viewer: int | None
) -> list[PlayerLine]:
    """The Book's player list in battle: colour, name, pack version, score line."""
    version = "?" if view.map.version is None else f"{view.map.version:g}"
    lines = []
    for line in view.seats:
        kind = (
            "you" if line.seat == viewer else (kinds[line.seat] if line.seat < len(kinds) else "")
        )
        lines.append(
            PlayerLine(
                army=line.colour,
                name=names[line.seat] if line.seat < len(names) else f"Seat {line.seat + 1}",
                version=version,
                pieces=line.pieces_left,
                hp=line.total_hp,
                kind=kind,
                current=line.seat == view.current,
                out=line.eliminated,
            )
        )
    return lines


# -- proxies ---------------------------------------------------------------------------------
@dataclass
class Proxy:
    """A proxy button of one of the seat's pieces (None rect: the piece is dead)."""

    uid: int
    rect: pygame.Rect | None


def may_still_act(view: TacticsView, piece: PieceView) -> bool:
    """Whether a piece could still be commanded this turn (its proxy is wide): alive, not
    yet commanded, rested enough in "all rested" turns (T1, numbers from the view), and
    not boxed in (no tile to move to, no enemy to attack: a wide proxy would do nothing)."""
    if not piece.alive or piece.acted or piece.uid == view.selected or piece.boxed:
        return False
    if view.pieces_left_this_turn == 0:
        return False
    return view.pieces_per_turn != 0 or piece.rest >= view.rules.act_threshold


def layout_proxies(
    view: TacticsView, seat: int | None, top: int, bottom: int, k: float = 1.0
) -> list[Proxy]:
    """One proxy per piece of `seat`, down the left side: wide when it may act now, narrow
    otherwise, a blank spot for a dead one (sizes at UI factor `k`)."""
    if seat is None:
        return []
    mine = [p for p in view.pieces if p.owner == seat]
    step = min(px(PROXY_H + 6, k), max(24, (bottom - top - 8) // max(1, len(mine))))
    height = step - 6
    able = {p.uid for p in mine if may_still_act(view, p)} if view.current == seat else set()
    proxies = []
    for i, piece in enumerate(mine):
        if not piece.alive:
            proxies.append(Proxy(piece.uid, None))
            continue
        width = px(PROXY_W if piece.uid in able else PROXY_NARROW, k)
        proxies.append(Proxy(piece.uid, pygame.Rect(8, top + 8 + i * step, width, height)))
    return proxies


def draw_proxy(
    surface: pygame.Surface,
    rect: pygame.Rect,
    piece: PieceView,
    army: int,
    image: pygame.Surface,
    hot: bool,
    selected: bool,
    k: float = 1.0,
) -> None:
    border = theme.ACCENT if hot or selected else theme.PANEL_BORDER
    draw_panel(
        surface,
        rect,
        colour=theme.PANEL_LIGHT if hot else theme.PANEL,
        border=border,
        radius=7,
        shadow=2,
        border_width=2 if selected else 1,
    )
    meter = pygame.Rect(rect.x + 4, rect.y + 4, px(5, k), rect.height - 8)
    pygame.draw.rect(surface, (20, 20, 24), meter)
    share = max(0.0, min(1.0, piece.hp / max(1, piece.max_hp)))
    filled = round(meter.height * share)
    colour = theme.SUCCESS if share > 0.5 else (theme.ACCENT if share > 0.25 else theme.DANGER)
    pygame.draw.rect(surface, colour, (meter.x, meter.bottom - filled, meter.width, filled))
    side = rect.height - 4
    pic = pygame.transform.smoothscale(image, (side, side)) if image.get_height() != side else image
    surface.blit(pic, (meter.right + 2, rect.y + 2))
    if rect.width > px(PROXY_NARROW, k):
        x = meter.right + side + 6
        draw_text(
            surface,
            fit_text(piece.name, px(14, k), rect.right - x - 4, True),
            (x, rect.y + 3),
            size=px(14, k),
            bold=True,
            colour=team_colour(army),
        )
        draw_text(
            surface,
            f"{piece.hp}/{piece.max_hp} HP  r{piece.rest}",
            (x, rect.bottom - 3),
            size=px(12, k),
            colour=theme.TEXT_MUTED,
            anchor="bottomleft",
        )


# -- the book over the battle ----------------------------------------------------------------
class BookPanel:
    """The Book of Tactics as a panel over the battle: a view switch (map, army, stats),
    the mini-map (click: centre the battlefield there) and the player list, the army
    formation as proxies, or the stats table."""

    def __init__(
        self,
        pack: Pack,
        art: PackArt,
        grid: MapGrid,
        on_centre: Callable[[tuple[int, int]], None],
        on_piece: Callable[[int], None],
        stats: Callable[[], tuple[list[StatsRow], list[str]]],
    ) -> None:
        self.pack = pack
        self.grid = grid
        self.minimap = MiniMap(art)
        self.on_centre = on_centre
        self.on_piece = on_piece
        self.stats = stats
        self.view_name = "map"
        self.open = False
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.k = 1.0
        self.slot_uids: list[int] = []
        self.army = ArmyGrid(art, pack, None, self._pick_slot)
        self.tabs = [
            Button(
                name.title(),
                pygame.Rect(0, 0, 80, 30),
                self._tab(name),
                font_size=14,
                tooltip=f"The {name} view",
            )
            for name in VIEWS
        ]
        self._stats_cache: tuple[list[StatsRow], list[str]] | None = None

    def _tab(self, name: str) -> Callable[[], None]:
        def pick() -> None:
            self.view_name = name
            self._stats_cache = None

        return pick

    def _pick_slot(self, slot: int) -> None:
        uid = self.slot_uids[slot] if slot < len(self.slot_uids) else None
        if uid is not None:
            self.on_piece(uid)

    def toggle(self) -> None:
        self.open = not self.open
        self._stats_cache = None

    def layout(self, size: tuple[int, int], top: int = TOP, k: float = 1.0) -> None:
        """Place the book under the top line (`top` pixels high) at UI factor `k`."""
        self.k = k
        w = min(px(440, k), max(300, size[0] // 3))
        h = min(size[1] - top - 20, px(560, k))
        self.rect = pygame.Rect(size[0] - w - 10, top + 10, w, h)
        for i, tab in enumerate(self.tabs):
            tab.rect.size = (px(80, k), px(30, k))
            tab.font_size = px(14, k)
            tab.rect.topleft = (self.rect.x + 12 + i * px(88, k), self.rect.bottom - px(42, k))

    def handle_event(self, event: pygame.event.Event) -> bool:
        """True when the event was for the book (it is open and the mouse is on it)."""
        if not self.open:
            return False
        for tab in self.tabs:
            if tab.handle_event(event):
                return True
        pos = getattr(event, "pos", None)
        if self.view_name == "army" and self.army.handle_event(event):
            return True
        if (
            event.type == pygame.MOUSEBUTTONUP
            and event.button == 1
            and self.view_name == "map"
            and pos
        ):
            cell = self.minimap.cell_at(pos)
            if cell is not None:
                self.on_centre(cell)
                return True
        return pos is not None and self.rect.collidepoint(pos) and event.type != pygame.MOUSEMOTION

    def update(self, dt: float) -> None:
        for tab in self.tabs:
            tab.update(dt)

    def draw(
        self,
        surface: pygame.Surface,
        view: TacticsView,
        names: Sequence[str],
        kinds: Sequence[str],
        viewer: int | None,
        images: Callable[[PieceView], pygame.Surface],
    ) -> None:
        if not self.open:
            return
        k = self.k
        draw_panel(
            surface, self.rect, colour=(20, 24, 36), border=theme.ACCENT, radius=12, alpha=245
        )
        draw_text(
            surface,
            "Book of Tactics",
            (self.rect.x + 14, self.rect.y + px(10, k)),
            size=px(20, k),
            bold=True,
        )
        draw_text(
            surface,
            fit_text(
                f"{view.map.name}  ({view.map.size}x{view.map.size}, {view.map.elevation})",
                px(13, k),
                self.rect.width - 28,
            ),
            (self.rect.x + 14, self.rect.y + px(38, k)),
            size=px(13, k),
            colour=theme.TEXT_MUTED,
        )
        body = pygame.Rect(
            self.rect.x + 12,
            self.rect.y + px(62, k),
            self.rect.width - 24,
            self.rect.height - px(62 + 52, k),
        )
        for tab in self.tabs:
            tab.primary = tab.label.lower() == self.view_name
            tab.draw(surface)
        if self.view_name == "map":
            side = min(body.width, body.height // 2 + 40)
            mini = pygame.Rect(body.x, body.y, body.width, side)
            dots = [(p.x, p.y, army_of(view, p.owner)) for p in view.pieces if p.alive]
            self.minimap.draw(surface, mini, self.grid, dots)
            players = pygame.Rect(
                body.x, mini.bottom + 10, body.width, body.bottom - mini.bottom - 10
            )
            draw_players(surface, players, player_lines(view, names, kinds, viewer), k)
        elif self.view_name == "army":
            mine = [p for p in view.pieces if p.owner == viewer] if viewer is not None else []
            mine = mine[: len(self.army.slots)]
            self.slot_uids = [p.uid for p in mine]
            formation = [p.kind for p in mine]
            life = [p.hp / max(1, p.max_hp) if p.alive else None for p in mine]
            dim = [not may_still_act(view, p) and p.uid != view.selected for p in mine]
            army = army_of(view, viewer) if viewer is not None else 0
            if not mine:
                draw_text(
                    surface,
                    "Spectators have no army.",
                    body.center,
                    size=px(15, k),
                    colour=theme.TEXT_MUTED,
                    anchor="center",
                )
            else:
                self.army.draw(surface, body, formation, army, life=life, dim=dim, k=k)
        else:
            if self._stats_cache is None:
                self._stats_cache = self.stats()
            rows, wars = self._stats_cache
            draw_stats(surface, body, rows, wars, k=k)
        for tab in self.tabs:
            tab.draw_tooltip(surface)


# -- help ------------------------------------------------------------------------------------
SHORTCUTS = (
    ("Click a piece", "select it (purple: where it may go, white: under the mouse)"),
    ("Point at a purple tile", "orange outlines: every tile it could hit from there"),
    ("Click a purple tile", "walk there; then the tiles it can hit glow orange"),
    ("Click an orange enemy", "attack it (point at it first to see the forecast)"),
    ("Click an orange tile", "with no enemy in reach: end the piece's attack"),
    ("Right click", "centre the view on that tile"),
    ("Drag, arrow keys", "pan the view"),
    ("Wheel, + and -", "zoom 50 / 75 / 100 %"),
    ("R", "rotate the map a quarter turn"),
    ("M / A", "skip the move / skip the attack"),
    ("E", "end the turn"),
    ("B or Tab", "open or close the Book of Tactics"),
    ("Space", "pause or play a replay"),
    ("F1", "this help"),
    ("Esc", "close the book, or the menu"),
)


class HelpScene(Scene):
    """The F1 overlay listing the mouse and keys; any key or click closes it."""

    transparent = True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.app.pop()

    def animating(self) -> bool:
        """Nothing here moves by itself: drawn after input only (the app keeps drawing a
        moment after each input for hover and tooltips)."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        veil(surface)
        w, h = surface.get_size()
        k = ui_factor((w, h))
        rect = pygame.Rect(
            0, 0, min(w - 40, px(700, k)), min(h - 40, px(80 + 30 * len(SHORTCUTS), k))
        )
        rect.center = (w // 2, h // 2)
        draw_panel(surface, rect, border=theme.ACCENT, alpha=250)
        draw_text(
            surface,
            "WoS Tactics: mouse and keys",
            (rect.centerx, rect.y + px(16, k)),
            size=px(22, k),
            bold=True,
            anchor="midtop",
        )
        step = min(px(30, k), (rect.height - px(70, k)) // len(SHORTCUTS))
        size = min(px(15, k), step - 4)
        y = rect.y + px(60, k)
        split = rect.x + min(px(230, k), rect.width // 3)
        for keys, what in SHORTCUTS:
            draw_text(
                surface,
                keys,
                (split - 10, y),
                size=size,
                bold=True,
                colour=theme.ACCENT,
                anchor="topright",
            )
            draw_text(
                surface, fit_text(what, size, rect.right - split - 20), (split + 10, y), size=size
            )
            y += step
