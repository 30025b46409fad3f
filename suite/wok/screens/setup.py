"""The WoK set-up screen: rule set, variant, map (shipped or generated), players and their
names, headhunting turns, clock, seed.

Every choice comes from the rules data and the game's spec: the rule sets shipped, their
variants, the clock presets, the bots the spec offers; the headhunting turns start at the
variant's figure (rules data) whenever the rule set or variant changes and the host may set
them from 0 to `HEADHUNTING_MAX` (config `headhunting_turns`). Each player's name is typed
into its box (config `names`); digits typed elsewhere edit the seed. Start opens the game;
the saves and the autosave can be resumed and saved replays watched from here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from suite.core.board import BoardError
from suite.core.match import ConfigError, Replay, game_spec
from suite.core.session import LocalSession
from suite.core.store import SaveError
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.hosting import HostPlan, host_online, seat_bots, seats_line
from suite.ui.widgets import draw_panel, wrap_text
from suite.wok.rules.config import NAME_LIMIT, SEAT_NAMES, check_names, known_rulesets
from suite.wok.rules.maps import SHIPPED, TITLES
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.rules.views import WokSpectatorView
from suite.wok.screens.guide import guide_offered
from suite.wok.screens.kit import Stepper, TextField, ZButton, label, px, set_zoom
from suite.wok.screens.mapdraw import WokMapView, colour_of
from suite.wok.screens.match import (
    HUMAN,
    SeatPlan,
    WokMatch,
    autosave_path,
    replays_dir,
    save_summary,
    saves_dir,
)
from suite.wok.screens.overlays import MenuScene

GENERATED = "generated"
MAP_TITLES = TITLES
NONE_CLOCK = "none"
DEFAULT_RULESET = "standard"
SEED_DIGITS = 9
ROW = 38
HEADHUNTING_MAX = 99  # the config's range (`WokConfig.headhunting_turns`)
NAME_BOX = 112  # layout pixels of a player's name box


class SetupScene(Scene):
    """Choose the match and start it (see the module docstring)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.seed = random.randrange(1, 10**6)
        self.kinds = [HUMAN, *sorted(game_spec("wok").bots)]
        self.ruleset = Stepper(
            pygame.Rect(0, 0, 10, 10),
            sorted(known_rulesets(), key=lambda n: (n != DEFAULT_RULESET, n)),
            lambda _: self.changed(),
            shown=self._ruleset_title,
        )
        self.variant = Stepper(
            pygame.Rect(0, 0, 10, 10), [], lambda _: self.changed(), shown=str.capitalize
        )
        maps = [*sorted(SHIPPED, key=lambda m: SHIPPED[m][0]), GENERATED]
        self.all_maps = maps
        self.map = Stepper(
            pygame.Rect(0, 0, 10, 10), maps, lambda _: self.changed(), shown=self._map_title
        )
        self.provinces = Stepper(
            pygame.Rect(0, 0, 10, 10),
            [str(n) for n in range(20, 81, 5)],
            lambda _: self.changed(),
            shown=lambda n: f"{n} provinces",
        )
        self.provinces.select("40")
        self.players = Stepper(
            pygame.Rect(0, 0, 10, 10), [], lambda _: self.changed(), shown=lambda n: f"{n} players"
        )
        self.clock = Stepper(pygame.Rect(0, 0, 10, 10), [], None, shown=self._clock_title)
        self.headhunting = Stepper(
            pygame.Rect(0, 0, 10, 10),
            [str(n) for n in range(HEADHUNTING_MAX + 1)],
            None,
            shown=self._headhunting_title,
            tooltip="Home provinces cannot be bombed, attacked or spied on through this turn",
        )
        self._headhunting_for: tuple[str, str] = ("", "")
        self.seat_kinds: list[Stepper] = []
        self.names: list[TextField] = []
        self.seed_minus = ZButton("-", pygame.Rect(0, 0, 30, 30), lambda: self.bump_seed(-1))
        self.seed_plus = ZButton("+", pygame.Rect(0, 0, 30, 30), lambda: self.bump_seed(1))
        self.seed_new = ZButton(
            "New",
            pygame.Rect(0, 0, 60, 30),
            self.new_seed,
            tooltip="A fresh random seed (or type digits; Backspace deletes)",
        )
        self.start_button = ZButton(
            "Start",
            pygame.Rect(0, 0, 150, 44),
            self.start,
            primary=True,
            tooltip="Start the game (Enter)",
        )
        self.host_button = ZButton(
            "Host online",
            pygame.Rect(0, 0, 130, 44),
            self.host_online,
            tooltip="Open this match as a room on a server (this computer's or one at an "
            "address): human seats wait for players, bot seats get the server's bots",
        )
        self.resume_button = ZButton(
            "Resume",
            pygame.Rect(0, 0, 130, 44),
            self.resume,
            tooltip="Resume your autosave or a saved game",
        )
        self.replay_button = ZButton(
            "Replays",
            pygame.Rect(0, 0, 130, 44),
            self.replays,
            tooltip="Watch a saved replay turn by turn",
        )
        self.back_button = ZButton(
            "Back", pygame.Rect(0, 0, 110, 44), self.leave, tooltip="Back to the launcher (Esc)"
        )
        self.message = ""
        self.lead = 120
        self.preview: WokMapView | None = None
        self.preview_key: tuple[object, ...] = ()
        self.preview_note = ""
        self.changed()

    # -- choices ----------------------------------------------------------------------------

    @staticmethod
    def _ruleset_title(name: str) -> str:
        return load_ruleset(name).title

    @staticmethod
    def _map_title(name: str) -> str:
        if name == GENERATED:
            return "Generated"
        n, players = SHIPPED[name]
        return f"{MAP_TITLES.get(name, name)} ({n}, {players} pl.)"

    @staticmethod
    def _headhunting_title(turns: str) -> str:
        n = int(turns)
        if n == 0:
            return "None"
        return "Turn 1 safe" if n == 1 else f"Turns 1-{n} safe"

    def _clock_title(self, name: str) -> str:
        if name == NONE_CLOCK:
            return "None (hot-seat)"
        seconds = self.rules().clock[name].deadline
        span = f"{seconds // 60} min" if seconds < 3600 else f"{seconds // 3600} h"
        return f"{name.capitalize()}: {span} a turn"

    def rules(self) -> Any:
        return load_ruleset(self.ruleset.value)

    def variant_rules(self) -> Any:
        return self.rules().variants[self.variant.value]

    def changed(self) -> None:
        """Recompute the dependent choices (variants, player counts, seats, clocks)."""
        rules = self.rules()
        order = ["skirmish", "duel", "trinity"]
        variants = sorted(rules.variants, key=lambda v: (order.index(v) if v in order else 9, v))
        self.variant.set_choices(variants, self.variant.value)
        var = self.variant_rules()
        colours = var.seats * var.colours_per_seat + var.robots if var.seats else 2
        fits = [m for m in self.all_maps if m == GENERATED or SHIPPED[m][1] >= colours]
        self.map.set_choices(fits, self.map.value)
        if var.seats:
            counts = [var.seats]
        else:
            top = SHIPPED[self.map.value][1] if self.map.value in SHIPPED else 10
            counts = list(range(2, top + 1))
        keep = self.players.value or str(counts[-1] if self.map.value == "trial" else counts[0])
        self.players.set_choices([str(n) for n in counts], keep)
        self._player_limits(var, counts)
        n = int(self.players.value)
        old = [s.value for s in self.seat_kinds]
        self.seat_kinds = [
            Stepper(pygame.Rect(0, 0, 10, 10), self.kinds, None, shown=self._kind_title)
            for _ in range(n)
        ]
        for i, stepper in enumerate(self.seat_kinds):
            stepper.select(old[i] if i < len(old) else ("general" if i else HUMAN))
        typed = [f.text for f in self.names]
        self.names = [
            TextField(
                pygame.Rect(0, 0, 10, 10),
                typed[i] if i < len(typed) else SEAT_NAMES[i % len(SEAT_NAMES)],
                limit=NAME_LIMIT,
                on_done=lambda _: self.app.request_redraw(),
                tooltip="Click and type the player's name (Enter ends)",
            )
            for i in range(n)
        ]
        chosen = (self.ruleset.value, self.variant.value)
        if chosen != self._headhunting_for:  # a new variant brings its own protection
            self._headhunting_for = chosen
            self.headhunting.select(str(var.protect_home_until))
        self.clock.set_choices(
            [NONE_CLOCK, *sorted(rules.clock, key=lambda k: rules.clock[k].deadline)],
            self.clock.value,
        )
        self.on_resize(self.app.size)

    def _player_limits(self, var: Any, counts: list[int]) -> None:
        """The Players arrows stop at the ends (no wrapping round) and their tooltips say
        why there are no more or fewer players: the variant, the map's start provinces or
        the game's range."""
        low, high = game_spec("wok").players
        at = self.players.index
        name = self.variant.value.capitalize()
        if var.seats:
            more = fewer = f"{name} is for {var.seats} players"
        elif self.map.value in SHIPPED:
            title = MAP_TITLES.get(self.map.value, self.map.value)
            more = (
                f"{title} has start provinces for {counts[-1]} players: pick a bigger map, "
                "or Generated, for more"
            )
            fewer = f"WoK needs at least {low} players"
        else:
            more, fewer = f"WoK takes at most {high} players", f"WoK needs at least {low} players"
        last = len(self.players.choices) - 1
        self.players.right.enabled = at < last
        self.players.right.tooltip = "One more player" if at < last else more
        self.players.left.enabled = at > 0
        self.players.left.tooltip = "One player fewer" if at > 0 else fewer

    def summaries(self) -> list[str]:
        """One line each on what the rule set and the variant change (rules data)."""
        rules = self.rules()
        var = self.variant_rules()
        return [
            f"{rules.title}: {rules.summary}" if rules.summary else "",
            f"{self.variant.value.capitalize()}: {var.summary}" if var.summary else "",
        ]

    @staticmethod
    def _kind_title(kind: str) -> str:
        return "Human" if kind == HUMAN else f"Bot: {kind}"

    def config(self) -> dict[str, Any]:
        chosen: str | int = self.map.value
        if chosen == GENERATED:
            chosen = int(self.provinces.value)
        clock = self.clock.value
        # No clock on screen: the engine keeps its slowest preset (nobody is ever poked).
        slowest = max(self.rules().clock, key=lambda k: self.rules().clock[k].deadline)
        preset = clock if clock != NONE_CLOCK else slowest
        return {
            "ruleset": self.ruleset.value,
            "variant": self.variant.value,
            "map": chosen,
            "clock": preset,
            "headhunting_turns": int(self.headhunting.value),
        }

    def seats(self) -> list[SeatPlan]:
        return [
            SeatPlan(name.text.strip(), s.value)
            for name, s in zip(self.names, self.seat_kinds, strict=True)
        ]

    def host_plan(self) -> HostPlan:
        """This set-up as a room for a server: the same config a local match is made
        from, bot seats (generals, robots) as the server's bots."""
        kinds = [s.value for s in self.seat_kinds]
        config = {**self.config(), "players": len(kinds)}
        clock = self.clock.value
        summary = (
            seats_line(kinds, HUMAN),
            f"{self._ruleset_title(self.ruleset.value)}, {self.variant.value.capitalize()}; "
            f"map: {self._map_title(self.map.value)}"
            + (f" ({self.provinces.value} provinces)" if self.map.value == GENERATED else ""),
            f"Turn clock: {self._clock_title(clock)}; "
            f"{self._headhunting_title(self.headhunting.value)}",
            "The server draws the map's seed and runs the turns.",
        )
        return HostPlan("wok", config, seat_bots(kinds, HUMAN), {}, summary)

    def host_online(self) -> None:
        host_online(self.app, self.host_plan())

    def typing(self) -> TextField | None:
        """The name box being typed into, if any."""
        return next((f for f in self.names if f.typing), None)

    def bump_seed(self, by: int) -> None:
        self.seed = max(0, self.seed + by)

    def new_seed(self) -> None:
        self.seed = random.randrange(1, 10**6)

    def update_preview(self) -> None:
        """The map and start provinces this set-up and seed give (the match's public view at
        turn 0, read through a session like every screen); rebuilt only when they change."""
        config = {**self.config(), "players": len(self.seat_kinds)}
        del config["headhunting_turns"]  # the same map and starts whatever the protection
        key = (tuple(sorted(config.items())), self.seed)
        if key == self.preview_key:
            return
        self.preview_key = key
        everyone = frozenset(range(len(self.seat_kinds)))
        try:
            session = LocalSession.start("wok", config, self.seed, humans=everyone)
        except (ConfigError, BoardError, ValueError) as exc:
            self.preview, self.preview_note = None, f"No map: {exc}"
            return
        view = session.view(None)
        assert isinstance(view, WokSpectatorView)
        self.preview = WokMapView(view.map, self.preview_rect)
        self.preview.plain = True
        owners = [p.owner for p in view.provinces]
        self.preview.set_state(owners, [None] * len(owners))
        homes = sum(1 for o in owners if o >= 0)
        self.preview_note = f"{len(owners)} provinces, {homes} start provinces (seed {self.seed})"

    # -- actions ----------------------------------------------------------------------------

    def start(self) -> None:
        field = self.typing()
        if field is not None:
            field.stop()
        seats = self.seats()
        try:
            check_names(tuple(s.name for s in seats))
        except ValueError as exc:
            self.message = f"Cannot start: {exc}"
            return
        if not any(s.human for s in seats):
            self.message = "At least one player must be human (watch bots with `suite sim wok`)"
            return
        try:
            match = WokMatch.new(
                self.config(), self.seed, seats, clock=self.clock.value, autosave=autosave_path()
            )
        except (ConfigError, BoardError, ValueError) as exc:
            self.message = f"Cannot start: {exc}"
            return
        self.message = ""
        self.open(match, offer_guide=not guide_offered(self.app.settings.name))

    def open(self, match: WokMatch, *, offer_guide: bool = False) -> None:
        """Show `match`; `offer_guide`: ask for the guided first turn (a profile's first
        game)."""
        from suite.wok.screens.game import GameScene

        self.app.push(GameScene(self.app, match, offer_guide=offer_guide))

    def load(self, path: Path) -> None:
        try:
            match = WokMatch.load(path, autosave=autosave_path())
        except SaveError as exc:
            self.app.notify(f"Cannot resume: {exc.problem}", 5.0)
            return
        if match.session.outcome() is not None:
            from suite.wok.screens.replay import ReplayScene

            self.app.notify("That game is over: here is its replay", 3.0)
            self.app.push(ReplayScene(self.app, match.session.replay))
            return
        self.open(match)

    def _files(self, folder: Path) -> list[Path]:
        if not folder.is_dir():
            return []
        return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)[:6]

    def resume(self) -> None:
        files = self._files(saves_dir())
        if not files:
            self.app.notify("No saved games yet")
            return
        items = [(self._save_label(p), str(p), self._loader(p)) for p in files]
        widest = max(theme.font(15).size(text)[0] for text, _, _ in items) + 40
        width = max(300, min(widest, 640))  # a long line is cut with "..." past that
        self.app.push(MenuScene(self.app, "Resume a game", items, width=width, font_size=15))

    @staticmethod
    def _save_label(path: Path) -> str:
        """ "Trial, 2 players, turn 7 - 27 Nov 04:12" (the autosave says so first)."""
        when = time.strftime("%d %b %H:%M", time.localtime(path.stat().st_mtime))
        try:
            config, players, turn = save_summary(path)
        except SaveError:
            return f"{path.stem} (unreadable) - {when}"
        chosen = config.get("map")
        if isinstance(chosen, int):
            where = f"Generated ({chosen})"
        elif isinstance(chosen, str) and chosen in SHIPPED:
            where = MAP_TITLES.get(chosen, chosen)
        else:
            where = Path(str(chosen)).stem if chosen else "map"
        rules = config.get("ruleset", DEFAULT_RULESET)
        title = load_ruleset(rules).title if rules in known_rulesets() else str(rules)
        auto = "Autosave: " if path == autosave_path() else ""
        return f"{auto}{title}, {where}, {players} players, turn {turn} - {when}"

    def _loader(self, path: Path) -> Callable[[], None]:
        return lambda: self.load(path)

    def replays(self) -> None:
        files = self._files(replays_dir())
        if not files:
            self.app.notify("No saved replays yet (save one at the end of a game)")
            return
        self.app.push(
            MenuScene(
                self.app, "Watch a replay", [(p.stem, str(p), self._watcher(p)) for p in files]
            )
        )

    def _watcher(self, path: Path) -> Callable[[], None]:
        def go() -> None:
            from suite.wok.screens.replay import ReplayScene

            try:
                replay = Replay.load(path)
                self.app.push(ReplayScene(self.app, replay))
            except (SaveError, ValueError, KeyError) as exc:
                self.app.notify(f"Cannot play that replay: {exc}", 5.0)

        return go

    def leave(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    # -- layout, input, drawing ---------------------------------------------------------------

    def rows(self) -> list[tuple[str, Stepper | None]]:
        out: list[tuple[str, Stepper | None]] = [
            ("Rule set", self.ruleset),
            ("Variant", self.variant),
            ("Map", self.map),
        ]
        if self.map.value == GENERATED:
            out.append(("Provinces", self.provinces))
        out.append(("Players", self.players))
        out.append(("Turn clock", self.clock))
        out.append(("Headhunting", self.headhunting))
        out.append(("Seed", None))
        return out

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        w, h = size
        self.card = pygame.Rect(0, 0, min(px(880), w - 30), h - 30)
        self.card.center = (w // 2, h // 2)
        left = self.card.x + 24
        lead = self.lead = px(120)
        col = min(px(420), self.card.width // 2 - 10)
        y = self.card.y + px(64)
        step = px(ROW) if h >= 700 else 34
        high = px(28)
        for _, stepper in self.rows():
            if stepper is not None:
                stepper.layout(pygame.Rect(left + lead, y, col - lead - 10, high))
            self._last_y = y
            y += step
        small = px(30)
        self.seed_minus.rect = pygame.Rect(left + lead, self._last_y, small, small)
        self.seed_new.rect = pygame.Rect(left + lead + px(126), self._last_y, px(60), small)
        self.seed_plus.rect = pygame.Rect(left + lead + px(192), self._last_y, small, small)
        sx = self.card.x + self.card.width // 2 + 10
        sy = self.card.y + px(64)
        sw = self.card.right - 24 - sx
        seats = max(1, len(self.seat_kinds))
        seat_step = min(step, max(28, (self.card.bottom - px(80) - sy) // seats))
        box = px(NAME_BOX)
        for i, (field, stepper) in enumerate(zip(self.names, self.seat_kinds, strict=True)):
            y = sy + i * seat_step
            tall = min(high, seat_step - 4)
            field.layout(pygame.Rect(sx + px(20), y, box - px(26), tall))
            stepper.layout(pygame.Rect(sx + box, y, sw - box, tall))
        by = self.card.bottom - px(62)
        self._summary_y = self._last_y + px(40)
        room = col - 10
        self._summary_lines = [
            part for text in self.summaries() for part in wrap_text(text, px(13), room) if text
        ]
        top = self._summary_y + px(17) * len(self._summary_lines) + px(6)
        # where the map preview would shrink away, the lines go to the right column
        self._summary_right = by - px(30) - top < px(80)
        if self._summary_right:
            top = self._summary_y
        self.preview_rect = pygame.Rect(left, top, col - 10, max(40, by - px(30) - top))
        if self.preview is not None:
            self.preview.set_rect(self.preview_rect)
        for button, width in (
            (self.start_button, 130),
            (self.host_button, 130),
            (self.resume_button, 110),
            (self.replay_button, 110),
            (self.back_button, 90),
        ):
            button.rect = pygame.Rect(0, by, px(width), px(44))
        self.start_button.rect.topright = (self.card.right - 24, by)
        self.host_button.rect.topright = (self.start_button.rect.x - 10, by)
        self.resume_button.rect.topright = (self.host_button.rect.x - 10, by)
        self.replay_button.rect.topright = (self.resume_button.rect.x - 10, by)
        self.back_button.rect.topleft = (self.card.x + 24, by)

    def widgets(self) -> list[Any]:
        steppers = [s for _, s in self.rows() if s is not None]
        return [
            *self.names,  # first: a click elsewhere ends typing before anything else runs
            *steppers,
            *self.seat_kinds,
            self.seed_minus,
            self.seed_plus,
            self.seed_new,
            self.start_button,
            self.host_button,
            self.resume_button,
            self.replay_button,
            self.back_button,
        ]

    def animating(self) -> bool:
        return False

    def back(self) -> bool:
        """Esc ends typing a name (the app leaves the set-up otherwise)."""
        field = self.typing()
        if field is None:
            return False
        field.stop()
        self.app.request_redraw()
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONUP and self.typing() is not None:
            self.app.request_redraw()  # the caret goes when a click ends typing
        for widget in self.widgets():
            if widget.handle_event(event):
                self.app.request_redraw()
                return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE:
            self.seed //= 10  # typing edits the seed
            self.app.request_redraw()
        elif event.type == pygame.TEXTINPUT and event.text.isdigit():
            self.seed = int(f"{self.seed}{event.text}"[-SEED_DIGITS:])
            self.app.request_redraw()

    def update(self, dt: float) -> None:
        for widget in self.widgets():
            widget.update(dt)

    def notes(self) -> list[str]:
        """The right column's lines under the players: the rule set's and variant's lines
        when the left column has no room for them, then how the variant is won."""
        var = self.variant_rules()
        rules = self.rules()
        notes = [s for s in self.summaries() if s] if self._summary_right else []
        if not var.rips_to_win:
            notes.append("last one standing wins; a unanimous vote ends the game")
        if var.alliances:
            n = rules.end.alliance_min_players
            notes.append(f"{n}+ players: two colours may ally and win together")
        if var.nap_until:
            naps = ", ".join(
                f"{a}-{a} to turn {t}" for a, t in zip("ABC", var.nap_until, strict=False)
            )
            notes.append(f"automatic NAPs: {naps}")
        if var.robots:
            notes.append(f"+ {var.robots} robots (published doctrine, see F1 in the game)")
        if var.colours_per_seat > 1:
            notes.append(f"each player gives orders for {var.colours_per_seat} colours")
        if var.rips_to_win:
            notes.append(f"first to {var.rips_to_win} RIPs wins")
        return notes

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        draw_panel(surface, self.card, border=theme.ACCENT, alpha=245)
        title = (self.card.x + 24, self.card.y + px(18))
        label(surface, "WoK: a new game", title, size=26, bold=True)
        left = self.card.x + 24
        var = self.variant_rules()
        for name, stepper in self.rows():
            y = stepper.rect.y if stepper is not None else 0
            if name == "Seed":
                y = self.seed_minus.rect.y
                label(
                    surface,
                    str(self.seed),
                    (left + self.lead + px(81), y + px(5)),
                    size=16,
                    bold=True,
                    anchor="midtop",
                )
            label(surface, name, (left, y + px(5)), size=15, colour=theme.TEXT_MUTED)
        sx = self.card.x + self.card.width // 2 + 10
        label(surface, "Players", (sx, self.card.y + px(36)), size=15, bold=True)
        for i, stepper in enumerate(self.seat_kinds):
            dot = (sx + px(8), stepper.rect.centery)
            pygame.draw.circle(surface, colour_of(i * var.colours_per_seat), dot, px(7))
        notes = self.notes()
        y = self.seat_kinds[-1].rect.bottom + 10 if self.seat_kinds else self.card.y + 80
        room = self.card.right - sx - 24
        lines = [part for note in notes for part in wrap_text(note, px(13), room)]
        for text in lines:
            if y + px(18) > self.start_button.rect.y - px(4):
                break
            label(surface, text, (sx, y), size=13, colour=theme.TEXT_MUTED, width=room)
            y += px(18)
        if self.message:
            label(
                surface,
                self.message,
                (self.card.x + 24, self.start_button.rect.y - px(26)),
                size=14,
                colour=theme.DANGER,
                width=self.card.width - 48,
            )
        for i, text in enumerate([] if self._summary_right else self._summary_lines):
            y = self._summary_y + i * px(17)
            label(
                surface,
                text,
                (left, y),
                size=13,
                colour=theme.TEXT_MUTED,
                width=self.preview_rect.width,
            )
        self.update_preview()
        if self.preview is not None and self.preview_rect.height >= px(80):
            self.preview.draw(surface)
            label(
                surface,
                self.preview_note,
                (self.preview_rect.x, self.preview_rect.bottom + 4),
                size=12,
                colour=theme.TEXT_MUTED,
                width=self.preview_rect.width,
            )
        elif self.preview_note and self.preview is None:
            label(
                surface,
                self.preview_note,
                self.preview_rect.topleft,
                size=13,
                colour=theme.DANGER,
                width=self.preview_rect.width,
            )
        for widget in self.widgets():
            widget.draw(surface)
        for widget in self.widgets():
            widget.draw_tooltip(surface)
