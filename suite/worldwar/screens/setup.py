"""The set-up screen: who plays (2-6 seats, human or bot, name and colour), on which map,
with which cards, turn clock and defence; an optional seed; start, or resume a save."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from suite.core.board import BoardError
from suite.core.match import ConfigError, parse_config
from suite.core.store import SaveError
from suite.paths import user_data_dir
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.dialogs import MenuScene
from suite.ui.hosting import HostPlan, host_online, seat_bots, seats_line
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import (
    Button,
    Cycler,
    TooltipArea,
    draw_panel,
    draw_text,
    fit_lines,
    fit_text,
)
from suite.worldwar.rules import SPEC
from suite.worldwar.rules.cards import CARD_MODES
from suite.worldwar.rules.data import default_rules
from suite.worldwar.rules.game import board_for
from suite.worldwar.rules.maps import list_maps
from suite.worldwar.screens.artwork import artwork_files
from suite.worldwar.screens.game import SPEEDS, GameScene
from suite.worldwar.screens.gameover import ReplayScene
from suite.worldwar.screens.mapview import MapView, hex_colour
from suite.worldwar.screens.match import (
    Match,
    SeatInfo,
    check_save,
    is_autosave,
    list_replays,
    list_saves,
    load_replay,
    new_autosave_path,
    prune_autosaves,
)

RULES = default_rules()
MAX_SEATS = RULES.setup.max_players
MIN_SEATS = RULES.setup.min_players
FILE_MENU_WIDTH = 520  # fits 800x560 with the menu's margins
MAX_FILES = 8  # saves or replays listed at once (newest first)
KIND_LABELS = [
    ("human", "Human"),
    ("random", "Random bot"),
    ("easy", "Easy bot"),
    ("hard", "Hard bot"),
    ("expert", "Expert bot"),
]
CARD_LABELS = [(name, mode.title) for name, mode in CARD_MODES.items()]
DEFENCE_LABELS = [("auto", "Automatic"), ("ask", "Ask humans")]
DEPLOYMENT_LABELS = [(False, "By hand"), (True, "Automatic")]
MODE_LABELS = [("domination", "Domination"), ("capital", "Capitals"), ("mission", "Secret mission")]
BOT_NAMES = ("Ada", "Bismarck", "Cleo", "Drake", "Eisen", "Foch")
UI_SIZES = [(0.8, "80%"), (1.0, "100%"), (1.25, "125%"), (1.5, "150%"), (2.0, "200%")]
"""The UI-size setting's choices (`Settings.ui_scale`)."""
PREVIEW_MIN = 90  # pixels: smaller windows show no map preview
SMALL_RANDOM = ("random:18:4", "Small random (18 territories, 4 continents)")


T = TypeVar("T")


def _option(caption: str, choices: Sequence[tuple[T, str]], **extra: Any) -> Cycler[T]:
    """One row of the options column (`extra`: the Cycler's tooltip, index, on_change)."""
    return Cycler(caption, pygame.Rect(0, 0, 380, 40), choices, font_size=15, **extra)


def _cards_tip() -> str:
    """What the card modes do, with the numbers of the rules data."""
    inc = RULES.cards.increasing
    first, step = inc.first_value, inc.step
    return (
        f"Increasing: sets worth {first}, {first + step}, {first + 2 * step}... Royalty: "
        "pairs, straights, flushes. Poker: real poker hands."
    )


def _nearest_size(scale: float) -> int:
    """The UI_SIZES choice nearest to the setting `scale`."""
    return min(range(len(UI_SIZES)), key=lambda i: abs(UI_SIZES[i][0] - scale))


def user_maps_dir() -> Path:
    """Where players drop Domination .map files (and .tmx/.json boards)."""
    return user_data_dir() / "maps"


def file_menu(
    app: App,
    title: str,
    files: list[Path],
    on_pick: Callable[[Path], object],
    describe: Callable[[Path], str | None] = lambda path: None,
    explain: Callable[[Path], str | None] = lambda path: None,
) -> MenuScene:
    """A menu of up to MAX_FILES files (what `describe` says of each, else its name, and
    the date; the tooltip is what `explain` says, else the full path) and Cancel; picking
    one runs `on_pick(path)`."""
    actions: list[tuple[str, str, Callable[[], object]]] = []
    for path in files[:MAX_FILES]:
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %H:%M")
        what = describe(path) or path.stem.replace("-", " ")
        stamp = f"   ({when})"
        room = FILE_MENU_WIDTH - 24 - theme.font(15, True).size(stamp)[0]
        label = fit_text(what, 15, room, True) + stamp
        tip = explain(path)
        tip = f"{path}: {tip}" if tip else str(path)
        actions.append((label, tip, functools.partial(on_pick, path)))
    actions.append(("Cancel", "Back to the set-up (Esc)", lambda: None))
    return MenuScene(app, title, actions, width=FILE_MENU_WIDTH, font_size=15)


class SeatRow:
    """One seat of the set-up table: colour swatch, name field, kind, remove."""

    def __init__(self, scene: SetupScene, name: str, colour: int, kind: str) -> None:
        self.scene = scene
        self.name = name
        self.colour = colour
        self.kind = Cycler(
            "",
            pygame.Rect(0, 0, 150, 40),
            KIND_LABELS,
            tooltip="Human, or a bot: random, easy or hard (right click: back)",
            font_size=15,
        )
        self.kind.select(kind)
        self.colour_button = Button(
            "",
            pygame.Rect(0, 0, 40, 40),
            self.next_colour,
            tooltip="Change colour (colour-blind-safe palette)",
        )
        self.remove_button = Button(
            "x",
            pygame.Rect(0, 0, 40, 40),
            lambda: scene.remove_seat(self),
            tooltip=f"Remove this seat (at least {MIN_SEATS} players)",
        )
        self.entry: UITextEntryLine | None = None
        self.name_hint = TooltipArea(pygame.Rect(0, 0, 0, 0), "The player's name (click to edit)")

    @property
    def buttons(self) -> list[Button]:
        return [self.colour_button, self.kind, self.remove_button]

    def next_colour(self) -> None:
        used = {row.colour for row in self.scene.rows if row is not self}
        n = len(theme.PLAYER_COLOURS)
        for k in range(1, n + 1):
            candidate = (self.colour + k) % n
            if candidate not in used:
                self.colour = candidate
                return

    def seat(self) -> SeatInfo:
        text = self.entry.get_text() if self.entry is not None else self.name
        name = " ".join(text.split())[:20] or self.name
        return SeatInfo(name, self.colour, self.kind.value)


class SetupScene(Scene):
    """Configure and start a match, or resume a saved one."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.make_ui()
        self.rows: list[SeatRow] = []
        self.add_seat("human")
        self.add_seat("easy")
        self.maps = [(m.spec, m.title) for m in list_maps(user_maps_dir())]
        self.maps.insert(len(self.maps), SMALL_RANDOM)
        self.map_choice = _option(
            "Map",
            self.maps,
            tooltip="Classic, your Domination .map files (in the maps "
            f"folder: {user_maps_dir()}) or a random map from the seed",
            on_change=lambda _: self._preview_later(),
        )
        self.cards = _option(
            "Cards",
            CARD_LABELS,
            tooltip=_cards_tip(),
        )
        clocks = [(c, "off" if c == 0 else f"{c} s") for c in default_rules().clock.choices]
        self.clock = _option(
            "Turn clock",
            clocks,
            tooltip="Seconds per turn; at zero unplaced armies go to the "
            "borders and the turn passes",
        )
        self.defence = _option(
            "Defender dice",
            DEFENCE_LABELS,
            tooltip="Automatic: defenders always roll the most dice. Ask: "
            f"human defenders choose 1 to {RULES.battle.defender_max_dice}.",
        )
        self.deployment = _option(
            "Deployment",
            DEPLOYMENT_LABELS,
            tooltip="By hand: players place their armies a few at a time. Automatic: "
            "every army is placed at once on the borders when the game starts.",
        )
        self.mode = _option(
            "Victory",
            MODE_LABELS,
            tooltip="Domination: the last player left wins. Capitals: hold every player's "
            "capital. Secret mission: complete your own hidden mission first.",
        )
        self.speed = _option(
            "Bot speed",
            SPEEDS,
            index=1,
            tooltip="How fast bots play (you can change it during the game)",
        )
        self.size_choice = Cycler(
            "Size",
            pygame.Rect(0, 0, 150, 46),
            UI_SIZES,
            index=_nearest_size(app.settings.ui_scale),
            tooltip="Size of the text and panels (grows with the window too); kept in "
            "your settings",
            on_change=self._size_changed,
            font_size=15,
        )
        self.add_button = Button(
            "+ Add player",
            pygame.Rect(0, 0, 180, 40),
            self.add_seat_click,
            tooltip=f"Up to {MAX_SEATS} players",
        )
        self.start_button = Button(
            "Start game",
            pygame.Rect(0, 0, 220, 52),
            self.start_clicked,
            primary=True,
            tooltip="Deal the territories and play (Enter)",
        )
        self.host_button = Button(
            "Host online",
            pygame.Rect(0, 0, 220, 52),
            self.host_online,
            tooltip="Open this match as a room on a server (this computer's or one at an "
            "address): human seats wait for players, bot seats get the server's bots",
        )
        self.resume_button = Button(
            "Resume a game",
            pygame.Rect(0, 0, 220, 52),
            self.resume,
            tooltip="Continue a saved game or the autosave",
        )
        self.replays_button = Button(
            "Replays",
            pygame.Rect(0, 0, 160, 52),
            self.replays,
            tooltip="Watch a finished game again",
        )
        self.back_button = Button(
            "Back", pygame.Rect(0, 0, 140, 52), self.leave, tooltip="Back to the launcher (Esc)"
        )
        self.seed_entry: UITextEntryLine | None = None
        self.seed_hint = TooltipArea(
            pygame.Rect(0, 0, 0, 0), "Same seed, same deal and dice: leave empty for a random one"
        )
        self.preview: MapView | None = None
        self.preview_error = ""
        self.preview_due = True
        self.on_resize(app.size)

    # -- seats -------------------------------------------------------------------------------

    def add_seat(self, kind: str) -> None:
        if len(self.rows) >= MAX_SEATS:
            return
        used = {row.colour for row in self.rows}
        colour = next(c for c in range(len(theme.PLAYER_COLOURS)) if c not in used)
        humans = sum(1 for r in self.rows if r.kind.value == "human")
        if kind == "human":
            name = self.app.settings.name if humans == 0 else f"Player {len(self.rows) + 1}"
        else:
            name = BOT_NAMES[len(self.rows) % len(BOT_NAMES)]
        self.rows.append(SeatRow(self, name, colour, kind))
        if hasattr(self, "start_button"):
            self.on_resize(self.app.size)

    def add_seat_click(self) -> None:
        self.add_seat("easy")

    def remove_seat(self, row: SeatRow) -> None:
        if len(self.rows) <= MIN_SEATS:
            self.app.notify(f"A game needs at least {MIN_SEATS} players")
            return
        self._keep_names()
        self.rows.remove(row)
        self.on_resize(self.app.size)

    def _keep_names(self) -> None:
        for row in self.rows:
            if row.entry is not None:
                row.name = row.seat().name

    @property
    def all_buttons(self) -> list[Button]:
        out: list[Button] = []
        for row in self.rows:
            out.extend(row.buttons)
        out.extend(
            [
                self.map_choice,
                self.cards,
                self.clock,
                self.defence,
                self.deployment,
                self.mode,
                self.speed,
                self.add_button,
                self.start_button,
                self.host_button,
                self.resume_button,
                self.replays_button,
                self.back_button,
                self.size_choice,
            ]
        )
        return out

    # -- layout ------------------------------------------------------------------------------

    def on_resize(self, size: tuple[int, int]) -> None:
        """Lay the two columns and the bottom row out for `size` at the UI factor
        (`scale.ui_factor`: grows with big windows and the UI-size setting)."""
        self._keep_names()
        w, h = size
        k = self.k = ui_factor(size, self.app.settings.ui_scale)
        assert self.ui is not None
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        margin = max(16, w // 40)
        col = (w - 3 * margin) // 2
        compact = h < 700 or w < 1100
        top, bottom = (px(96, k), px(72, k)) if compact else (px(100, k), px(100, k))
        self.left = pygame.Rect(margin, top, col, h - top - bottom)
        self.right = pygame.Rect(2 * margin + col, top, col, h - top - bottom)
        head = px(52, k)
        room = self.left.height - head - px(56, k)  # below the title, above "add player"
        row_h = max(px(34, k), min(px(40, k), room // max(1, len(self.rows)) - 8))
        step = row_h + min(px(12, k), max(4, room // max(1, len(self.rows)) - row_h))
        kind_w = min(px(150, k), col // 4 + 8)
        small = px(15, k)
        y = self.left.y + head
        for row in self.rows:
            row.colour_button.rect = pygame.Rect(self.left.x + 16, y, row_h, row_h)
            entry_x = row.colour_button.rect.right + 10
            entry_w = self.left.right - 16 - row_h - 8 - kind_w - 8 - entry_x
            entry_rect = pygame.Rect(entry_x, y, entry_w, row_h)
            row.entry = UITextEntryLine(entry_rect, self.ui, initial_text=row.name)
            row.entry.set_text_length_limit(20)
            row.name_hint.rect = entry_rect
            row.kind.rect = pygame.Rect(entry_rect.right + 8, y, kind_w, row_h)
            row.kind.font_size = small
            row.remove_button.rect = pygame.Rect(row.kind.rect.right + 8, y, row_h, row_h)
            y += step
        self.add_button.rect.size = (px(180, k), px(40, k))
        self.add_button.font_size = px(18, k)
        self.add_button.rect.topleft = (self.left.x + 16, y + 4)
        self.tips_top = self.add_button.rect.bottom + 14
        x = self.right.x + 16
        y = self.right.y + head
        cycler_h = px(36 if compact else 40, k)
        cyclers = (
            self.map_choice,
            self.cards,
            self.clock,
            self.defence,
            self.deployment,
            self.mode,
            self.speed,
        )
        for cycler in cyclers:
            cycler.rect = pygame.Rect(x, y, col - 32, cycler_h)
            cycler.font_size = small
            y += cycler_h + px(6 if compact else 10, k)
        seed_rect = pygame.Rect(x + px(70, k), y, min(px(200, k), col - 110), cycler_h)
        self.seed_label_pos = (x, y + cycler_h // 2)
        text = self.seed_entry.get_text() if self.seed_entry is not None else ""
        self.seed_entry = UITextEntryLine(
            seed_rect, self.ui, initial_text=text, placeholder_text="random"
        )
        self.seed_entry.set_allowed_characters("numbers")
        self.seed_entry.set_text_length_limit(9)
        self.seed_hint.rect = seed_rect
        self.preview_rect = pygame.Rect(x, seed_rect.bottom + 12, col - 32, 0)
        self.preview_rect.height = self.right.bottom - 14 - self.preview_rect.y
        widths = (84, 100, 104, 130, 140) if compact else (140, 160, 220, 180, 220)
        tall = px(46 if compact else 52, k)
        bottom_row = (
            self.back_button,
            self.replays_button,
            self.resume_button,
            self.host_button,
            self.start_button,
        )
        for button, width in zip(bottom_row, widths, strict=True):
            button.rect.size = (px(width, k), tall)
            button.font_size = px(16 if compact else 18, k)
        self.resume_button.label = "Resume" if compact else "Resume a game"
        self.start_button.rect.bottomright = (w - margin, h - 16)
        self.host_button.rect.bottomright = (self.start_button.rect.left - 12, h - 16)
        self.resume_button.rect.bottomright = (self.host_button.rect.left - 12, h - 16)
        self.replays_button.rect.bottomright = (self.resume_button.rect.left - 12, h - 16)
        self.back_button.rect.bottomleft = (margin, h - 16)
        self.size_choice.rect.size = (px(110 if compact else 150, k), tall)
        self.size_choice.font_size = small
        self.size_choice.rect.bottomleft = (self.back_button.rect.right + 12, h - 16)
        self.preview_due = True

    def _size_changed(self, scale: float) -> None:
        """A new UI size: remembered in the settings, applied to this screen at once."""
        self.app.settings.ui_scale = scale
        self.app.save_settings()
        self.on_resize(self.app.size)

    def _preview_later(self) -> None:
        self.preview_due = True

    def _build_preview(self) -> None:
        self.preview_due = False
        self.preview = None
        self.preview_error = ""
        try:
            config = parse_config(SPEC, {"map": self.map_choice.value})
            board = board_for(config, self._seed() or 0)
        except (BoardError, ConfigError, OSError) as exc:
            self.preview_error = str(exc)
            return
        if self.preview_rect.height < PREVIEW_MIN:
            return
        view = MapView(board, self.preview_rect.inflate(-16, -40).move(0, 12))
        view.badges_only = True  # no names in the small preview
        colours = [hex_colour(board.regions[board[t].region].colour) for t in view.tables.ids]
        view.set_colours(colours)
        self.preview = view

    # -- starting ---------------------------------------------------------------------------

    def _seed(self) -> int | None:
        text = self.seed_entry.get_text().strip() if self.seed_entry is not None else ""
        return int(text) if text.isdigit() else None

    def config(self) -> dict[str, Any]:
        return {
            "players": len(self.rows),
            "map": self.map_choice.value,
            "cards": self.cards.value,
            "clock": self.clock.value,
            "defender": self.defence.value,
            "auto_place": self.deployment.value,
            "mode": self.mode.value,
        }

    def leave(self) -> None:
        self.app.pop()

    def host_plan(self) -> HostPlan:
        """This set-up as a room for a server: the same config a local match is made
        from, its map named (a file of the maps folder is copied to a server started on
        this computer, with its artwork), bot seats as the server's bots."""
        config = self.config()
        files: dict[Path, str] = {}
        spec = self.map_choice.value
        title = self.map_choice.shown
        if isinstance(spec, str) and Path(spec).is_file():
            path = Path(spec)
            config["map"] = path.stem
            files[path] = f"maps/worldwar/{path.name}"
            for art in artwork_files(path) or ():
                if art.is_file():  # a map without its artwork is drawn plain
                    files[art] = f"maps/worldwar/{art.name}"
        kinds = [row.kind.value for row in self.rows]
        summary = (
            seats_line(kinds),
            f"Map: {title}; cards: {self.cards.shown}; turn clock: {self.clock.shown}",
            f"Victory: {self.mode.shown}; defender dice: {self.defence.shown}; "
            f"deployment: {self.deployment.shown}",
            "The server deals (its own seed); a map of yours goes to a server started here.",
        )
        return HostPlan("worldwar", config, seat_bots(kinds), files, summary)

    def host_online(self) -> None:
        host_online(self.app, self.host_plan())

    def start_clicked(self) -> None:
        self.start()

    def start(self) -> GameScene | None:
        """Build the match and open the map (a bad map or config becomes a notice)."""
        seed = self._seed()
        if seed is None:
            seed = secrets.randbelow(10**9)
        seats = [row.seat() for row in self.rows]
        try:
            match = Match(self.config(), seed, seats, autosave=new_autosave_path())
        except (BoardError, ConfigError, OSError) as exc:
            self.app.notify(f"Cannot start: {exc}", 6.0)
            return None
        match.speed = self.speed.index
        match.save_autosave()
        prune_autosaves()
        return self._open(match)

    def _open(self, match: Match) -> GameScene:
        """The map screen for `match`, at the bot speed it was saved with (else the one
        chosen here)."""
        speed = self.speed.index if match.speed is None else match.speed
        scene = GameScene(self.app, match, speed=speed)
        self.app.push(scene)
        return scene

    def resume(self) -> None:
        saves = list_saves()[:MAX_FILES]
        if not saves:
            self.app.notify("No saved games yet (games are autosaved every turn)")
            return
        # Every save is loaded whole before it is listed: one that cannot be resumed says
        # why instead of failing (or crashing) once picked.
        checked = {path: check_save(path) for path in saves}
        saves.sort(key=lambda p: checked[p][1] is not None)  # usable ones first (stable)
        self.app.push(
            file_menu(
                self.app,
                "Resume a game",
                saves,
                self.load,
                lambda p: checked[p][0],
                lambda p: checked[p][1],
            )
        )

    def replays(self) -> None:
        files = list_replays()
        if not files:
            self.app.notify("No replays yet: every finished game saves one")
            return
        self.app.push(file_menu(self.app, "Watch a replay", files, self.watch))

    def watch(self, path: Path) -> ReplayScene | None:
        try:
            replay, seats = load_replay(path)
            scene = ReplayScene(self.app, replay, seats)
        except (SaveError, BoardError, ConfigError, OSError) as exc:
            self.app.notify(f"Cannot play the replay: {exc}", 6.0)
            return None
        self.app.push(scene)
        return scene

    def load(self, path: Path) -> GameScene | None:
        """Resume the save at `path`; an autosave goes on in its own file, another save
        gets a new autosave."""
        try:
            match = Match.load(path, autosave=path if is_autosave(path) else new_autosave_path())
        except (SaveError, BoardError, ConfigError, OSError) as exc:
            self.app.notify(f"Cannot resume: {exc}", 6.0)
            return None
        if match.over:
            self.app.notify("That game is already over")
            return None
        return self._open(match)

    # -- input and drawing -------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        typing = any(r.entry is not None and r.entry.is_focused for r in self.rows)
        if (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
            and not typing
        ):
            self.start()
            return
        if (
            event.type in (pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_TEXT_ENTRY_CHANGED)
            and event.ui_element is self.seed_entry
        ):
            self.preview_due = True
        for row in self.rows:
            row.name_hint.handle_event(event)
        self.seed_hint.handle_event(event)
        for button in self.all_buttons:
            if button.handle_event(event):
                return

    def animating(self) -> bool:
        """Nothing moves on the set-up screen but a map preview waiting to be built."""
        return self.preview_due

    def update(self, dt: float) -> None:
        for button in self.all_buttons:
            button.update(dt)
        for row in self.rows:
            row.name_hint.update(dt)
            row.remove_button.enabled = len(self.rows) > MIN_SEATS
        self.add_button.enabled = len(self.rows) < MAX_SEATS
        self.seed_hint.update(dt)
        if self.preview_due:
            self._build_preview()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        w = surface.get_width()
        k = self.k
        draw_text(
            surface, "World War", (w // 2, px(22, k)), size=px(36, k), bold=True, anchor="midtop"
        )
        draw_text(
            surface,
            "Set up a new game",
            (w // 2, px(68, k)),
            size=px(16, k),
            colour=theme.TEXT_MUTED,
            anchor="midtop",
        )
        draw_panel(surface, self.left, radius=12)
        draw_panel(surface, self.right, radius=12)
        draw_text(
            surface,
            f"Players ({len(self.rows)})",
            (self.left.x + 16, self.left.y + px(16, k)),
            size=px(20, k),
            bold=True,
        )
        draw_text(
            surface,
            "Rules",
            (self.right.x + 16, self.right.y + px(16, k)),
            size=px(20, k),
            bold=True,
        )
        for row in self.rows:
            rgb = theme.PLAYER_COLOURS[row.colour].rgb
            r = row.colour_button.rect
            hot = row.colour_button.hover.inside
            pygame.draw.rect(
                surface,
                theme.HOVER if hot else theme.PANEL_BORDER,
                r.inflate(4, 4),
                2,
                border_radius=10,
            )
            pygame.draw.rect(surface, rgb, r, border_radius=8)
        swatches = {id(row.colour_button) for row in self.rows}
        for button in self.all_buttons:
            if id(button) not in swatches:
                button.draw(surface)
        draw_text(surface, "Seed", self.seed_label_pos, size=px(16, k), anchor="midleft")
        tips = (
            "Click a colour to change it; click a kind to cycle (right click: back).",
            "Several humans play hot-seat: a 'pass to' screen hides each hand.",
            f"Domination .map files go in {user_maps_dir()}",
        )
        size, step = px(14, k), px(20, k)
        for most in (3, 2):  # three lines a tip (a long maps folder) where there is room
            lines = [line for t in tips for line in fit_lines(t, size, self.left.width - 32, most)]
            y = self.left.bottom - step * len(lines) - 12
            if y >= self.tips_top:
                break
        for line in lines if y >= self.tips_top else ():
            draw_text(surface, line, (self.left.x + 16, y), size=size, colour=theme.TEXT_MUTED)
            y += step
        if self.preview_rect.height >= PREVIEW_MIN:
            draw_panel(surface, self.preview_rect, colour=(14, 19, 30), radius=12)
        if self.preview_rect.height < PREVIEW_MIN:
            pass  # no room for a preview in a small window
        elif self.preview is not None:
            draw_text(
                surface,
                f"{len(self.preview.tables.ids)} territories, "
                f"{len(self.preview.tables.continents)} continents"
                + (
                    "  (an example: the shape comes from the seed)"
                    if self.map_choice.value.startswith("random") and self._seed() is None
                    else ""
                ),
                (self.preview_rect.x + 12, self.preview_rect.y + 8),
                size=13,
                colour=theme.TEXT_MUTED,
            )
            self.preview.draw(surface, [], [], badges=False)
        elif self.preview_error:
            draw_text(
                surface,
                self.preview_error[:80],
                self.preview_rect.center,
                size=13,
                colour=theme.DANGER,
                anchor="center",
            )
        self.draw_tooltips(surface)

    def draw_tooltips(self, surface: pygame.Surface) -> None:
        for button in self.all_buttons:
            button.draw_tooltip(surface)
        for row in self.rows:
            row.name_hint.draw_tooltip(surface)
        self.seed_hint.draw_tooltip(surface)
