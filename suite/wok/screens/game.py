"""The WoK game screen: the map, the Order of Play, your figures, the players and the order form.

The scene reads only the session's seat views, `legal(seat)` and the events of `poll()`,
and acts through `session.act`. Hot-seat: each human enters orders behind a pass screen;
bots' orders are never shown (only that they are ready). Bots are paced (`bot_delay`),
and a turn's report is shown to each human when they next take the screen. Idle: when
nothing is waiting on a bot, a timer or the mouse, the scene asks for no redraws.
A live turn clock runs in real time (`suite.wok.screens.timer`): every scene this one
pushes keeps it running, so the pass screen, the report, the help and the menus do not
stop it; when time is up the humans' drafts are sent as they are, marked ready.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import pygame

from suite.core.match import IllegalAction
from suite.core.session import Refusal, Session, Update, is_legal
from suite.core.store import SaveError
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.theme import Colour
from suite.ui.widgets import Button, draw_panel
from suite.wok.rules.draft import (
    NEEDS_SOURCE,
    NEEDS_TARGET,
    NOUNS,
    TITLES,
    Draft,
    Planner,
    a_noun,
)
from suite.wok.rules.events import Ripped, SeatQuit, TurnRan
from suite.wok.rules.helptext import tech_label, terrain_note
from suite.wok.rules.orders import DeclareAlly, Quit, SetReady, Vote
from suite.wok.rules.risks import draft_risks
from suite.wok.rules.views import OwnColour, ProvinceView, WokView
from suite.wok.screens.guide import Guide, remember_offered
from suite.wok.screens.kit import ZButton, label, px, set_zoom
from suite.wok.screens.legend import Legend, LegendRow, draw_legend, layout_legend, map_area
from suite.wok.screens.mapdraw import WokMapView, army_badge, colour_of
from suite.wok.screens.match import WokMatch, saves_dir
from suite.wok.screens.overlays import HelpScene, MenuScene, PassScene
from suite.wok.screens.panel import OrderForm
from suite.wok.screens.timer import KeepsTime, Now, TimedConfirm, TurnTimer

RISKS_SHOWN = 4  # lines of risks the Ready question lists
TOP = 34
DRAG_PIXELS = 6
TYPED = ("PIK", "ARC", "KNI", "CAT")  # Intermediate's upgraded troops, shown when present
UNIT_NAMES = ("POP", "WOK", "ARM", "MIS", "SPY")
STRIP = 26
SHORT_RANGE = (235, 90, 60)
LONG_RANGE = (240, 200, 80)
SPY_SURE = (190, 140, 255)


def panel_width(width: int) -> int:
    return max(300, min(px(470), int(width * 0.36)))


class GameScene(Scene):
    """One local WoK match on screen (see the module docstring)."""

    def __init__(
        self,
        app: App,
        match: WokMatch,
        *,
        bot_delay: float = 0.2,
        now: Now = time.monotonic,
        offer_guide: bool = False,
    ) -> None:
        super().__init__(app)
        self.match = match
        self.offer_guide = offer_guide  # ask once, on the first turn, for the guided turn
        self.guide: Guide | None = None
        self.session: Session = match.session  # the only thing this screen acts through
        self.bot_delay = bot_delay
        self.bot_timer = 0.0
        self.seat: int | None = None
        self.view: WokView = match.view(match.humans[0])
        self.drafts: dict[int, Draft] = {}
        self.seen_report: dict[int, int] = {}
        self.hover: int | None = None
        self.show_legend = True
        self.legend: Legend | None = None  # where the players list is, when shown
        self._legend_floor = (0, 0)  # its widths so far (reset when the window changes)
        self.show_table = False
        self._press: tuple[int, int] | None = None
        self._last: tuple[int, int] | None = None
        self._dragged = False
        self.timer = None if match.clock == "none" else TurnTimer(self.view.clock.deadline, now)
        self.clock_shown = -1
        self.over_shown = False
        self.passing = False
        self.info_rect: pygame.Rect | None = None  # the hovered province's figures box
        self._form_key: tuple[object, ...] = ()
        self.form = OrderForm(self.ready, self.unready, app.request_redraw)
        self.mapview = WokMapView(self.view.map, pygame.Rect(0, 0, 100, 100))
        self.table_button = ZButton(
            "Provinces",
            pygame.Rect(0, 0, 96, 26),
            self.toggle_table,
            font_size=14,
            tooltip="Your provinces' figures and what your orders leave (P)",
        )
        self.report_button = ZButton(
            "Report",
            pygame.Rect(0, 0, 86, 26),
            self.show_report,
            font_size=14,
            tooltip="The last turn's report and the charts (T)",
        )
        self.help_button = ZButton(
            "Help",
            pygame.Rect(0, 0, 64, 26),
            self.show_help,
            font_size=14,
            tooltip="Keys, phases and the robots' doctrine (F1)",
        )
        self.menu_button = ZButton(
            "Menu",
            pygame.Rect(0, 0, 64, 26),
            self.open_menu,
            font_size=14,
            tooltip="Save, help, leave (Esc)",
        )
        self.on_resize(app.size)

    # -- seats ------------------------------------------------------------------------------

    def push(self, scene: Scene) -> None:
        """Push `scene` over the map; it keeps the live clock running while on top."""
        if isinstance(scene, KeepsTime):
            scene.ticker = self.tick_clock
        self.app.push(scene)

    def on_enter(self) -> None:
        if self.seat is None and not self.passing:
            self.next_seat()
        elif self.seat is not None:
            self.show_news()
        self._offer_guide()

    def _offer_guide(self) -> None:
        """On a profile's first WoK game, once the first turn's map is on top: offer the
        guided turn (either answer is remembered for the profile)."""
        if not self.offer_guide or self.app.scene is not self or self.seat is None:
            return
        if self.view.turn != 1 or not self.view.may_submit:
            return
        self.offer_guide = False
        remember_offered(self.app.settings.name)
        self.push(
            TimedConfirm(
                self.app,
                "Your first game of WoK",
                "A guided first turn shows what each phase does, one order of each kind "
                "and what Ready means. You can skip it at any time.",
                "Show me",
                self.start_guide,
                cancel_label="Not now",
            )
        )

    def start_guide(self) -> None:
        """Walk through this turn (`guide.Guide`)."""
        if self.seat is not None and self.view.may_submit:
            self.guide = Guide(self)
            self.app.request_redraw()

    def show_news(self) -> None:
        """Show the seat's newest report once, when the map is on top (a turn that ran
        while another scene was on top is reported when the map comes back)."""
        if self.seat is None or self.app.scene is not self or self.session.outcome() is not None:
            return
        report = self.view.reports[0].turn if self.view.reports else -1
        if self.seen_report.get(self.seat, -2) < report:
            self.seen_report[self.seat] = report
            self.show_report()

    def human_waiting(self) -> list[int]:
        awaiting = self.session.awaiting()
        return [s for s in self.match.humans if s in awaiting]

    def next_seat(self) -> None:
        """Hand the screen to the next human who owes orders (behind a pass screen when
        several humans share the machine)."""
        if self.session.outcome() is not None:
            self.game_over()
            return
        waiting = self.human_waiting()
        if self.seat in waiting or not waiting:
            if self.seat is None:
                self.take_seat(self.match.humans[0])
            return
        nxt = waiting[0]
        if len(self.match.humans) == 1:
            self.take_seat(nxt)
            return
        self.keep_draft()
        self.seat = None
        self.passing = True
        name = self.match.seats[nxt].name
        first = self.match.view(nxt).colours[0].colour
        note = "The other players should look away now."
        self.push(PassScene(self.app, name, colour_of(first), note, lambda: self.take_seat(nxt)))

    def take_seat(self, seat: int) -> None:
        self.passing = False
        self.seat = seat
        self.refresh()
        self.show_news()

    def refresh(self) -> None:
        """Read the seat's view again and show it (after any update)."""
        seat = self.seat if self.seat is not None else self.match.humans[0]
        self.view = self.match.view(seat)
        if self.seat is None:
            return
        draft = self.drafts.get(seat)
        if draft is None or not self.view.may_submit:
            draft = Draft.from_view(self.view)
            self.drafts[seat] = draft
        key = (seat, self.view.turn, self.view.is_ready, self.view.alive)
        if key != self._form_key or draft is not self.form.draft:
            self._form_key = key
            colour, phase = self.form.colour, self.form.phase
            self.form.load(self.view, draft)
            if colour in draft.orders:
                self.form.colour = colour
            self.form.set_phase(phase)
        else:
            self.form.view = self.view
            self.form.refresh()
        v = self.view
        owners = [p.owner for p in v.provinces]
        armies = [army_badge(p, v.turn) for p in v.provinces]
        protected = v.turn <= v.variant.protect_home_until
        marks = [
            ("*" if protected and p.home >= 0 else "") + v.map.provinces[p.id].terrain[:1]
            for p in v.provinces
        ]
        self.mapview.set_state(owners, armies, marks)
        self.place_map()  # the players list's size follows the view
        self.app.request_redraw()

    # -- acting -----------------------------------------------------------------------------

    def act(self, action: object) -> bool:
        if self.seat is None:
            return False
        legal = self.session.legal(self.seat)
        try:
            if not is_legal(legal, action):  # type: ignore[arg-type]
                why = getattr(legal, "why_not", lambda a: "not allowed now")(action)
                self.app.notify(f"Refused: {why}", 4.0)
                return False
            self.session.act(self.seat, action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            self.app.notify(f"Refused: {exc.reason}", 4.0)
            return False
        return True

    def ready(self) -> None:
        """Send the draft and lock it (the turn runs when every seat is ready); a risky
        draft (`risks.draft_risks`) asks first."""
        if self.seat is None or not self.view.may_submit:
            return
        draft = self.drafts[self.seat]
        plan = Planner(self.view, draft)
        risks = [r for colour in sorted(draft.orders) for r in draft_risks(plan, colour)]
        if risks:
            shown = risks[:RISKS_SHOWN] + (["..."] if len(risks) > RISKS_SHOWN else [])
            self.push(
                TimedConfirm(
                    self.app,
                    "Risky orders",
                    "; ".join(shown).capitalize() + ".",
                    "Ready anyway",
                    self.send_ready,
                    cancel_label="Back to orders",
                )
            )
            return
        self.send_ready()

    def send_ready(self) -> None:
        """Send the draft as it is and lock it."""
        if self.seat is None or not self.view.may_submit:
            return
        draft = self.drafts[self.seat]
        if self.act(draft.submit(ready=True)):
            self.process()
            self.next_seat()

    def unready(self) -> None:
        if self.seat is not None and self.view.is_ready and self.act(SetReady(False)):
            self.process()

    def keep_draft(self) -> None:
        """Send the current seat's unsent draft without marking it ready."""
        if self.seat is None or not self.view.may_submit:
            return
        draft = self.drafts.get(self.seat)
        if (
            draft is not None
            and not draft.same_as(self.view)
            and self.act(draft.submit(ready=False))
        ):
            self.process()

    def process(self) -> None:
        """Handle everything the session reports since the last poll."""
        notes = self.session.poll()
        if not notes:
            return
        ran = False
        for note in notes:
            if isinstance(note, Refusal):
                self.app.notify(f"Refused: {note.reason}", 4.0)
                continue
            assert isinstance(note, Update)
            for event in note.events:
                if isinstance(event, TurnRan):
                    ran = True
                elif isinstance(event, Ripped):
                    name = self.view.players[event.colour].name
                    self.app.notify(f"{name} is out (RIP)", 3.0)
                elif isinstance(event, SeatQuit):
                    self.app.notify(
                        f"{self.match.seats[event.seat].name} left: {event.reason}", 3.0
                    )
        if ran:
            self.drafts.clear()
            if self.timer is not None:
                self.timer.restart()
            if self.match.autosave_error:
                self.app.notify(f"Autosave failed: {self.match.autosave_error}", 4.0)
        self.refresh()
        if ran:
            self.show_news()
        if self.session.outcome() is not None:
            self.game_over()

    # -- scenes -----------------------------------------------------------------------------

    def show_report(self) -> None:
        from suite.wok.screens.report import ReportScene

        if self.seat is not None:
            self.push(ReportScene(self.app, self.view, self.match.history.get(self.seat, [])))

    def show_help(self) -> None:
        self.push(HelpScene(self.app, self.view.rules))

    def game_over(self) -> None:
        if self.over_shown:
            return
        self.over_shown = True
        from suite.wok.screens.report import GameOverScene

        self.app.replace(GameOverScene(self.app, self.match))

    def open_menu(self) -> None:
        self.push(
            MenuScene(
                self.app,
                "Menu",
                [
                    ("Resume", "Back to the map", lambda: None),
                    ("Save game", "Save the match to your saves folder", self.save_game),
                    ("Turn report", "The last turn's report and charts", self.show_report),
                    ("Help", "Keys, phases, robots", self.show_help),
                    ("Guided turn", "What each phase does, step by step", self.start_guide),
                    self._vote_item(),
                    *self._ally_items(),
                    ("Resign", "Leave the match for good: your provinces stay", self.resign),
                    ("Leave", "Back to the launcher (the game is saved)", self.leave),
                ],
            )
        )

    def _vote_item(self) -> tuple[str, str, Callable[[], object]]:
        voted = self.seat in self.view.votes
        if voted:
            return (
                "Withdraw vote",
                "Take back your vote to end the game",
                lambda: self.vote(False),
            )
        tip = "The game ends when every living player votes; places go by score"
        return ("Vote to end", tip, lambda: self.vote(True))

    def _ally_items(self) -> list[tuple[str, str, Callable[[], object]]]:
        """Declare (or withdraw) an ally, when this game records alliances (W13)."""
        if not self.view.variant.alliances:
            return []
        return [("Alliance...", "Declare your ally (both must declare)", self.choose_ally)]

    def choose_ally(self) -> None:
        me = self.current()
        actions: list[tuple[str, str, Callable[[], object]]] = []
        if me.ally is not None:
            name = self.view.players[me.ally].name
            actions.append((f"Withdraw from {name}", "No ally", lambda: self.ally(None)))
        for p in self.view.players:
            if p.alive and not p.robot and p.colour != me.colour and p.colour != me.ally:
                tip = f"{me.name} declares {p.name} its ally"
                actions.append((p.name, tip, self._ally_with(p.colour)))
        if actions:
            self.push(MenuScene(self.app, f"{me.name}'s ally", actions))

    def _ally_with(self, colour: int) -> Callable[[], None]:
        return lambda: self.ally(colour)

    def ally(self, partner: int | None) -> None:
        if self.act(DeclareAlly(self.current().colour, partner)):
            self.process()

    def vote(self, end: bool) -> None:
        if self.act(Vote(end)):
            self.process()

    def resign(self) -> None:
        def go() -> None:
            if self.act(Quit()):
                self.process()
                self.next_seat()

        name = self.match.seats[self.seat].name if self.seat is not None else ""
        self.push(
            TimedConfirm(
                self.app,
                f"Resign, {name}?",
                "Your colours keep their provinces but give no more orders.",
                "Resign",
                go,
            )
        )

    def save_game(self) -> Path | None:
        self.keep_draft()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            path = self.match.save(saves_dir() / f"wok-{stamp}.json")
        except (SaveError, OSError) as exc:
            self.app.notify(f"Could not save: {exc}", 5.0)
            return None
        self.app.notify(f"Saved as {path.name}")
        return path

    def leave(self) -> None:
        def go() -> None:
            stop_thinking = getattr(self.session, "stop_thinking", None)
            if stop_thinking is not None:
                stop_thinking()  # a bot's decision in progress stops at once
            self.keep_draft()
            if self.match.autosave is not None:
                with contextlib.suppress(SaveError, OSError):
                    self.match.save(self.match.autosave)
            if self.app.stack and self.app.scene is self:
                self.app.pop()

        self.push(
            TimedConfirm(
                self.app,
                "Leave the game?",
                "It is saved as your autosave; resume it from the set-up screen.",
                "Leave",
                go,
            )
        )

    def back(self) -> bool:
        if self.guide is not None:  # Esc ends the guided turn
            self.guide = None
            self.app.request_redraw()
            return True
        if self.form.typing:  # Esc ends typing into the amount box
            self.form.typing = False
            self.app.request_redraw()
            return True
        if self.form.source is not None:
            self.form.clear_form()
            return True
        self.open_menu()
        return True

    # -- layout -----------------------------------------------------------------------------

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        set_zoom(size)
        pw = panel_width(w)
        top = px(TOP) + px(STRIP)
        self.map_rect = pygame.Rect(0, top, w - pw, h - top)
        self._legend_floor = (0, 0)
        self.place_map()
        self.form.layout(pygame.Rect(w - pw + 4, top, pw - 8, h - top - 6))
        right = w - 6
        for button, width in (
            (self.menu_button, 64),
            (self.help_button, 64),
            (self.report_button, 86),
            (self.table_button, 96),
        ):
            button.rect = pygame.Rect(0, px(4), px(width), px(26))
            button.rect.topright = (right, px(4))
            right = button.rect.x - 6

    def buttons(self) -> list[Button]:
        return [self.table_button, self.report_button, self.help_button, self.menu_button]

    # -- input ------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.guide is not None and self.guide.handle_event(event):
            if not self.guide.active:
                self.guide = None
            self.app.request_redraw()
            return
        if event.type == pygame.MOUSEMOTION:
            hover = self.mapview.province_at(event.pos)
            if hover != self.hover:
                self.hover = hover
                self.app.request_redraw()
        for button in self.buttons():
            if button.handle_event(event):
                return
        if self.form.handle_event(event):
            return
        if self._map_drag(event):
            return
        if event.type == pygame.MOUSEBUTTONUP and self.map_rect.collidepoint(event.pos):
            p = self.mapview.province_at(event.pos)
            if event.button == 3:
                self.form.clear_form()
            elif event.button == 1 and p is not None:
                self.form.pick(p)
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)

    def _map_drag(self, event: pygame.event.Event) -> bool:
        """Wheel zooms the map at the mouse; a left drag pans a zoomed map (no pick)."""
        if event.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.map_rect.collidepoint(pos):
                self.mapview.zoom_at(pos, event.y)
                self.app.request_redraw()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press = event.pos if self.map_rect.collidepoint(event.pos) else None
            self._last = self._press
            self._dragged = False
        elif event.type == pygame.MOUSEMOTION and self._press is not None:
            far = abs(event.pos[0] - self._press[0]) + abs(event.pos[1] - self._press[1])
            if self._dragged or (far > DRAG_PIXELS and self.mapview.zoom > 1):
                self._dragged = True
                self.mapview.drag(self._step(event.pos))
                self.app.request_redraw()
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            dragged, self._press, self._dragged = self._dragged, None, False
            return dragged
        return False

    def _step(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The mouse movement since the last drag step (press or motion)."""
        last = self._last or pos
        self._last = pos
        return (pos[0] - last[0], pos[1] - last[1])

    def _key(self, event: pygame.event.Event) -> None:
        key, shift = event.key, bool(event.mod & pygame.KMOD_SHIFT)
        if pygame.K_1 <= key <= pygame.K_9:
            if key - pygame.K_1 < len(self.form.phases):
                self.form.set_phase(self.form.phases[key - pygame.K_1])
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.form.add()
        elif key == pygame.K_m:
            self.form.set_max()
        elif key == pygame.K_UP:
            self.form.nudge(10 if shift else 1)
        elif key == pygame.K_DOWN:
            self.form.nudge(-10 if shift else -1)
        elif key == pygame.K_r:
            self.ready()
        elif key == pygame.K_u:
            self.unready()
        elif key == pygame.K_TAB:
            colours = [c for c, _ in self.form.colour_buttons]
            if len(colours) > 1:
                i = colours.index(self.form.colour) if self.form.colour in colours else 0
                self.form.colour = colours[(i + 1) % len(colours)]
                self.form.clear_form()
        elif key == pygame.K_t:
            self.show_report()
        elif key == pygame.K_l:
            self.show_legend = not self.show_legend
            self.place_map()
        elif key == pygame.K_p:
            self.toggle_table()
        elif key == pygame.K_n:
            self.mapview.names = not self.mapview.names
            self.mapview.set_rect(self.mapview.rect)
        elif key == pygame.K_0:
            self.mapview.zoom_at(self.mapview.rect.center, -99)
        elif key == pygame.K_F1:
            self.show_help()

    # -- time -------------------------------------------------------------------------------

    def waiting_for_bot(self) -> bool:
        awaiting = self.session.awaiting()
        return any(
            s in awaiting and not self.match.seats[s].human for s in range(len(self.match.seats))
        )

    def _bot_thinking(self) -> bool:
        """Whether a local bot's decision is being made in the worker."""
        return bool(getattr(self.session, "thinking", False))

    def animating(self) -> bool:
        return self.waiting_for_bot()

    def update(self, dt: float) -> None:
        for button in self.buttons():
            button.update(dt)
        self.form.update(dt)
        if self.guide is not None and self.guide.update(dt):
            self.app.request_redraw()
        if self.guide is not None and not self.guide.active:
            self.guide = None
        if self.session.outcome() is None and self.waiting_for_bot():
            self.bot_timer += dt
            if self.bot_timer >= self.bot_delay:
                # Local bots are paced here and think in the session's worker process: the
                # pause starts again once one has acted (or there is none here to wait for).
                step_bot = getattr(self.session, "step_bot", None)
                if step_bot is None or step_bot() is not None or not self._bot_thinking():
                    self.bot_timer = 0.0
        self.process()
        self.tick_clock()
        here = not self.passing and self.seat is not None and self.app.scene is self
        if here and self.seat not in self.human_waiting() and self.human_waiting():
            self.next_seat()

    def clock_left(self) -> int | None:
        """Seconds left on a live turn clock (None: no clock)."""
        return None if self.timer is None else self.timer.left()

    def tick_clock(self) -> None:
        """Read the live clock (from whichever WoK scene is on top): redraw when the
        second shown changes, send the drafts when time is up."""
        if self.timer is None or self.session.outcome() is not None:
            return
        left = self.timer.left()
        if left != self.clock_shown:
            self.clock_shown = left
            self.app.request_redraw()
        if left == 0:
            self._time_up()

    def _time_up(self) -> None:
        """The live clock ran out: every human's draft is sent as it is, marked ready, and
        the bots still thinking give their orders now (whatever scene is on top)."""
        for seat in self.human_waiting():
            view = self.match.view(seat)
            draft = self.drafts.get(seat) or Draft.from_view(view)
            try:
                self.session.act(seat, draft.submit(ready=True))
            except IllegalAction:
                self.session.act(seat, SetReady(True))
        run_bot = getattr(self.session, "run_bot", None)
        for _ in range(len(self.match.seats) * 4):  # each bot acts a few times at most
            if run_bot is None or self.session.outcome() is not None:
                break
            if not self.waiting_for_bot() or run_bot() is None:
                break
        self.app.notify("Time is up: the drafts were sent", 3.0)
        self.process()

    # -- drawing ----------------------------------------------------------------------------

    def overlay(self) -> tuple[list[int], list[int]]:
        """Provinces to outline strongly and softly while entering an order (bombing short
        and long range, spy reach sure and by chance, or what the next click may pick)."""
        f = self.form
        planner = f.planner
        if planner is None or f.locked or f.source is None:
            return f.candidates(), []
        mp = self.view.map.provinces[f.source]
        targets = set(f.candidates())
        if f.phase == "bombs":
            return [t for t in mp.neighbours if t in targets], [t for t in mp.far if t in targets]
        if f.phase == "spies" and self.view.rules.covert is not None:  # WoK IV: by distance
            return sorted(targets & set(mp.neighbours)), sorted(targets - set(mp.neighbours))
        if f.phase == "spies":
            sure = [t for t in targets if planner.spy_short(f.colour, f.source, t)]
            return sure, sorted(targets - set(sure))
        return sorted(targets), []

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND_BOTTOM)
        strong, soft = self.overlay()
        tint = {"bombs": SHORT_RANGE, "attacks": SHORT_RANGE, "spies": SPY_SURE}.get(
            self.form.phase, theme.ACCENT
        )
        selected = [p for p in (self.form.source, self.form.target) if p is not None]
        self.mapview.draw(
            surface,
            tint=strong,
            tint_colour=tint,
            soft=soft,
            soft_colour=LONG_RANGE,
            hover=self.hover,
            selected=selected,
            arrows=self.form.arrows(),
        )
        self._overlay_key(surface, tint, bool(strong), bool(soft))
        self._top(surface)
        self._strip(surface)
        if self.legend is not None and not self.show_table:
            draw_legend(surface, self.legend)
        if self.show_table:
            self._table(surface)
        self._info(surface)
        self.form.draw(surface)
        self.table_button.primary = self.show_table  # lit while the table is open
        for button in self.buttons():
            button.draw(surface)
        if self.guide is not None:
            self.guide.draw(surface)
            self.guide.draw_tooltip(surface)
        self.form.draw_tooltips(surface)
        for button in self.buttons():
            button.draw_tooltip(surface)
        if self.view.outcome is None and self.seat is not None and self.view.is_ready:
            waiting = [self.match.seats[s].name for s in self.view.awaiting]
            if waiting and not self.show_table:  # where the overlay key goes otherwise
                text = "Waiting for " + ", ".join(waiting)
                width = min(px(330), self.mapview.rect.width // 2 - 12)
                rect = pygame.Rect(0, 0, width, px(26))
                rect.topright = (self.mapview.rect.right - 6, self.mapview.rect.y + 6)
                draw_panel(surface, rect, colour=(14, 19, 30), border=theme.ACCENT, radius=8)
                label(surface, text, rect.center, size=13, anchor="center", width=width - 16)

    def overlay_key(self) -> list[tuple[tuple[int, int, int] | None, str]]:
        """What the outlines on the map mean now (bombing ranges with their hit chances,
        spy reach), as (outline colour or None, text) lines; [] when nothing is outlined."""
        f = self.form
        if f.locked or f.phase not in NEEDS_SOURCE:
            return []
        eff = self.current().eff / 100
        if f.phase not in NEEDS_TARGET:
            return [(None, f"provinces that may take {a_noun(NOUNS[f.phase])}")]
        if f.source is None:
            return [(None, f"where {TITLES[f.phase].lower()} may start")]
        if f.phase == "bombs":
            b = self.view.rules.bombing
            return [
                (SHORT_RANGE, f"short range: {b.short_chance * eff:.0%} a missile"),
                (LONG_RANGE, f"long range: {b.long_chance * eff:.0%} a missile"),
            ]
        if f.phase == "spies" and self.view.rules.covert is not None:
            return self._covert_key(f.kind.value)
        if f.phase == "spies":
            return [
                (SPY_SURE, "spies get there (next to your empire)"),
                (LONG_RANGE, f"farther: each spy {eff:.0%}"),
            ]
        if f.phase == "attacks":
            return [(SHORT_RANGE, "neighbours it may attack")]
        return [(None, "outlined: where the order may go")]

    def _covert_key(self, name: str) -> list[tuple[tuple[int, int, int] | None, str]]:
        """WoK IV's key: the operation's one roll next door and, when it may go farther,
        far away (the rule text's figures, held within the chance limits)."""
        cv = self.view.rules.covert
        op = cv.ops.get(name) if cv is not None else None
        if cv is None or op is None:
            return []
        eff = self.current().eff

        def held(raw: float) -> str:
            return f"{min(cv.chance_max, max(cv.chance_min, raw)):.0f}%"

        base = op.eff_factor * eff + op.eff_offset
        per_spy = f" + {op.per_spy:g}% a spy" if op.per_spy and base < cv.chance_max else ""
        near = f"neighbours: {held(base)}{per_spy}, one roll"
        if not op.far:
            return [(SPY_SURE, f"{near} (only neighbours)")]
        far = held(op.far_eff_factor * eff + op.eff_offset)
        return [(SPY_SURE, near), (LONG_RANGE, f"farther: {far}, one roll")]

    def _overlay_key(
        self, surface: pygame.Surface, tint: tuple[int, int, int], strong: bool, soft: bool
    ) -> None:
        """A small key at the map's top right naming what the outlines mean."""
        lines = [
            (ink or tint, text)
            for ink, text in self.overlay_key()
            if (ink != LONG_RANGE and strong) or (ink == LONG_RANGE and soft)
        ]
        if not lines or self.show_table:  # the table takes that corner
            return
        lh = px(17)
        needed = max(theme.font(px(12)).size(text)[0] for _, text in lines) + px(40)
        width = min(px(330), needed, int(self.mapview.rect.width * 0.6))  # snug, not cut
        rect = pygame.Rect(0, 0, width, px(8) + lh * len(lines))
        rect.topright = (self.mapview.rect.right - 6, self.mapview.rect.y + 6)
        draw_panel(surface, rect, colour=(14, 19, 30), radius=8, shadow=2, alpha=225)
        for i, (ink, text) in enumerate(lines):
            y = rect.y + px(4) + i * lh
            pygame.draw.line(
                surface, ink, (rect.x + 8, y + px(9)), (rect.x + 8 + px(16), y + px(9)), 3
            )
            label(surface, text, (rect.x + 12 + px(16), y), size=12, width=width - px(34))

    def current(self) -> OwnColour:
        return next(
            (c for c in self.view.colours if c.colour == self.form.colour), self.view.colours[0]
        )

    def top_figures(self, me: OwnColour) -> str:
        """The colour's figures in the top bar: EFF, gold (when the rule set has gold),
        tech named as the rule set counts it (levels or points), score."""
        rules = self.view.rules
        gold = f"  Gold {me.gold}" if rules.uses_gold() else ""
        return f"EFF {me.eff}{gold}  {tech_label(rules)} {me.tech}  Score {me.score}"

    def _top(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        top = px(TOP)
        pygame.draw.rect(surface, theme.PANEL, (0, 0, w, top))
        pygame.draw.line(surface, theme.PANEL_BORDER, (0, top - 1), (w, top - 1))
        v = self.view
        me = self.current()
        x = 8
        x = (
            label(
                surface, f"Turn {v.turn}", (x, px(7)), size=17, bold=True, colour=theme.ACCENT
            ).right
            + 12
        )
        pygame.draw.circle(surface, colour_of(me.colour), (x + px(7), px(17)), px(7))
        x = label(surface, me.name, (x + px(18), px(8)), size=15, bold=True).right + 12
        figures = self.top_figures(me)
        if self.view.rules.troops is not None:
            figures += f"  Wood {me.wood}"
        if me.nap is not None:
            figures += f"  NAP with {me.nap.partner_name}: {me.nap.turns_left} turns left"
        room = self.table_button.rect.x - x - 10
        left = self.clock_left()
        if left is not None:
            room -= 70
            label(
                surface,
                f"{left // 60}:{left % 60:02d}",
                (self.table_button.rect.x - 12, 8),
                size=16,
                bold=True,
                colour=theme.DANGER if left < 30 else theme.TEXT,
                anchor="topright",
            )
        size = 15 if theme.font(px(15)).size(figures)[0] <= room else 13
        label(surface, figures, (x, px(8 if size == 15 else 10)), size=size, width=room)

    def _strip(self, surface: pygame.Surface) -> None:
        """The Order of Play; ready players in green (with "(ready)" while it all fits)."""
        w = surface.get_width()
        y = px(TOP)
        pygame.draw.rect(surface, (18, 24, 36), (0, y, w, px(STRIP)))
        x = (
            label(surface, "Order of Play:", (8, y + px(5)), size=13, colour=theme.TEXT_MUTED).right
            + 8
        )
        names = {p.colour: p for p in self.view.players}
        ready = set(self.view.ready)
        chips = []
        for i, colour in enumerate(self.view.oop):
            p = names[colour]
            done = p.seat is not None and p.seat in ready
            chips.append((colour, f"{i + 1}. {p.name}", done, p.seat == self.seat))
        font = theme.font(px(13))
        long = sum(font.size(f"{t} (ready)" if d else t)[0] + px(14) + 12 for _, t, d, _ in chips)
        spell = x + long <= w - 8
        for colour, text, done, mine in chips:
            shown = f"{text} (ready)" if done and spell else text
            ink = theme.SUCCESS if done else theme.TEXT
            chip = label(surface, shown, (x + px(14), y + px(5)), size=13, bold=mine, colour=ink)
            pygame.draw.circle(surface, colour_of(colour), (x + px(6), y + px(13)), px(5))
            x = chip.right + 12
            if x > w - 40:
                break

    def place_map(self) -> None:
        """Give the players list its own column or strip (see `legend`) and the map the
        rest: the list never covers the map. Hidden (L), the map takes the whole area."""
        if not hasattr(self, "map_rect"):
            return  # not laid out yet
        self.legend = None
        if self.show_legend:
            full = self._legend_rows(compact=False)
            compact = self._legend_rows(compact=True)
            floor = self._legend_floor
            self.legend = layout_legend(self.map_rect, self.mapview.world, full, compact, floor)
            widths = (self.legend.rect.width, self.legend.cell)
            if self.legend.columns:  # a strip: its cells stay at least this wide
                self._legend_floor = (floor[0], max(floor[1], widths[1]))
            else:
                self._legend_floor = (max(floor[0], widths[0]), floor[1])
        area = map_area(self.map_rect, self.legend)
        if area != self.mapview.rect:
            self.mapview.set_rect(area)

    def _legend_rows(self, *, compact: bool) -> list[LegendRow]:
        """The players list as rows of (colour dot or None, text, ink, bold) pieces."""
        v = self.view
        rows: list[list[tuple[int | None, str, Colour, bool]]] = []

        def ink(alive: bool) -> Colour:
            return theme.TEXT if alive else theme.DISABLED

        for group in v.variant.groups:
            ready = " (ready)" if group.seat in v.ready else ""
            single = len(group.colours) == 1 and v.players[group.colours[0]].name == group.name
            if compact and not single:
                row: list[tuple[int | None, str, Colour, bool]] = [
                    (None, f"{group.name}{ready}", theme.TEXT, True)
                ]
                for c in group.colours:
                    p = v.players[c]
                    state = str(p.provinces) if p.alive else "RIP"
                    row.append((c, f"{p.letter or p.name} {state}", ink(p.alive), False))
                rows.append(row)
                continue
            if not single:  # a player's colours under its name (Duel, Trinity)
                rows.append([(None, f"{group.name}{ready}", theme.TEXT, True)])
            for c in group.colours:
                p = v.players[c]
                state = f"{p.provinces} prov." if p.alive else f"RIP turn {p.rip_turn}"
                extra = self._ally_text(c) + (ready if single else "")
                extra = (self._nap_text(c) if not compact else "") + extra
                rows.append([(c, f"{p.name}: {state}{extra}", ink(p.alive), False)])
                intel = self._intel_text(c) if p.alive and not compact else ""
                if intel:
                    rows.append([(None, f"   {intel}", theme.TEXT_MUTED, False)])
        if compact and v.variant.nap_until and any(p.letter for p in v.players):
            naps = [
                f"{letter}-{letter} {until - v.turn}"
                if until > v.turn
                else f"{letter}-{letter} over"
                for letter, until in zip("ABC", v.variant.nap_until, strict=False)
            ]
            rows.append([(None, "NAPs (turns left): " + ", ".join(naps), theme.TEXT_MUTED, False)])
        robots = [p for p in v.players if p.robot]
        if robots and compact:
            row = [(None, "Robots", theme.TEXT, True)]
            row += [
                (p.colour, str(p.provinces) if p.alive else "RIP", ink(p.alive), False)
                for p in robots
            ]
            rows.append(row)
        elif robots:
            rows.append([(None, "Robots", theme.TEXT, True)])
            for p in robots:
                state = f"{p.provinces} prov." if p.alive else "RIP"
                rows.append([(p.colour, f"{p.name}: {state}", ink(p.alive), False)])
        return rows

    def _intel_text(self, colour: int) -> str:
        """What a Spy Player op last told of `colour`, with its turn."""
        intel = next((i for i in self.view.player_intel if i.colour == colour), None)
        if intel is None:
            return ""
        rules = self.view.rules
        gold = f", gold {intel.gold}" if rules.uses_gold() else ""
        tech = f"{tech_label(rules).lower()} {intel.tech}"
        return f"spied turn {intel.turn}: EFF {intel.eff}{gold}, {tech}"

    def _ally_text(self, colour: int) -> str:
        """A mutual alliance (public) of `colour`."""
        ally = self.view.players[colour].ally
        return "" if ally is None else f", allied with {self.view.players[ally].name}"

    def _nap_text(self, colour: int) -> str:
        """The automatic NAP of `colour` (public: letters and turns are in the variant)."""
        v = self.view
        p = v.players[colour]
        if p.robot or not v.variant.nap_until or not p.letter:
            return ""
        idx = "ABC".find(p.letter)
        if idx < 0 or idx >= len(v.variant.nap_until):
            return ""
        until = v.variant.nap_until[idx]
        if v.turn >= until:
            return ", NAP over"
        return f", NAP {p.letter}-{p.letter}: {until - v.turn} turns left"

    def toggle_table(self) -> None:
        self.show_table = not self.show_table
        self.app.request_redraw()

    def _table(self, surface: pygame.Surface) -> None:
        """Your provinces' key figures, with what the draft leaves behind (green)."""
        v = self.view
        planner = self.form.planner
        after = planner.after(self.form.colour) if planner is not None else {}
        rows = [p for p in v.provinces if p.owner == self.form.colour and p.figures is not None]
        lh = px(17)
        heads = ("", "POP", "WOK", "ARM", "LEV", "DEF", "MIS", "SPY", "aim")
        widths = tuple(px(n) for n in (120, 44, 40, 40, 48, 36, 36, 36, 40))
        width = min(sum(widths) + 16, self.map_rect.width - 12)
        room = max(1, (self.map_rect.height - px(150)) // lh - 2)
        shown = rows[:room]
        rect = pygame.Rect(0, 0, width, px(30) + lh * (len(shown) + 1))
        rect.topright = (self.map_rect.right - 6, self.map_rect.y + 6)
        draw_panel(surface, rect, colour=(14, 19, 30), radius=8, shadow=2, alpha=235)
        name = next((c.name for c in v.colours if c.colour == self.form.colour), "")
        label(
            surface,
            f"{name}: provinces (turn {v.turn})",
            (rect.x + 8, rect.y + 5),
            size=13,
            bold=True,
            width=width - 16,
        )
        y = rect.y + px(24)
        x = rect.x + 8
        for head, w in zip(heads, widths, strict=True):
            if x + w > rect.right:
                break
            label(surface, head, (x, y), size=12, bold=True, colour=theme.TEXT_MUTED)
            x += w
        for prov in shown:
            y += lh
            f = prov.figures
            assert f is not None
            left = after.get(prov.id, {})
            cells = (
                f"{prov.id} {v.map.provinces[prov.id].name}",
                _cell(f.pop, left.get("POP")),
                _cell(f.wok, left.get("WOK")),
                _cell(f.troops(), left.get("TRO")),
                f"{f.lev:.2f}",
                f"{f.def_:.1f}",
                _cell(f.mis, left.get("MIS")),
                _cell(f.spy, left.get("SPY")),
                f.aim + ("!" if f.false_orders else ""),
            )
            x = rect.x + 8
            for cell, w in zip(cells, widths, strict=True):
                if x + w > rect.right:
                    break
                ink = theme.SUCCESS if ">" in cell else theme.TEXT
                label(surface, cell, (x, y), size=12, colour=ink, width=w - 4)
                x += w
        if len(rows) > len(shown):
            label(
                surface,
                f"+{len(rows) - len(shown)} more",
                (rect.x + 8, rect.bottom - 4),
                size=11,
                colour=theme.TEXT_MUTED,
                anchor="bottomleft",
            )

    def _info(self, surface: pygame.Surface) -> None:
        p = self.hover if self.hover is not None else self.form.source
        self.info_rect = None
        if p is None:
            hint = "Hover a province for its figures; click to pick it for an order"
            label(
                surface,
                hint,
                (self.mapview.rect.x + 8, self.mapview.rect.bottom - px(20)),
                size=13,
                colour=theme.TEXT_MUTED,
                width=self.mapview.rect.width - 16,
            )
            return
        v = self.view
        prov: ProvinceView = v.provinces[p]
        mp = v.map.provinces[p]
        owner = "neutral" if prov.owner < 0 else v.players[prov.owner].name
        lines = [(f"{p} {mp.name} - {owner}", theme.TEXT, True)]
        fig = prov.figures
        if fig is None and prov.owner < 0 and self.form.planner is not None:
            arm, _, dfn = self.form.planner.neutral_estimate()
            guess = f"not seen; if untouched: ~{arm} ARM, DEF {dfn:.1f}"
            lines.append((guess, theme.TEXT_MUTED, False))
        elif fig is None:
            lines.append(("figures unknown (spy it)", theme.TEXT_MUTED, False))
        else:
            if prov.seen is not None and prov.seen < v.turn:
                age = v.turn - prov.seen
                lines.append(
                    (
                        f"intel from turn {prov.seen} ({age} turn{'s' if age != 1 else ''} old)",
                        theme.ACCENT,
                        False,
                    )
                )
            lines.append(
                (
                    f"POP {fig.pop}  WOK {fig.wok}  ARM {fig.arm}  LEV {fig.lev:.3f}",
                    theme.TEXT,
                    False,
                )
            )
            troops = [f"{k} {getattr(fig, k.lower())}" for k in TYPED if getattr(fig, k.lower())]
            if troops:
                lines.append(("troops: " + "  ".join(troops), theme.TEXT, False))
            fo = "  FALSE ORDERS" if fig.false_orders else ""
            lines.append(
                (
                    f"DEF {fig.def_:.1f}  MIS {fig.mis}  SPY {fig.spy}  aim {fig.aim}{fo}",
                    theme.TEXT,
                    False,
                )
            )
        note = terrain_note(v.rules, v.map.provinces[p].terrain)
        if note:
            lines.append((f"terrain {note}", theme.TEXT_MUTED, False))
        if prov.home >= 0:
            protected = v.turn <= v.variant.protect_home_until
            lines.append(
                (
                    f"start province{' (protected this turn)' if protected else ''}",
                    theme.TEXT_MUTED,
                    False,
                )
            )
        if prov.owner in v.own() and self.form.planner is not None:
            after = self.form.planner.after(prov.owner).get(p)
            if (
                after
                and fig is not None
                and (after["POP"], after["WOK"], after["TRO"], after["MIS"], after["SPY"])
                != (fig.pop, fig.wok, fig.troops(), fig.mis, fig.spy)
            ):
                lines.append(
                    (
                        "after orders: "
                        + "  ".join(
                            f"{u} {after[k]:.0f}"
                            for u, k in zip(
                                UNIT_NAMES, ("POP", "WOK", "TRO", "MIS", "SPY"), strict=True
                            )
                        ),
                        theme.SUCCESS,
                        False,
                    )
                )
        width = min(self.mapview.rect.width - 12, px(400))
        lh = px(17)
        rect = pygame.Rect(self.mapview.rect.x + 6, 0, width, 10 + lh * len(lines))
        rect.bottom = self.mapview.rect.bottom - 6
        if rect.colliderect(self.mapview.bounds(p)):
            rect.right = self.mapview.rect.right - 6  # never over the province it describes
        self.info_rect = rect
        draw_panel(surface, rect, colour=(14, 19, 30), radius=8, shadow=2, alpha=230)
        for i, (text, ink, bold) in enumerate(lines):
            label(
                surface,
                text,
                (rect.x + 8, rect.y + px(5) + i * lh),
                size=13,
                colour=ink,
                bold=bold,
                width=rect.width - 16,
            )


def _cell(now: int, after: float | None) -> str:
    """A figure, with what the draft leaves when that differs ("40>20")."""
    if after is None or int(after) == now:
        return str(now)
    return f"{now}>{int(after)}"
