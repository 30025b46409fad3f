"""The map screen: a whole World War match played with the mouse and the keyboard.

Layout: a top bar (turn, player, phase, clock, controls), the map on the left, and a side
panel with the players, the current step's controls and the log. The scene never draws
from the engine: it turns clicks and keys into actions for `Session.apply` and animates the
events that come back. It reads only views, legal actions and events (through the match's
`suite.core.session.Session`). Bots act from `update` at the chosen pace; the turn clock
(R7) sends `TimeUp` at zero. Placements are collected locally until the last army
of the step is placed, which is what makes "undo" possible.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from suite.core.match import Action, Event, IllegalAction
from suite.core.session import is_legal
from suite.core.store import SaveError
from suite.ui import theme
from suite.ui.app import INSTANT_BOT_SECONDS, App, Scene
from suite.ui.dialogs import ConfirmScene, MenuScene, PassScene
from suite.ui.scale import px, ui_factor
from suite.ui.theme import Colour
from suite.ui.widgets import TOOLTIP_DELAY, Button, Cycler, Slider, draw_tooltip
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.views import AttackWaiting, OccupyRange, WorldWarView
from suite.worldwar.screens import hud, sounds
from suite.worldwar.screens.cards import CardsPanel, value_lines
from suite.worldwar.screens.effects import BattleCard, CardFlight, DiceTray, Ring
from suite.worldwar.screens.hud import TOP
from suite.worldwar.screens.mapview import MapView, capital_marks
from suite.worldwar.screens.match import Match, saves_dir
from suite.worldwar.screens.overlays import HelpScene
from suite.worldwar.screens.stats import StatsScene

SPEEDS: list[tuple[float, str]] = [
    (1.0, "slow"),
    (0.45, "normal"),
    (0.15, "fast"),
    (0.0, "instant"),
]
SOUND_GAP = 0.15  # seconds between two plays of one sound
DEFENCE_DELAY = 0.12  # seconds a bot takes to choose its defence dice
INSTANT_BATCH = 400  # bot actions per frame at most in "instant" (keeps the window alive)
OVER_DELAY = 1.5  # seconds the final map stays before the game-over screen
DRAG = 6  # pixels before a press becomes a pan
SHIFT_PLACE = 5  # armies a shift+click places (a control's step, not a rule)


class GameScene(Scene):
    """Plays `match` to its end; then replaces itself with the game-over screen."""

    def __init__(self, app: App, match: Match, *, speed: int = 1) -> None:
        super().__init__(app)
        self.match = match
        v = match.view(None)
        rules = v.rules
        self.humans = [i for i, s in enumerate(match.seats) if s.human]
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.map = MapView(match.board, pygame.Rect(0, TOP, 800, 600))
        self.hover: int | None = None
        self.legend_choice: bool | None = None
        """The player's fold of the legend (None: automatic; forgotten on a resize)."""
        self.selected: int | None = None
        self.target: int | None = None
        self.move_to: int | None = None
        self.dice = rules.attacker_max_dice
        self.buffer: list[tuple[int, int]] = []
        self.slider: Slider | None = None
        self.slider_key: tuple[Any, ...] | None = None
        self.bot_wait = 0.4
        self.clock_key: tuple[int, int] | None = None
        self.clock_left = float(rules.clock)
        self.clock_face: tuple[object, ...] = ()
        """What the clock showed when last drawn (`hud.clock_face`)."""
        self.tray: DiceTray | BattleCard | None = None
        self.rings: list[Ring] = []
        self.flights: list[CardFlight] = []
        self.battle: tuple[int, int] | None = None  # the last roll's territories, while shown
        self.over_wait = OVER_DELAY
        self.press: tuple[int, int] | None = None
        self.dragging = False
        self.mouse = (0, 0)
        self.hover_time = 0.0
        self.now = 0.0  # seconds of play, for sound spacing
        self.sound_at: dict[str, float] = {}
        self.finished = False
        self.cards = CardsPanel(self._turn_in, self._skip_cards)
        self.speed = Cycler(
            "Bots",
            pygame.Rect(0, 0, 150, 38),
            SPEEDS,
            index=speed,
            tooltip="How fast bots play (click: faster, right click: slower)",
            on_change=self._speed_changed,
            font_size=15,
        )
        self.cards_button = Button(
            "Cards (C)",
            pygame.Rect(0, 0, 118, 38),
            self.cards.toggle,
            font_size=15,
            tooltip="Show your cards, the best set and what the next set is worth",
            enabled=rules.has_cards,
        )
        self.help_button = Button(
            "Help F1",
            pygame.Rect(0, 0, 96, 38),
            self.show_help,
            font_size=15,
            tooltip="Every key and mouse shortcut",
        )
        self.menu_button = Button(
            "Menu",
            pygame.Rect(0, 0, 86, 38),
            self.open_menu,
            font_size=15,
            tooltip="Pause: save, help, or leave the game (Esc)",
        )
        self.stats_button = Button(
            "Stats (S)",
            pygame.Rect(0, 0, 110, 38),
            self.show_stats,
            font_size=15,
            tooltip="Charts of territories, armies and cards per player, turn by turn",
        )
        self.undo_button = Button(
            "Undo (U)",
            pygame.Rect(0, 0, 140, 40),
            self.undo,
            tooltip="Take back the last army you placed",
        )
        self.auto_button = Button(
            "Auto-place",
            pygame.Rect(0, 0, 140, 40),
            self.auto_place,
            tooltip="Place all your remaining armies now, on your weakest borders (A)",
        )
        self.fortify_button = Button(
            "Free move (F)",
            pygame.Rect(0, 0, 140, 40),
            self.start_free_move,
            tooltip="Stop attacking and move armies between two of your territories",
        )
        self.end_button = Button(
            "End turn (E)",
            pygame.Rect(0, 0, 140, 40),
            self.end_turn,
            tooltip="Finish attacking and end your turn",
        )
        self.once_button = Button(
            "Attack once",
            pygame.Rect(0, 0, 140, 40),
            self.attack_once,
            tooltip="Roll once with the chosen dice (Space)",
        )
        self.blitz_button = Button(
            "To the end",
            pygame.Rect(0, 0, 140, 40),
            self.attack_blitz,
            primary=True,
            tooltip="Keep attacking until it falls or you run out (Enter)",
        )
        self.dice_buttons = [
            Button(
                str(n),
                pygame.Rect(0, 0, 44, 40),
                self._dice_setter(n),
                tooltip=f"Roll {n} {'die' if n == 1 else 'dice'} (key {n})",
            )
            for n in range(1, rules.attacker_max_dice + 1)
        ]
        self.confirm_button = Button(
            "Move",
            pygame.Rect(0, 0, 140, 40),
            self.confirm_move,
            primary=True,
            tooltip="Move the armies the slider shows (Enter)",
        )
        self.clear_button = Button(
            "Cancel",
            pygame.Rect(0, 0, 140, 40),
            self.clear_selection,
            tooltip="Drop the selection (right click)",
        )
        self.defend_buttons = [
            Button(
                f"{n} {'die' if n == 1 else 'dice'} ({n})",
                pygame.Rect(0, 0, 140, 40),
                self._defender(n),
                primary=n == rules.defender_max_dice,
                tooltip=f"Roll {n} {'die' if n == 1 else 'dice'} (key {n})",
            )
            for n in range(1, rules.defender_max_dice + 1)
        ]
        self.open_cards_button = Button(
            "Open cards",
            pygame.Rect(0, 0, 140, 40),
            self.cards.toggle,
            primary=True,
            tooltip="You must turn in a set before placing (C)",
        )
        match.listeners.append(self._react)
        self.on_resize(app.size)

    # -- derived state ---------------------------------------------------------------------------

    @property
    def v(self) -> WorldWarView:
        """What the screen shows: the viewer's view (a spectator's while nobody may look)."""
        return self.match.view(self.viewer)

    def human_turn(self) -> int | None:
        """The human seat to act now, once it may see the screen (else None). A human
        defender answers on the attacker's screen: choosing dice needs no privacy."""
        seat = self.match.actor
        if seat is None or not self.match.seats[seat].human:
            return None
        return seat if seat == self.viewer or self.v.phase == "defend" else None

    def sound(self, name: str) -> None:
        """Play a World War sound, at most once per SOUND_GAP (instant bots fire many)."""
        if self.now - self.sound_at.get(name, -1.0) >= SOUND_GAP:
            self.sound_at[name] = self.now
            sounds.play(self.app.audio, name)

    def must_turn_in(self, seat: int) -> bool:
        """True when `seat` must turn in a set before placing (R5-R6: placing is refused)."""
        v = self.match.view(seat)
        return v.phase == "place" and v.must_turn_in and not v.mid_turn

    def attack_waiting(self) -> AttackWaiting:
        """The attack waiting for a defence."""
        a = self.v.attack
        if a is None:
            raise RuntimeError(f"no attack waits for a defence in phase {self.v.phase}")
        return a

    def occupation(self) -> OccupyRange:
        """The conquest waiting for the occupation move (with its allowed range)."""
        o = self.v.occupy
        if o is None:
            raise RuntimeError(f"no conquest waits for occupation in phase {self.v.phase}")
        return o

    def colour(self, seat: int) -> Colour:
        return theme.player_colour(self.match.seats[seat].colour).rgb

    @property
    def legend_collapsed(self) -> bool:
        """Whether the continent legend shows only its title: as the player last chose
        since the window was resized, else folded exactly when open it would cover a
        territory (`hud.legend_fits`)."""
        if self.legend_choice is not None:
            return self.legend_choice
        return not hud.legend_fits(self)

    @legend_collapsed.setter
    def legend_collapsed(self, value: bool) -> None:
        self.legend_choice = value

    def acted_on(self) -> list[tuple[int, int]]:
        """Screen points of the territories being acted on (selection, target, a battle on
        show, a pending defence or occupation): panels are placed off them."""
        v = self.v
        ts = [self.selected, self.target, self.move_to]
        waiting = v.occupy or v.attack
        if waiting is not None:
            ts += [waiting.source, waiting.target]
        if self.tray is not None and self.battle is not None:
            ts += list(self.battle)
        return [self.map.label_screen(t) for t in dict.fromkeys(ts) if t is not None]

    def buffered(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for t, n in self.buffer:
            out[t] = out.get(t, 0) + n
        return out

    def to_place(self) -> int:
        return self.v.to_place()

    # -- layout ----------------------------------------------------------------------------------

    def on_resize(self, size: tuple[int, int]) -> None:
        """Lay everything out for the window `size` at the UI factor (`scale.ui_factor`):
        the top bar, the map, and the side panel (players, the step's controls, the log);
        at 800x560 everything still fits without clipping."""
        w, h = size
        k = self.k = ui_factor(size, self.app.settings.ui_scale)
        self.top = px(TOP, k)
        compact = w < 1100
        self.side = min(w // 2, px(max(300, min(360, w // 4)), k))
        self.map.set_rect(pygame.Rect(0, self.top, w - self.side, h - self.top))
        self.legend_choice = None  # the legend finds its place (or folds) anew
        labels = (
            (self.cards_button, "Cards" if compact else "Cards (C)", 84 if compact else 118),
            (self.stats_button, "Stats" if compact else "Stats (S)", 76 if compact else 110),
            (self.help_button, "Help" if compact else "Help F1", 66 if compact else 96),
            (self.menu_button, "Menu", 70 if compact else 86),
        )
        for button, label, width in labels:
            button.label = label
            button.rect.size = (px(width, k), px(38, k))
        self.speed.rect.size = (px(132 if compact else 150, k), px(38, k))
        x = w - px(10, k)
        for button in self.top_buttons:
            button.font_size = px(14 if compact else 15, k)
            button.rect.topright = (x, (self.top - button.rect.height) // 2)
            x = button.rect.left - px(8, k)
        gap = px(8, k)
        self.panel = pygame.Rect(
            w - self.side + gap, self.top + gap, self.side - 2 * gap, h - self.top - 2 * gap
        )
        rows = len(self.match.seats) + hud.goal_rows(self)
        self.row_h = px(30 if h >= 700 else 24 if rows <= 4 else 22, k)
        self.players_rect = pygame.Rect(
            self.panel.x, self.panel.y, self.panel.width, px(38, k) + self.row_h * rows
        )
        self.action_rect = pygame.Rect(
            self.panel.x,
            self.players_rect.bottom + px(10, k),
            self.panel.width,
            px(292 if h >= 700 else 280, k),
        )
        self.log_rect = pygame.Rect(
            self.panel.x,
            self.action_rect.bottom + px(10, k),
            self.panel.width,
            max(0, self.panel.bottom - self.action_rect.bottom - px(10, k)),
        )
        self.cards.layout(self.map.rect)
        self._place_action_buttons()

    @property
    def top_buttons(self) -> list[Button]:
        """The top bar's buttons, right to left (no bot pace online: the server's bots
        play at their own pace)."""
        pace = [] if self.match.online else [self.speed]
        return [self.menu_button, self.help_button, self.stats_button, *pace, self.cards_button]

    def _place_action_buttons(self) -> None:
        r, k = self.action_rect, self.k
        left, right = r.x + px(14, k), r.right - px(14, k)
        half = (r.width - px(40, k)) // 2
        tall = px(40, k)
        bottom = r.bottom - px(54, k)
        for button in (
            self.undo_button,
            self.once_button,
            self.confirm_button,
            self.defend_buttons[0],
            self.open_cards_button,
            self.clear_button,
            self.fortify_button,
        ):
            button.rect.size = (half, tall)
            button.rect.topleft = (left, bottom)
        for button in (
            self.end_button,
            self.blitz_button,
            self.defend_buttons[-1],
            self.auto_button,
        ):
            button.rect.size = (half, tall)
            button.rect.topright = (right, bottom)
        self.clear_button.rect.topleft = (left, bottom - px(48, k))
        for i, button in enumerate(self.dice_buttons):
            button.rect.size = (px(44, k), tall)
            button.rect.topleft = (left + px(60 + i * 52, k), r.y + px(78, k))
        for button in self.action_buttons:
            button.font_size = px(18 if half >= 130 else 16, k)

    @property
    def action_buttons(self) -> list[Button]:
        """The buttons of the side panel's step controls (their tooltips go over the map)."""
        return [
            self.undo_button,
            self.auto_button,
            self.fortify_button,
            self.end_button,
            self.once_button,
            self.blitz_button,
            *self.dice_buttons,
            self.confirm_button,
            self.clear_button,
            *self.defend_buttons,
            self.open_cards_button,
        ]

    # -- controls on show ------------------------------------------------------------------------

    def controls(self) -> list[Button]:
        """The buttons that work right now (only these get events and are drawn)."""
        shown: list[Button] = list(self.top_buttons)
        seat = self.human_turn()
        if seat is None or self.finished:
            return shown
        phase = self.v.phase
        if phase in ("setup", "place"):
            if self.must_turn_in(seat):
                shown.append(self.open_cards_button)
            else:
                self.undo_button.enabled = bool(self.buffer)
                shown.append(self.undo_button)
                if phase == "setup":
                    shown.append(self.auto_button)
        elif phase == "cards":
            shown.append(self.open_cards_button)
        elif phase == "defend":
            most = self.attack_waiting().defend_max
            for n, button in enumerate(self.defend_buttons, start=1):
                button.enabled = n <= most
            shown.extend(self.defend_buttons)
        elif phase == "occupy":
            shown.append(self.confirm_button)
        elif phase in ("attack", "fortify"):
            if self.move_to is not None:
                shown.extend([self.confirm_button, self.clear_button, self.end_button])
            elif self.target is not None:
                most = self._max_dice()
                for n, button in enumerate(self.dice_buttons, start=1):
                    button.enabled = n <= most
                    button.primary = n == self.dice
                shown.extend(
                    [*self.dice_buttons, self.once_button, self.blitz_button, self.clear_button]
                )
            elif phase == "attack":
                shown.extend([self.fortify_button, self.end_button])
            else:
                shown.append(self.end_button)
        return shown

    def _max_dice(self) -> int:
        if self.selected is None:
            return 0
        return self.v.attack_dice(self.selected)

    # -- actions ---------------------------------------------------------------------------------

    def act(self, action: Action) -> list[Event] | None:
        """Apply `action` for the acting human; a refusal becomes a notice."""
        who = self.human_turn()
        if who is None:
            return None
        try:
            return self.match.act(who, action)
        except IllegalAction as exc:
            self.app.notify(str(exc).capitalize(), 3.0)
            return None

    def place(self, t: int, n: int) -> None:
        seat = self.human_turn()
        v = self.v
        if seat is None:
            return
        if v.owner[t] != seat:
            self.app.notify(f"{v.map.names[t]} is not yours: place on your own territories")
            return
        if self.must_turn_in(seat):
            self.cards.open = True
            self.app.notify(f"You hold {len(v.hand)} cards: turn in a set first")
            return
        left = self.to_place() - sum(k for _, k in self.buffer)
        n = min(n, left)
        if n <= 0:
            return
        self.buffer.append((t, n))
        if left - n == 0:
            self.commit_placements()

    def commit_placements(self) -> None:
        """Send the collected placements (one Place per territory) to the engine."""
        placing, self.buffer = self.buffered(), []
        for t, n in placing.items():
            if self.act(A.Place(self.v.map.territories[t], n)) is None:
                break

    def auto_place(self) -> None:
        """R13: every army the human has left to deploy, placed at once."""
        if self.human_turn() is None or self.v.phase != "setup":
            return
        self.buffer = []
        self.act(A.AutoPlace())

    def undo(self) -> None:
        if self.buffer:
            self.buffer.pop()

    def take_back(self, t: int) -> None:
        for i in range(len(self.buffer) - 1, -1, -1):
            tt, n = self.buffer[i]
            if tt == t:
                if n > 1:
                    self.buffer[i] = (tt, n - 1)
                else:
                    del self.buffer[i]
                return

    def _dice_setter(self, n: int) -> Callable[[], None]:
        def choose() -> None:
            if 1 <= n <= self._max_dice():
                self.dice = n

        return choose

    def _defender(self, n: int) -> Callable[[], None]:
        return lambda: self._defend(n)

    def _defend(self, n: int) -> None:
        self.act(A.Defend(n))

    def attack_once(self) -> None:
        if self.selected is None or self.target is None:
            return
        ids = self.v.map.territories
        self.act(A.Attack(ids[self.selected], ids[self.target], min(self.dice, self._max_dice())))
        self._after_attack()

    def attack_blitz(self) -> None:
        if self.selected is None or self.target is None:
            return
        ids = self.v.map.territories
        self.act(A.Blitz(ids[self.selected], ids[self.target], False))
        self._after_attack()

    def _after_attack(self) -> None:
        v = self.v
        if self.selected is None:
            return
        if self.target is not None and v.owner[self.target] == v.owner[self.selected]:
            self.target = None
        if v.attack_dice(self.selected) == 0:
            self.selected = self.target = None
        else:
            self.dice = max(1, self._max_dice())

    def confirm_move(self) -> None:
        if self.slider is None:
            return
        if self.v.phase == "occupy":
            source = self.occupation().source
            self.act(A.Occupy(self.slider.value))
            self.slider = None
            self.target = None  # conquered: pick the next target from the same source
            self.selected = source if self.v.attack_dice(source) > 0 else None
            return
        if self.selected is not None and self.move_to is not None:
            ids = self.v.map.territories
            self.act(A.Fortify(ids[self.selected], ids[self.move_to], self.slider.value))
            self.clear_selection()

    def start_free_move(self) -> None:
        if self.human_turn() is not None and self.v.phase == "attack":
            self.clear_selection()
            self.act(A.EndAttack())

    def end_turn(self) -> None:
        if self.human_turn() is None or self.v.phase not in ("attack", "fortify"):
            return
        self.clear_selection()
        self.act(A.EndTurn())

    def clear_selection(self) -> None:
        self.selected = self.target = self.move_to = None
        if self.v.phase != "occupy":
            self.slider = None

    def _turn_in(self, cards: tuple[int, ...]) -> None:
        if self.act(A.TurnIn(cards)) is not None:
            self.sound("card")
            self.cards.open = False  # back to the map; reopened while another set is due

    def _skip_cards(self) -> None:
        if self.act(A.SkipTurnIn()) is not None:
            self.cards.open = False

    def _speed_changed(self, _delay: float) -> None:
        self.match.speed = self.speed.index  # saves keep the pace chosen last

    def show_help(self) -> None:
        self.app.push(HelpScene(self.app))

    def show_stats(self) -> None:
        """The charts of the match so far, over the map (the match waits meanwhile)."""
        self.app.push(StatsScene(self.app, self.match))

    def open_menu(self) -> None:
        self.app.push(
            MenuScene(
                self.app,
                "Paused",
                [
                    ("Resume", "Back to the map (Esc)", lambda: None),
                    ("Save game", "Save this game to resume it later", self.save_clicked),
                    ("Help", "Every key and mouse shortcut (F1)", self.show_help),
                    ("Leave game", "Back to the set-up screen (the autosave stays)", self.leave),
                ],
            )
        )

    def save_clicked(self) -> None:
        self.save_game()

    def save_game(self) -> Path | None:
        path = saves_dir() / f"turn-{self.v.turn:03d}-{self.match.moves}.json"
        try:
            self.match.save(path)
        except SaveError as exc:
            self.app.notify(f"Could not save: {exc.problem}", 5.0)
            return None
        self.app.notify(f"Saved as {path.name}")
        return path

    def leave(self) -> None:
        def go() -> None:
            self.match.stop_thinking()  # a bot's search in progress stops at once
            self.match.save_autosave()  # with the time left on the turn clock
            if self in self.app.stack:
                while self.app.stack and self.app.scene is not self:
                    self.app.pop()
                self.app.pop()

        self.app.push(
            ConfirmScene(
                self.app,
                "Leave this game?",
                (
                    "The server holds your seat: rejoin it from Online."
                    if self.match.online
                    else "It is autosaved every turn; you can resume it from the set-up screen."
                ),
                "Leave",
                go,
            )
        )

    # -- reacting to events ----------------------------------------------------------------------

    def _react(self, events: list[Event]) -> None:
        v = self.v
        index = v.map.territories.index
        for e in events:
            if isinstance(e, (A.DiceRolled, A.BattleFought)):
                self.battle = (index(e.source), index(e.target))
            if isinstance(e, A.DiceRolled):
                self.tray = DiceTray(
                    e.attacker_dice,
                    e.defender_dice,
                    self.colour(e.seat),
                    self.colour(e.defender),
                    f"{self.match.territory_name(e.source)} attacks "
                    f"{self.match.territory_name(e.target)}",
                    e.attacker_loss,
                    e.defender_loss,
                    scale=self.k,
                )
                self.sound("dice")
            elif isinstance(e, A.BattleFought):
                self.tray = BattleCard(
                    f"{self.match.territory_name(e.source)} to the end against "
                    f"{self.match.territory_name(e.target)}",
                    e.attacker_loss,
                    e.defender_loss,
                    v.owner[index(e.target)] == e.seat,
                    scale=self.k,
                )
                self.sound("dice")
            elif isinstance(e, A.Conquered):
                self.rings.append(Ring(index(e.target), self.colour(e.seat)))
                self.sound("conquest")
            elif isinstance(e, A.CardDrawn) and e.seat == self.viewer:
                self.sound("card")
                self.flights.append(CardFlight(self.map.rect.center, self.cards_button.rect.center))
            elif isinstance(e, A.TurnBegan):
                self.clear_selection()
                self.buffer = []
                if self.match.seats[e.seat].human:
                    self.sound("turn")
            elif isinstance(e, A.Eliminated):
                self.app.toasts.add(f"{self.match.name(e.seat)} is out!", 3.0)
            elif isinstance(e, A.TimeRanOut):
                self.app.toasts.add(f"Time is up for {self.match.name(e.seat)}", 2.5)

    # -- input -----------------------------------------------------------------------------------

    def back(self) -> bool:
        if self.cards.open:
            self.cards.open = False
        elif self.selected is not None and self.v.phase != "occupy":
            self.clear_selection()
        else:
            self.open_menu()
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        for button in self.controls():
            if button.handle_event(event):
                return
        if self.slider is not None and self.slider.handle_event(event):
            return
        if self.cards.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEWHEEL:
            if self.map.rect.collidepoint(self.mouse):
                self.map.zoom_at(self.mouse, max(-3, min(3, event.y)))
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and (
            event.button == 1 and hud.legend_header(self).collidepoint(event.pos)
        ):
            if event.type == pygame.MOUSEBUTTONUP:
                self.legend_collapsed = not self.legend_collapsed
            self.press = None
        elif event.type == pygame.MOUSEBUTTONDOWN and self.map.rect.collidepoint(event.pos):
            self.press = event.pos
            self.dragging = False
        elif event.type == pygame.MOUSEMOTION:
            hover = self.map.territory_at(event.pos)
            if hover != self.hover:
                self.hover, self.hover_time = hover, 0.0
            if self.press is not None:
                dx, dy = event.pos[0] - self.press[0], event.pos[1] - self.press[1]
                if self.dragging or abs(dx) + abs(dy) > DRAG:
                    self.dragging = True
                    self.map.pan_by(dx, dy)
                    self.press = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and self.press is not None:
            was_drag, self.press, self.dragging = self.dragging, None, False
            if not was_drag:
                t = self.map.territory_at(event.pos)
                shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                if event.button == 1 and t is not None:
                    self.click_territory(t, shift)
                elif event.button == 3:
                    if t is not None and self.buffer:
                        self.take_back(t)
                    elif self.v.phase != "occupy":
                        self.clear_selection()

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        phase = self.v.phase
        if key == pygame.K_F1:
            self.show_help()
        elif key == pygame.K_s:
            self.show_stats()
        elif key == pygame.K_c and self.cards_button.enabled:
            self.cards.toggle()
        elif key == pygame.K_t and self.cards.open:
            self.cards.turn_in()
        elif key == pygame.K_b and self.cards.open:
            self.cards.pick_best()
        elif key == pygame.K_a:
            self.auto_place()
        elif key in (pygame.K_u, pygame.K_BACKSPACE):
            self.undo()
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.map.zoom_at(self.map.rect.center, 1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.map.zoom_at(self.map.rect.center, -1)
        elif key == pygame.K_0:
            self.map.reset_view()
        elif pygame.K_1 <= key <= pygame.K_9:
            n = key - pygame.K_0
            if phase == "defend":
                self._defend(n)
            else:
                self._dice_setter(n)()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.slider is not None:
                self.confirm_move()
            elif self.target is not None:
                self.attack_blitz()
        elif key == pygame.K_SPACE and self.target is not None:
            self.attack_once()
        elif key == pygame.K_e:
            self.end_turn()
        elif key == pygame.K_f:
            self.start_free_move()
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and self.slider is not None:
            self.slider.nudge(1 if key == pygame.K_RIGHT else -1)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            step = 60
            dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(key, 0)
            dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(key, 0)
            self.map.pan_by(dx, dy)

    def click_territory(self, t: int, shift: bool) -> None:
        seat = self.human_turn()
        if seat is None:
            return
        v = self.v
        phase = v.phase
        names = v.map.names
        if phase in ("setup", "place"):
            self.place(t, SHIFT_PLACE if shift else 1)
            return
        if phase not in ("attack", "fortify"):
            return
        mine = v.owner[t] == seat
        near = self.selected is not None and t in v.map.neighbours[self.selected]
        if phase == "fortify" and mine and near and self.selected is not None:
            self.move_to, self.target = t, None
            most = v.movable(self.selected)
            self.slider = Slider(
                pygame.Rect(0, 0, 10, 10), 1, most, most, "Armies to move (Left/Right keys, wheel)"
            )
            return
        if mine:
            if t == self.selected:
                self.clear_selection()
            elif v.movable(t) == 0:
                need = v.rules.stay_behind + 1
                self.app.notify(f"{names[t]} needs {need} armies to attack or move from")
            else:
                self.selected, self.target, self.move_to, self.slider = t, None, None, None
                self.dice = self._max_dice()
            return
        if phase == "fortify":
            self.app.notify("Attacks are over: move between your own territories or end the turn")
        elif near:
            self.target, self.move_to, self.slider = t, None, None
            self.dice = self._max_dice()
        else:
            self.app.notify(f"Pick one of your territories next to {names[t]} first")

    # -- time ------------------------------------------------------------------------------------

    def animating(self) -> bool:
        """Drawn every frame only while something moves: dice, rings or a card on show, a
        zoom settling, bots to pace, or the pause before the game-over screen. A human
        thinking costs nothing; a running turn clock only ticks (`ticking`) and redraws
        when the time it shows changes."""
        if self.tray is not None or self.rings or self.flights or self.map.settling:
            return True
        if self.match.link_problem is not None:
            return True  # the banner follows the connection
        if self.match.over:
            return not self.finished
        actor = self.match.actor
        return actor is not None and actor in self.match.bot_seats

    def ticking(self) -> bool:
        """The turn clock counts (locally for a human here, or the server's): update on."""
        return bool(self.v.rules.clock) and not self.match.over and self.clock_running

    @property
    def clock_running(self) -> bool:
        """Whether the turn clock counts now: a human of this screen acts, or a remote
        clock (the server's) runs for whoever acts."""
        if self.match.time_left is not None:
            return self.match.time_left() is not None
        return self.human_turn() is not None

    def update(self, dt: float) -> None:
        self.now += dt
        self.hover_time += dt
        if self.match.online:
            self.match.pump()  # what the server broadcast since the last frame
            for reason in self.match.refusals:
                self.app.notify(f"Refused: {reason}", 3.0)
            self.match.refusals.clear()
        for button in self.controls():
            button.update(dt)
        self.cards.update(dt)
        if self.slider is not None:
            self.slider.update(dt)
        if self.tray is not None:
            self.tray.update(dt)
            if self.tray.done:
                self.tray = None
        for ring in self.rings:
            ring.update(dt)
        self.rings = [r for r in self.rings if not r.done]
        for flight in self.flights:
            flight.update(dt)
        self.flights = [f for f in self.flights if not f.done]
        if self.match.over:
            self.over_wait -= dt
            if self.over_wait <= 0 and not self.finished:
                self.finish()
            return
        self._sync_slider()
        if self._needs_pass():
            return
        self._tick_clock(dt)
        self._step_bots(dt)
        self._sync_cards()

    def _needs_pass(self) -> bool:
        seat = self.match.actor
        if seat is None or not self.match.seats[seat].human or seat == self.viewer:
            return False
        if self.v.phase == "defend":
            self.cards.open = False  # the viewer's hand stays hidden from the defender
            return False
        if len(self.humans) == 1:
            self.viewer = seat
            return False
        self.cards.open = False
        self.clear_selection()

        def ready() -> None:
            self.viewer = seat

        self.app.push(PassScene(self.app, self.match.name(seat), self.colour(seat), ready))
        return True

    def _tick_clock(self, dt: float) -> None:
        self._count_clock(dt)
        face = hud.clock_face(self)
        if face != self.clock_face:
            self.clock_face = face
            self.app.request_redraw()  # the clock shows another value: draw it

    def _count_clock(self, dt: float) -> None:
        v = self.v
        if not v.rules.clock:
            return
        if self.match.time_left is not None:  # the server keeps time and plays TimeUp
            left = self.match.time_left()
            self.clock_left = float(v.rules.clock) if left is None else left
            return
        key = (v.turn, v.current)
        if key != self.clock_key:
            self.clock_key = key
            kept = self.match.clock
            # A resumed turn goes on with the time it had left when it was saved.
            self.clock_left = kept[2] if kept[:2] == key else float(v.rules.clock)
        if self.human_turn() is None or self.match.actor != v.current:
            return  # bots need no clock; a defender's choice does not use up the turn
        self.clock_left -= dt
        self.match.clock = (key[0], key[1], max(0.0, self.clock_left))
        if self.clock_left <= 0:
            if self.buffer:
                self.commit_placements()
            seat = self.match.actor
            human = seat is not None and self.match.seats[seat].human
            if seat is not None and human and not self.match.over and not self.match.online:
                self.match.act(seat, A.TimeUp())  # online the server's clock does this
            self.clear_selection()
            self.slider = None
            self.cards.open = False

    def _step_bots(self, dt: float) -> None:
        """Bots decide in the worker process; this only paces them. "Instant" applies
        decisions as they come for up to INSTANT_BOT_SECONDS of each frame; the other
        speeds let the bot think during the pause and act when both are over."""
        delay = self.speed.value
        if delay <= 0:
            deadline = time.perf_counter() + INSTANT_BOT_SECONDS
            for _ in range(INSTANT_BATCH):
                left = deadline - time.perf_counter()
                if left <= 0 or self.match.step_bot(left) is None:
                    break
            return
        seat = self.match.actor
        if seat is None or seat not in self.match.bot_seats:
            return
        self.match.think_ahead()
        self.bot_wait -= dt
        if self.bot_wait <= 0:
            moved = self.match.step_bot() is not None
            if not moved and self.match.thinking:
                return  # still thinking: asked again next frame, acts as soon as it is done
            # A bot's defence answers a human's roll: quick, so attacks keep their rhythm.
            quick = self.v.phase == "defend" and self.match.actor in self.match.bot_seats
            self.bot_wait = min(delay, DEFENCE_DELAY) if quick else delay if moved else 0.2

    def _sync_slider(self) -> None:
        v = self.v
        if v.phase == "occupy" and self.human_turn() is not None:
            o = self.occupation()
            key = ("occupy", v.turn, o.source, o.target)
            if self.slider_key != key:
                # The view gives the allowed range (R9: `Occupy` names the total moved in).
                self.slider = Slider(
                    pygame.Rect(0, 0, 10, 10),
                    o.min,
                    o.max,
                    o.max,
                    f"Armies to move in ({o.min} to {o.max})",
                )
                self.slider_key = key
                self.selected, self.target = o.source, o.target
        elif v.phase == "occupy":
            self.slider = None
        if self.slider is not None:
            r = self.action_rect
            self.slider.rect = pygame.Rect(r.x + 14, r.y + 130, r.width - 28, 30)

    def _sync_cards(self) -> None:
        seat = self.viewer
        if seat is None or not self.v.rules.has_cards:
            return
        view = self.match.view(seat)
        phase = view.phase
        acting = self.human_turn() == seat
        if not self.cards.open and not (acting and phase in ("place", "cards")):
            return  # nothing to show or open this frame
        may = acting and phase in ("place", "cards") and (phase == "cards" or not view.mid_turn)
        lines = value_lines(view)
        if view.must_turn_in:
            lines = [f"You hold {len(view.hand)} cards: you must turn in a set", *lines]
        if (phase == "cards" or view.must_turn_in) and acting and not self.cards.open:
            self.cards.open = True

        def check(cards: tuple[int, ...]) -> str | None:
            if is_legal(self.match.legal(seat), A.TurnIn(cards)):
                return None
            if view.must_turn_in and view.best_turn_in:
                return "that is no set you may turn in now (Best picks one)"
            return "that is no set you may turn in now"

        self.cards.sync(view, lines, check, may)

    def finish(self) -> None:
        """Show the game-over screen (the replay is saved for watching)."""
        from suite.worldwar.screens.gameover import GameOverScene

        self.finished = True
        replay = self.match.save_replay()
        self.app.replace(GameOverScene(self.app, self.match, replay))

    # -- drawing ---------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        v = self.v
        surface.fill(theme.BACKGROUND_BOTTOM)
        palette = [self.colour(i) for i in range(len(self.match.seats))]
        self.map.set_colours([palette[o] for o in v.owner])
        targets: list[int] = []
        if self.selected is not None and v.phase in ("attack", "fortify"):
            seat = v.owner[self.selected]
            want_enemy = v.phase == "attack" and self.move_to is None
            targets = [
                n for n in v.map.neighbours[self.selected] if (v.owner[n] != seat) == want_enemy
            ]
            if self.target is not None:
                targets = [self.target]
            if self.move_to is not None:
                targets = [self.move_to]
        selected = self.selected
        if self.human_turn() is None and self.tray is not None and self.battle is not None:
            selected, targets = self.battle[0], [self.battle[1]]  # show what a bot attacks
        waiting = v.occupy or v.attack
        if waiting is not None:
            targets = [waiting.target]
            selected = waiting.source
        continent = self.legend_hover()
        group = list(v.map.continent_members[continent]) if continent is not None else []
        hidden = self.viewer is None and len(self.humans) > 1
        self.map.draw(
            surface,
            v.armies,
            v.owner,
            hover=None if hidden else self.hover,
            selected=selected,
            targets=targets,
            group=group,
            extra=self.buffered(),
            marks=capital_marks(v.capitals, self.colour),
        )
        for ring in self.rings:
            ring.draw_at(surface, self.map.label_screen(ring.territory))
        hud.draw_legend(self, surface)
        if self.tray is not None:
            self.tray.draw(surface, self.map.rect, self.acted_on())
        hud.draw_top(self, surface)
        hud.draw_players(self, surface)
        hud.draw_action(self, surface)
        hud.draw_log(self, surface)
        self.cards.draw(surface)
        for button in self.controls():
            button.draw(surface)
        for flight in self.flights:
            flight.draw(surface)
        if self.slider is not None and self.human_turn() is not None:
            self.slider.draw(surface)
        self._draw_tooltips(surface)
        problem = self.match.link_problem
        if problem is not None:
            hud.draw_banner(self, surface, problem)

    def legend_hover(self) -> int | None:
        for c, rect in hud.legend_rows(self):
            if rect.collidepoint(self.mouse):
                return c
        return None

    def tooltip_spot(self, button: Button) -> tuple[pygame.Rect | None, tuple[int, int]]:
        """Where `button`'s tooltip goes: the side panel's step buttons show theirs over the
        map's right edge, level with the button, so the panel's text stays readable (a
        sub-surface of the map and a point in it); other buttons at the mouse (None)."""
        if button not in self.action_buttons:
            return None, button.hover.mouse
        area = self.map.rect
        if area.width < 40:
            return None, button.hover.mouse
        return area, (area.width, button.rect.y - area.y)

    def _draw_tooltips(self, surface: pygame.Surface) -> None:
        for button in self.controls():
            area, near = self.tooltip_spot(button)
            if area is None or not (button.tooltip and button.hover.tooltip_due):
                button.draw_tooltip(surface)
            else:
                draw_tooltip(surface.subsurface(area), button.tooltip, near)
        self.cards.draw_tooltips(surface)
        if self.slider is not None:
            self.slider.draw_tooltip(surface)
        t = self.hover
        if (
            t is not None
            and self.hover_time >= TOOLTIP_DELAY
            and not self.cards.open
            and self.map.rect.collidepoint(self.mouse)
        ):
            v = self.v
            m = v.map
            cont = m.continent_of[t]
            owner = self.match.name(v.owner[t])
            text = (
                f"{m.names[t]} ({m.continent_names[cont]}, +{m.continent_bonus[cont]}):"
                f" {owner}, {v.armies[t]} {'army' if v.armies[t] == 1 else 'armies'}"
            )
            if t in v.capitals:
                text += f"; capital of {self.match.name(v.capitals.index(t))}"
            area = self.map.rect  # never over the side panel
            near = (self.mouse[0] - area.x, self.mouse[1] - area.y)
            draw_tooltip(surface.subsurface(area), text, near)
