"""The battle screen: a Tactics battle played with the mouse and the keys.

The screen talks only to its `Session` (through a driver that paces the bots or a
replay): it reads the seat's `TacticsView` and `legal(seat)`, sends actions, and plays the
events `poll()` brings as animations (hops, blows, numbers, deaths) before the figures
catch up with the view. Static art comes from the pack the view names.

Drawing is cached: the static map is pre-rendered per zoom and rotation, and a frame is
composed only when something changed (input, an animation, the camera, a piece's idle
frame, a timer's second); otherwise the last frame is shown again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import pygame

from suite.core.match import Action, IllegalAction
from suite.core.session import Refusal, Update
from suite.tactics.rules.actions import (
    AttackResolved,
    EndTurn,
    LevelUp,
    PieceDied,
    PieceMoved,
    PieceSelected,
    SkipAttack,
    SkipMove,
    TurnStarted,
)
from suite.tactics.rules.packs import pack_digest
from suite.tactics.rules.view import PieceView, TacticsView
from suite.tactics.screens import hud, orders
from suite.tactics.screens.anim import Fade, Figure, Hop, Note, Show, Strike
from suite.tactics.screens.art import BattleArt, load_map_pack
from suite.tactics.screens.book import StatsRow, team_colour
from suite.tactics.screens.buttons import TOOL_SIZE, make_tools, pack_button_images
from suite.tactics.screens.drivers import Driver
from suite.tactics.screens.field import Battlefield, Marks
from suite.tactics.screens.match import SeatInfo
from suite.tactics.screens.popup import draw_popup
from suite.tactics.screens.profile import TacticsProfile
from suite.tactics.screens.sounds import PackSounds
from suite.tactics.skins import STAND, frame_index
from suite.ui import theme
from suite.ui.app import INSTANT_BOT_SECONDS, SETTLE_SECONDS, App, Scene
from suite.ui.dialogs import ConfirmScene, MenuScene
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import TOOLTIP_DELAY, draw_text, fit_text, text_image

SPEEDS: tuple[tuple[float, str], ...] = (
    (0.9, "slow"),
    (0.4, "normal"),
    (0.1, "fast"),
    (0.0, "instant"),
)
DRAG = 6  # pixels before a press becomes a pan
PAN_SPEED = 900  # pixels per second while an arrow key is held
OVER_DELAY = 1.2  # seconds the final field stays before the game-over screen
POPUP_DELAY = 0.15  # seconds of pointing at a piece before its popup opens
StatsSource = Callable[[], tuple[list[StatsRow], list[str]]]


def _no_stats() -> tuple[list[StatsRow], list[str]]:
    return [], []


class BattleScene(Scene):
    """Plays the driver's match to its end, then calls `on_over(scene)`.

    `seats` name the players; `profile` holds the player's choices (End Turn confirmation,
    bot speed). A replay driver has no local humans: the screen only watches. `autosave`,
    when given, is called as each local human's turn starts and when the battle is left.
    `pack_folder` is this machine's copy of the battle's pack (online: the folder
    `RemoteSession.sync_pack` gives); None: the folder the view names.
    Raises `PackError` (a ValueError) or KeyError when the view's pack or map is missing.
    """

    def __init__(
        self,
        app: App,
        driver: Driver,
        seats: Sequence[SeatInfo],
        profile: TacticsProfile,
        *,
        on_over: Callable[[BattleScene], None] | None = None,
        stats: StatsSource = _no_stats,
        autosave: Callable[[], object] | None = None,
        pack_folder: str | None = None,
    ) -> None:
        super().__init__(app)
        self.driver = driver
        self.session = driver.session
        self.seats = list(seats)
        self.names = [s.name for s in self.seats]
        self.kinds = [s.kind for s in self.seats]
        self.profile = profile
        self.on_over = on_over
        self.autosave = autosave
        self.humans = driver.local_humans()
        self.viewer: int | None = min(self.humans) if self.humans else None
        self.view: TacticsView = self._fetch_view()
        self.choices = orders.NONE
        folder = pack_folder if pack_folder is not None else self.view.map.pack
        pack = load_map_pack(folder)
        if pack_digest(folder) != self.view.map.digest:
            app.toasts.add(
                "Your copy of this pack differs from the battle's: it may look wrong", 6.0
            )
        grid = pack.grids[self.view.map.map_id]
        self.pack = pack
        self.art = BattleArt(pack, grid)
        self.k = ui_factor(app.size)
        self.top = px(hud.TOP, self.k)
        self.field = Battlefield(self.art, pygame.Rect(0, self.top, *app.size))
        self.sounds = PackSounds(pack, app.audio)
        self.show = Show(self._piece_sound)
        self.figures: dict[int, Figure] = {}
        self.quiet = False
        self.paused = False  # a watched replay stands still
        self.rng = random.Random(0)
        self._sync_figures(force=True)
        self.art.warm({(f.kind, f.army) for f in self.figures.values()}, self.field.zoom)
        self.speed = max(0, min(len(SPEEDS) - 1, profile.bot_speed))
        self.bot_wait = 0.5
        self.over_wait = OVER_DELAY
        self.finished = False
        self.waiting = 0.0
        self.mouse = (0, 0)
        self.hover_time = 0.0
        self.press: tuple[int, int] | None = None
        self.held: set[int] = set()  # arrow keys held down
        self.dragging = False
        self.hover_cell: tuple[int, int] | None = None
        self.hover_uid: int | None = None
        self.dirty = True
        self.awake = SETTLE_SECONDS  # seconds left of the last input's settling
        self.canvas: pygame.Surface | None = None
        self.composed = 0  # frames composed (tests and the bench read it)
        self._shown_second = -1
        self._tooltips: tuple[bool, ...] = ()
        self.tools = make_tools(
            pack_button_images(pack),
            {
                "hud": self.toggle_book,
                "skip_move": self.skip_move,
                "skip_attack": self.skip_attack,
                "end_turn": self.end_turn,
                "rotate_left": lambda: self.rotate(-1),
                "rotate": self.rotate,
                "zoom_out": lambda: self.zoom(-1),
                "zoom_in": lambda: self.zoom(1),
            },
        )
        self.book = hud.BookPanel(
            pack, self.art.art, grid, self._centre_cell, self.proxy_click, stats
        )
        self.proxies: list[hud.Proxy] = []
        self._proxy_images: dict[tuple[int, int], pygame.Surface] = {}
        self.on_resize(app.size)
        self._refresh()
        start = self._my_piece_cell() or (
            self.view.map.starts[0] if self.view.map.starts and self.view.map.starts[0] else None
        )
        if start is not None:
            self.field.look_at(start)

    # -- the match -------------------------------------------------------------------------
    @property
    def watching(self) -> bool:
        return not self.humans

    def _fetch_view(self) -> TacticsView:
        view = self.session.view(self.viewer)
        assert isinstance(view, TacticsView)
        return view

    def my_turn(self) -> bool:
        """True when a person on this screen commands the seat whose turn it is."""
        return self.view.current is not None and self.view.current in self.humans

    def _refresh(self) -> None:
        """Fetch the view (and legal actions when it is our turn) after a change."""
        current = self.view.current
        if current is not None and current in self.humans and current != self.viewer:
            self.viewer = current  # hot-seat: the screen follows the local player to move
        self.view = self._fetch_view()
        if (
            self.view.current is not None
            and self.view.current in self.humans
            and self.view.current != self.viewer
        ):
            self.viewer = self.view.current
            self.view = self._fetch_view()
        legal = self._legal_list() if self.my_turn() and self.viewer is not None else []
        self.choices = orders.Choices.of(legal)
        self._layout_proxies()
        self.dirty = True

    def _legal_list(self) -> list[Action]:
        assert self.viewer is not None
        legal = self.session.legal(self.viewer)
        return list(legal) if isinstance(legal, Sequence) else []

    def _end_turn_now(self) -> None:
        self.act(EndTurn())

    def act(self, action: Action) -> bool:
        """Send `action` for the local seat to move; a refusal becomes a notice."""
        if not self.my_turn() or self.viewer is None or self.show.busy:
            return False
        try:
            self.session.act(self.viewer, action)
        except IllegalAction as exc:
            self.app.notify(exc.reason)
            return False
        self._take_notices()
        return True

    def _take_notices(self) -> None:
        notices = self.session.poll()
        if not notices:
            return
        for notice in notices:
            if isinstance(notice, Refusal):
                self.app.notify(notice.reason)
            elif isinstance(notice, Update):
                self._stage(notice)
        self._refresh()

    def _stage(self, update: Update) -> None:
        """Queue the animations of one update's events."""
        instant = SPEEDS[self.speed][0] == 0.0 and not self.humans & {update.seat}
        self.quiet = instant  # no sounds for actions played out at once
        for event in update.events:
            if isinstance(event, PieceSelected):
                self._piece_sound("ready", event.piece)
                figure = self.figures.get(event.piece)
                if figure is not None and not instant:
                    self.field.centre_on((figure.x, figure.y))
            elif isinstance(event, PieceMoved):
                self.show.add(Hop(event.piece, event.path))
            elif isinstance(event, AttackResolved):
                self.show.add(
                    Strike(
                        event.attacker, event.target, event.result, event.damage, event.target_hp
                    )
                )
            elif isinstance(event, PieceDied):
                self.show.add(Fade(event.piece))
            elif isinstance(event, LevelUp):
                self.show.add(Note(event.piece, f"Level {event.level}!", (140, 200, 255)))
            elif isinstance(event, TurnStarted):
                self.waiting = 0.0
                if event.seat in self.humans:
                    self.sounds.named("turn")
                    if self.autosave is not None:
                        self.autosave()
        if instant:
            self.show.skip(self.figures)
        self.quiet = False
        self.paused = False  # a watched replay stands still

    def _piece_sound(self, event: str, uid: int) -> None:
        """A piece's sound for `event`; "hit", "miss" and "crit" are its weapon's."""
        figure = self.figures.get(uid)
        if figure is None or self.quiet:
            return
        if event in ("hit", "miss", "crit"):
            self.sounds.weapon(event, figure.kind)
        else:
            self.sounds.piece(event, figure.kind)

    def _sync_figures(self, force: bool = False) -> None:
        """Make the figures match the view (when no animation owns them)."""
        if self.show.busy and not force:
            return
        changed = False
        for piece in self.view.pieces:
            army = hud.army_of(self.view, piece.owner)
            figure = self.figures.get(piece.uid)
            if figure is None:
                self.figures[piece.uid] = Figure(
                    piece.uid,
                    piece.kind,
                    piece.owner,
                    army,
                    float(piece.x),
                    float(piece.y),
                    piece.hp,
                    piece.max_hp,
                    piece.alive,
                    idle_left=0.5 + 2 * self.rng.random(),
                )
                changed = True
                continue
            state = (figure.x, figure.y, figure.hp, figure.max_hp, figure.alive)
            wanted = (float(piece.x), float(piece.y), piece.hp, piece.max_hp, piece.alive)
            if state != wanted:
                figure.x, figure.y, figure.hp, figure.max_hp, figure.alive = wanted
                figure.alpha, figure.flash, figure.hop, figure.busy = 255, False, 0.0, False
                figure.frame = STAND
                changed = True
        if changed:
            self.dirty = True

    def _my_piece_cell(self) -> tuple[int, int] | None:
        mine = [p for p in self.view.pieces if p.owner == self.viewer and p.alive]
        return (mine[0].x, mine[0].y) if mine else None

    # -- commands ----------------------------------------------------------------------------
    def skip_move(self) -> None:
        if self.choices.skip_move:
            self.act(SkipMove())

    def skip_attack(self) -> None:
        if self.choices.skip_attack:
            self.act(SkipAttack())

    def end_turn(self) -> None:
        if not self.choices.end_turn or self.show.busy:
            return
        if self.profile.confirm_end_turn:
            self.app.push(
                ConfirmScene(
                    self.app,
                    "End your turn?",
                    "Your pieces that have not acted stay where they are.",
                    "End turn",
                    self._end_turn_now,
                )
            )
        else:
            self.act(EndTurn())

    def toggle_book(self) -> None:
        self.book.toggle()
        self.dirty = True

    def rotate(self, quarters: int = 1) -> None:
        """Turn the map a quarter turn right (1) or left (-1)."""
        self.field.rotate(quarters)
        self.dirty = True

    def zoom(self, step: int) -> None:
        self.field.set_zoom(step)
        self.dirty = True

    def _centre_cell(self, cell: tuple[int, int]) -> None:
        self.field.look_at(cell)
        self.dirty = True

    def proxy_click(self, uid: int) -> None:
        """A proxy (or the book's army slot) clicked: like clicking the piece, and the
        view centres on it."""
        piece = self._piece(uid)
        if piece is None:
            return
        self.field.look_at((piece.x, piece.y))
        self.click_cell((piece.x, piece.y))
        self.dirty = True

    def click_cell(self, cell: tuple[int, int]) -> None:
        """A left click on a cell: select, move, attack or skip, as the phase allows."""
        if not self.my_turn() or self.show.busy:
            return
        action = orders.click_action(self.view, self.choices, cell)
        if action is not None:
            self.act(action)

    def _piece(self, uid: int | None) -> PieceView | None:
        return orders.piece(self.view, uid)

    def _piece_at(self, cell: tuple[int, int]) -> PieceView | None:
        return orders.piece_at(self.view, cell)

    # -- input -------------------------------------------------------------------------------
    def on_exit(self) -> None:
        self.held.clear()  # a dialog on top takes the key-up events
        self.press, self.dragging = None, False

    def back(self) -> bool:
        if self.book.open:
            self.book.open = False
            self.dirty = True
            return True
        self.open_menu()
        return True

    def open_menu(self) -> None:
        leave = "Stop watching" if self.watching else "Leave the battle"
        self.app.push(
            MenuScene(
                self.app,
                "Battle",
                [
                    ("Resume", "Back to the battle (Esc)", lambda: None),
                    ("Help (F1)", "Mouse and keys", lambda: self.app.push(hud.HelpScene(self.app))),
                    (
                        "Bots: " + SPEEDS[self.speed][1],
                        "How fast bots and replays play (click: next)",
                        self.cycle_speed,
                    ),
                    (
                        leave,
                        self._leave_tip(),
                        self.leave,
                    ),
                ],
            )
        )

    def _leave_tip(self) -> str:
        if self.autosave is not None:
            return "Back to the Book of Tactics; Resume there continues this battle"
        return "Back to the Book of Tactics"

    def cycle_speed(self) -> None:
        self.speed = (self.speed + 1) % len(SPEEDS)
        self.profile.bot_speed = self.speed
        self.app.notify(f"Bots play {SPEEDS[self.speed][1]}")

    def leave(self) -> None:
        self.driver.stop()  # a bot's search in progress stops at once
        if self.autosave is not None and self.view.outcome is None:
            self.autosave()
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        self.dirty = True
        self.awake = SETTLE_SECONDS
        if event.type == pygame.MOUSEMOTION:
            self._motion(event)
        for tool in self.tools:
            if tool.handle_event(event):
                return
        if self.book.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self.held.add(event.key)
            self._key(event)
        elif event.type == pygame.KEYUP:
            self.held.discard(event.key)
        elif event.type == pygame.MOUSEWHEEL:
            self.zoom(1 if event.y > 0 else -1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.press, self.dragging = event.pos, False
        elif event.type == pygame.MOUSEBUTTONUP:
            self._release(event)

    def _motion(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        self.hover_time = 0.0
        if self.press is not None:
            dx, dy = event.pos[0] - self.press[0], event.pos[1] - self.press[1]
            if self.dragging or abs(dx) + abs(dy) > DRAG:
                self.dragging = True
                self.field.pan(-dx, -dy)
                self.press = event.pos
        proxy = self._proxy_at(event.pos)
        if proxy is not None:
            self.hover_uid, self.hover_cell = proxy, None
            return
        cell = (
            None
            if self.book.open and self.book.rect.collidepoint(event.pos)
            else self.pick(event.pos)
        )
        self.hover_cell = cell
        at = self._piece_at(cell) if cell is not None else None
        self.hover_uid = at.uid if at is not None else None

    def _release(self, event: pygame.event.Event) -> None:
        was_drag = self.dragging
        self.press, self.dragging = None, False
        if event.button == 1:
            proxy = self._proxy_at(event.pos)
            if proxy is not None:
                self.proxy_click(proxy)
                return
            if was_drag:
                return
            cell = self.pick(event.pos)
            if cell is not None:
                self.click_cell(cell)
        elif event.button == 3:
            cell = self.field.cell_at(event.pos, ignore_pieces=True)
            if cell is not None:
                self.field.look_at(cell)

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        if key == pygame.K_F1:
            self.app.push(hud.HelpScene(self.app))
        elif key in (pygame.K_b, pygame.K_TAB):
            self.toggle_book()
        elif key == pygame.K_r:
            self.rotate(-1 if event.mod & pygame.KMOD_SHIFT else 1)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.zoom(-1)
        elif key == pygame.K_m:
            self.skip_move()
        elif key == pygame.K_a:
            self.skip_attack()
        elif key == pygame.K_e:
            self.end_turn()
        elif key == pygame.K_SPACE and self.watching:
            self.paused = not self.paused

    def pick(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The cell a point aims at: the tile under it when that tile holds a piece or is
        a tile to walk to, else the piece whose body is there, else the tile."""
        tile = self.field.cell_at(pos, ignore_pieces=True)
        if tile is not None:
            walkable = self.view.phase == "move" and any(
                (r.x, r.y) == tile for r in self.view.reach
            )
            if walkable or self._piece_at(tile) is not None:
                return tile
        body = (
            self.field.figure_at(pos, self.figures.values())
            if self.field.rect.collidepoint(pos)
            else None
        )
        return body.cell if body is not None else tile

    def _proxy_at(self, pos: tuple[int, int]) -> int | None:
        for proxy in self.proxies:
            if proxy.rect is not None and proxy.rect.collidepoint(pos):
                return proxy.uid
        return None

    # -- time --------------------------------------------------------------------------------
    def animating(self) -> bool:
        """Only while something moves or changes by itself: the show, a camera glide, held
        arrow keys, bots or a replay acting, the end of the battle pending, or a frame to
        compose; and for SETTLE_SECONDS after input, when the pieces also breathe (their
        idle stand swaps). An untouched battle waiting for a person draws nothing."""
        if self.dirty or self.awake > 0 or self.show.busy or self.held or self.dragging:
            return True
        if self.field.goal is not None:
            return True
        if self.view.outcome is not None:
            return not self.finished
        return not self.my_turn() and not self.paused and self.driver.drives

    def ticking(self) -> bool:
        """While waiting for a person elsewhere: the "waiting N s" clock counts."""
        return self.view.outcome is None and not self.my_turn() and not self.paused

    def update(self, dt: float) -> None:
        self.awake = max(0.0, self.awake - dt)
        if self.show.busy:
            self.awake = SETTLE_SECONDS
        self._take_notices()
        self._pan_keys(dt)
        self.show.update(dt, self.figures)
        if self.show.moving:
            self.dirty = True
        focus = self.show.focus
        if focus is not None and SPEEDS[self.speed][0] > 0:
            self.field.centre_on(focus)
        if self.field.update(dt):
            self.dirty = True
        if not self.show.busy:
            self._sync_figures()
        if self.awake > 0:  # pieces breathe only on a screen in use
            for figure in self.figures.values():
                if figure.idle(dt, self.rng.random()):
                    self.dirty = True
        for tool in self.tools:
            tool.update(dt)
        self.book.update(dt)
        self.hover_time += dt
        self._tooltip_changes()
        if self.view.outcome is not None:
            self._finish(dt)
            return
        if not self.my_turn() and not self.paused:  # a paused replay waits for nobody
            self.waiting += dt
            if self.waiting >= hud.WAIT_SHOWN_AFTER and int(self.waiting) != self._shown_second:
                self._shown_second = int(self.waiting)
                self.dirty = True
        self._pace(dt)

    def _pan_keys(self, dt: float) -> None:
        held = self.held
        dx = ((pygame.K_RIGHT in held) - (pygame.K_LEFT in held)) * PAN_SPEED * dt
        dy = ((pygame.K_DOWN in held) - (pygame.K_UP in held)) * PAN_SPEED * dt
        if dx or dy:
            self.field.pan(dx, dy)
            self.dirty = True

    def _tooltip_changes(self) -> None:
        due = tuple(t.hover.tooltip_due for t in self.tools) + (
            self.hover_time >= POPUP_DELAY,
            self.hover_time >= TOOLTIP_DELAY,
        )
        if due != self._tooltips:
            self._tooltips = due
            self.dirty = True

    def _pace(self, dt: float) -> None:
        """Let the next bot (or replayed action) act once the show is over."""
        if self.my_turn() or self.show.busy or self.paused:
            return
        delay = SPEEDS[self.speed][0]
        if delay == 0.0:
            # Instant: the decisions that come within INSTANT_BOT_SECONDS; the window stays alive.
            deadline = time.perf_counter() + INSTANT_BOT_SECONDS
            for _ in range(50):
                left = deadline - time.perf_counter()
                if self.my_turn() or self.view.outcome is not None or left <= 0:
                    break
                if not self.driver.step(left):
                    break
                self._take_notices()
            return
        self.driver.think_ahead()  # the bot thinks while the pause runs
        self.bot_wait -= dt
        if self.bot_wait > 0:
            return
        if self.driver.step():
            self.bot_wait = delay
            self._take_notices()
        elif not self.driver.thinking:
            self.bot_wait = delay

    def _finish(self, dt: float) -> None:
        if self.show.busy or self.finished:
            return
        self.over_wait -= dt
        if self.over_wait > 0:
            return
        self.finished = True
        outcome = self.view.outcome
        if outcome is not None:
            self.sounds.named("win" if set(outcome.winners) & self.humans else "lose")
        if self.on_over is not None:
            self.on_over(self)

    # -- layout and drawing ------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        k = self.k = ui_factor(size)
        self.top = px(hud.TOP, k)
        self.field.rect = pygame.Rect(0, self.top, size[0], size[1] - self.top)
        x = size[0] - 8
        for tool in reversed(self.tools):
            tool.rect.size = (px(TOOL_SIZE, k), px(TOOL_SIZE, k))
            tool.rect.topright = (x, px(4, k))
            x -= tool.rect.width + px(6, k)
        self.book.layout(size, self.top, k)
        self._proxy_images.clear()
        self._layout_proxies()
        self.dirty = True

    def _layout_proxies(self) -> None:
        self.proxies = hud.layout_proxies(
            self.view, self.viewer, self.top, self.app.size[1], self.k
        )

    def _marks(self) -> Marks:
        return orders.highlights(self.view, self.hover_cell, self.my_turn() and not self.show.busy)

    def _buttons_state(self) -> None:
        choices = self.choices if self.my_turn() and not self.show.busy else orders.NONE
        by_name = {t.name: t for t in self.tools}
        by_name["skip_move"].enabled = choices.skip_move
        by_name["skip_attack"].enabled = choices.skip_attack
        by_name["end_turn"].enabled = choices.end_turn

    def draw(self, surface: pygame.Surface) -> None:
        if self.canvas is None or self.canvas.get_size() != surface.get_size():
            self.canvas = pygame.Surface(surface.get_size())
            self.dirty = True
        if self.dirty:
            self._compose(self.canvas)
            self.dirty = False
            self.composed += 1
        surface.blit(self.canvas, (0, 0))

    def _compose(self, surface: pygame.Surface) -> None:
        self._buttons_state()
        self.field.draw(surface, self.figures.values(), self._marks(), self.show.floaters)
        self._draw_top(surface)
        self._draw_proxies(surface)
        self.book.draw(surface, self.view, self.names, self.kinds, self.viewer, self._proxy_image)
        self._draw_popup(surface)
        for tool in self.tools:
            tool.draw_tooltip(surface)

    def _draw_top(self, surface: pygame.Surface) -> None:
        bar = pygame.Rect(0, 0, surface.get_width(), self.top)
        k = self.k
        surface.fill((16, 19, 28), bar)
        pygame.draw.line(surface, theme.PANEL_BORDER, bar.bottomleft, bar.bottomright)
        local = self.my_turn()
        text = hud.top_line(self.view, self.names, self.waiting, local)
        if self.watching:
            state = "paused (Space: play)" if self.paused else "Space: pause"
            text = f"Replay, {state}  \u2022  " + text
        current = self.view.current
        colour = hud.army_of(self.view, current) if current is not None else None
        x = 12
        if colour is not None:
            pygame.draw.circle(surface, team_colour(colour), (x + px(8, k), bar.centery), px(8, k))
            x += px(24, k)
        room = self.tools[0].rect.x - x - 12
        if text_image(text, px(17, k), theme.TEXT, True).get_width() > room:
            text = hud.top_line(self.view, self.names, self.waiting, local, compact=True)
            if self.watching:
                text = ("Paused" if self.paused else "Replay") + "  \u2022  " + text
        draw_text(
            surface,
            fit_text(text, px(17, k), room, True),
            (x, bar.centery),
            size=px(17, k),
            bold=True,
            colour=theme.ACCENT if local else theme.TEXT,
            anchor="midleft",
        )
        for tool in self.tools:
            tool.draw(surface)

    def _proxy_image(self, piece: PieceView) -> pygame.Surface:
        army = hud.army_of(self.view, piece.owner)
        key = (piece.kind, army)
        if key not in self._proxy_images:
            frame = self.art.art.frames(piece.kind, army, False)[frame_index(STAND)]
            self._proxy_images[key] = pygame.transform.smoothscale(
                frame, (px(hud.PROXY_H - 4, self.k), px(hud.PROXY_H - 4, self.k))
            )
        return self._proxy_images[key]

    def _draw_proxies(self, surface: pygame.Surface) -> None:
        if not self.my_turn():
            return
        hot = self._proxy_at(self.mouse)
        for proxy in self.proxies:
            piece = self._piece(proxy.uid)
            if proxy.rect is None or piece is None:
                continue
            army = hud.army_of(self.view, piece.owner)
            hud.draw_proxy(
                surface,
                proxy.rect,
                piece,
                army,
                self._proxy_image(piece),
                hot == proxy.uid,
                piece.uid == self.view.selected,
                self.k,
            )

    def _draw_popup(self, surface: pygame.Surface) -> None:
        if (
            self.hover_uid is None
            or self.hover_time < POPUP_DELAY
            or self.dragging
            or self.show.busy
        ):
            return
        piece = self._piece(self.hover_uid)
        if piece is None or not piece.alive:
            return
        owner = self.names[piece.owner] if piece.owner < len(self.names) else ""
        draw_popup(surface, self.view, piece, owner, self.mouse, self.k)

    # -- for tests ---------------------------------------------------------------------------
    def screen_point(self, cell: tuple[int, int]) -> tuple[int, int]:
        """Where cell `cell`'s tile top is on screen now (tests aim clicks with it)."""
        return self.field.to_screen(self.field.projection.centre(*cell))
