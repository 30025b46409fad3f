"""The Book of Tactics before a battle: the set-up screen.

Pick the map (a mini-map with the four starts; greyed when the host lacks its
requirement), the pieces per turn (1-4 or all rested, from the rules data), add up to
three bots (each with a level) or hot-seat humans, and launch. The views at the bottom
switch between the map, the army (the 3x3 formation; right-click a slot for the piece
menu; remembered per pack in the profile) and the stats (own totals, others' records
against you, ratings, war points, the guilds at open war). The pack is the shipped one or
a folder chosen with "Pack"; its validator's problems are shown in a panel.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from pathlib import Path

import pygame
from pygame_gui.elements import UITextEntryLine

from suite.core.session import LocalSession
from suite.core.store import SaveError
from suite.tactics.assets.model import Pack, Piece
from suite.tactics.render import PackArt
from suite.tactics.rules.data import load_rules
from suite.tactics.rules.packs import PackError, playable_maps, playable_pieces
from suite.tactics.rules.requirements import Profile, satisfied
from suite.tactics.screens.art import load_map_pack
from suite.tactics.screens.book import (
    ArmyGrid,
    MiniMap,
    PieceMenu,
    PlayerLine,
    StatsRow,
    draw_players,
    draw_stats,
    formation_side,
    menu_entries,
    short_form,
)
from suite.tactics.screens.drivers import LiveDriver, ReplayDriver
from suite.tactics.screens.game import SPEEDS, BattleScene
from suite.tactics.screens.gameover import GameOverScene
from suite.tactics.screens.match import (
    SeatInfo,
    battle_config,
    bot_levels,
    list_replays,
    load_replay,
    max_players,
    resume_battle,
    save_battle,
    seat_profiles,
    start_battle,
    trimmed,
)
from suite.tactics.screens.packs import PackScene
from suite.tactics.screens.profile import autosave_path, load_profile, save_profile
from suite.tactics.screens.ratings import Records
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.dialogs import MenuScene
from suite.ui.hosting import HostPlan, host_online, seat_bots, seats_line
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import Button, draw_panel, draw_text, fit_text

VIEWS = ("map", "army", "stats")
BOT_NAMES = ("Bot Ada", "Bot Brutus", "Bot Cyra")


def default_formation(pieces: dict[int, Piece], profile: Profile, size: int) -> list[int]:
    """A first army: the allowed kinds in turn, each within its max#, row by row."""
    counts: dict[int, int] = {}
    army: list[int] = []
    kinds = [pid for pid, p in pieces.items() if satisfied(p.requirements, profile)]
    while kinds and len(army) < size:
        for pid in list(kinds):
            if len(army) >= size:
                break
            if counts.get(pid, 0) >= pieces[pid].max_count:
                kinds.remove(pid)
                continue
            counts[pid] = counts.get(pid, 0) + 1
            army.append(pid)
    slots = formation_side() ** 2
    return army + [0] * (slots - len(army))


class SetupScene(Scene):
    """The Book of Tactics in its set-up form (see the module docstring)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.k = 1.0  # the UI factor (`suite.ui.scale`), set by on_resize
        self._button_base: dict[int, tuple[int, int, int]] = {}
        self.make_ui()
        self.rules = load_rules()
        self.profile, problem = load_profile()
        if problem:
            app.toasts.add(problem, 6.0)
        self.records = Records()
        self.name = app.settings.name
        self.view_name = "map"
        self.seats: list[SeatInfo] = [SeatInfo(self.name)]
        self.map_index = 0
        choices = list(self.rules.turn.pieces_per_turn_choices)
        self.ppt_choices = choices
        default = self.rules.turn.default_pieces_per_turn
        self.ppt_index = choices.index(default) if default in choices else 0
        self.army_size = self.rules.army.max_pieces
        self.pack: Pack = load_map_pack(None)
        self.art = PackArt(self.pack)
        self.minimap = MiniMap(self.art)
        self.army = ArmyGrid(self.art, self.pack, self.open_piece_menu)
        self.formation: list[int] = []
        self.pieces: dict[int, Piece] = playable_pieces(self.pack)
        self.load_pack(self.profile.pack, quiet=True)
        self._restore()
        self.tabs = [
            Button(
                v.title(),
                pygame.Rect(0, 0, 92, 34),
                functools.partial(self.set_view, v),
                font_size=15,
                tooltip=f"The {v} view",
            )
            for v in VIEWS
        ]
        self.prev_map = Button(
            "<", pygame.Rect(0, 0, 40, 34), lambda: self.step_map(-1), tooltip="Previous map"
        )
        self.next_map = Button(
            ">", pygame.Rect(0, 0, 40, 34), lambda: self.step_map(1), tooltip="Next map"
        )
        self.ppt_button = Button(
            "",
            pygame.Rect(0, 0, 250, 36),
            self.step_ppt,
            font_size=15,
            tooltip="Pieces a player moves per turn: 1-4, or every rested piece",
        )
        self.size_button = Button(
            "",
            pygame.Rect(0, 0, 250, 36),
            self.step_size,
            font_size=15,
            tooltip="Pieces in every army (the host's choice; yours keeps its first ones)",
        )
        self.speed_button = Button(
            "",
            pygame.Rect(0, 0, 250, 36),
            self.step_speed,
            font_size=15,
            tooltip="How fast bots play (and whether their moves animate)",
        )
        self.locked_button = Button(
            "",
            pygame.Rect(0, 0, 250, 36),
            self.toggle_locked,
            font_size=15,
            tooltip="Whether bots may field pieces that need a level or tokens (as yours do)",
        )
        self.confirm_button = Button(
            "",
            pygame.Rect(0, 0, 250, 36),
            self.toggle_confirm,
            font_size=15,
            tooltip="Ask before End Turn ends it",
        )
        self.add_bot_button = Button(
            "Add bot",
            pygame.Rect(0, 0, 122, 36),
            self.add_bot,
            font_size=15,
            tooltip="Add a computer army (up to three)",
        )
        self.add_human_button = Button(
            "Add human",
            pygame.Rect(0, 0, 122, 36),
            self.add_human,
            font_size=15,
            tooltip="Another person at this machine (hot-seat)",
        )
        self.launch_button = Button(
            "Launch battle",
            pygame.Rect(0, 0, 250, 48),
            self.launch,
            primary=True,
            tooltip="Start the battle (Enter)",
        )
        self.host_button = Button(
            "Host online",
            pygame.Rect(0, 0, 250, 48),
            self.host_online,
            tooltip="Open this battle as a room on a server (this computer's or one at an "
            "address): human seats wait for players, bot seats get the server's bots",
        )
        self.pack_button = Button(
            "Pack",
            pygame.Rect(0, 0, 96, 34),
            self.open_pack,
            font_size=15,
            tooltip="Play another pack folder and see its problems",
        )
        self.replays_button = Button(
            "Replays",
            pygame.Rect(0, 0, 96, 34),
            self.open_replays,
            font_size=15,
            tooltip="Watch a finished battle again",
        )
        self.resume_button = Button(
            "Resume",
            pygame.Rect(0, 0, 96, 34),
            self.resume,
            font_size=15,
            tooltip="Continue the battle you left",
        )
        self.back_button = Button(
            "Back",
            pygame.Rect(0, 0, 86, 34),
            self.close,
            font_size=15,
            tooltip="Back to the launcher (Esc)",
        )
        self.seat_buttons: list[tuple[Button, Button]] = []
        self.guild_entry: UITextEntryLine | None = None
        self.war_entry: UITextEntryLine | None = None
        self.guild_button = Button(
            "Set guild",
            pygame.Rect(0, 0, 110, 32),
            self.set_guild,
            font_size=14,
            tooltip="Wear this guild's uniform in your battles",
        )
        self.guild_seat = 0  # the person at this machine whose guild the field sets
        self.guild_who = Button(
            "",
            pygame.Rect(0, 0, 110, 32),
            self.next_guild_seat,
            font_size=14,
            tooltip="Whose guild to set: each person at this machine has their own (click: next)",
        )
        self.war_button = Button(
            "Open war",
            pygame.Rect(0, 0, 110, 32),
            self.open_war,
            font_size=14,
            tooltip="Declare open war between your guild and this one (T11 war points)",
        )
        self.layout_rects: dict[str, pygame.Rect] = {}
        self._stats: tuple[list[StatsRow], list[str]] | None = None
        self._seat_rows()  # the seats kept from the last visit
        self.on_resize(app.size)

    def close(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    # -- pack and choices --------------------------------------------------------------------
    @property
    def pack_key(self) -> str:
        return self.profile.pack

    def load_pack(self, folder: str, *, quiet: bool = False) -> bool:
        """Use the pack in `folder` ("" = shipped); False (and a notice) when unusable."""
        try:
            pack = load_map_pack(folder or None)
        except (PackError, OSError, ValueError) as exc:
            if not quiet or folder:
                self.app.notify(f"Pack not usable: {exc}")
            if folder:
                self.profile.pack = ""
                return self.load_pack("", quiet=True)
            return False
        if not playable_maps(pack, 2):
            self.app.notify(f"{folder or 'The shipped pack'} has no map for two armies")
            if folder:
                self.profile.pack = ""
                self.load_pack("", quiet=True)
            return False
        self.pack = pack
        self.profile.pack = folder
        self.art = PackArt(pack)
        self.minimap = MiniMap(self.art)
        self.army = ArmyGrid(self.art, pack, self.open_piece_menu)
        self.pieces = playable_pieces(pack)
        saved = self.profile.armies.get(folder)
        if saved and all(p == 0 or p in self.pieces for p in saved):
            slots = formation_side() ** 2
            self.formation = (list(saved) + [0] * slots)[:slots]
        else:
            self.formation = default_formation(
                self.pieces, self.host_profile(), self.rules.army.max_pieces
            )
        self.map_index = 0
        self._stats = None
        return True

    def host_profile(self) -> Profile:
        return self.records.profile(self.name)

    @property
    def maps(self) -> list[int]:
        return playable_maps(self.pack, len(self.seats))

    @property
    def map_id(self) -> int | None:
        maps = self.maps
        return maps[self.map_index % len(maps)] if maps else None

    def map_blocked(self) -> str | None:
        """Why the host may not host the chosen map (T12), or None."""
        map_id = self.map_id
        if map_id is None:
            return f"no map has starts for {len(self.seats)} armies"
        info = self.pack.maps.get(map_id)
        if info and info.requirements and not satisfied(info.requirements, self.host_profile()):
            return f"hosting {info.name} needs {info.requirements}"
        return None

    def step_map(self, by: int) -> None:
        if self.maps:
            self.map_index = (self.map_index + by) % len(self.maps)

    def step_ppt(self) -> None:
        self.ppt_index = (self.ppt_index + 1) % len(self.ppt_choices)

    def step_size(self) -> None:
        """The host's army size: 1 up to the rules' limit (T8), then round again."""
        self.army_size = self.army_size % self.rules.army.max_pieces + 1

    def step_speed(self) -> None:
        self.profile.bot_speed = (self.profile.bot_speed + 1) % len(SPEEDS)

    def toggle_locked(self) -> None:
        self.profile.bots_use_locked = not self.profile.bots_use_locked

    def toggle_confirm(self) -> None:
        self.profile.confirm_end_turn = not self.profile.confirm_end_turn

    def set_view(self, name: str) -> None:
        self.view_name = name
        self._stats = None
        self._layout_entries()

    # -- players -----------------------------------------------------------------------------
    def add_bot(self) -> None:
        if len(self.seats) >= max_players():
            return
        used = {s.name for s in self.seats}
        name = next(n for n in BOT_NAMES if n not in used)
        self.seats.append(SeatInfo(name, "normal"))
        self._seat_rows()

    def add_human(self) -> None:
        if len(self.seats) >= max_players():
            return
        used = {s.name for s in self.seats}
        name = next(f"Player {i}" for i in range(2, 6) if f"Player {i}" not in used)
        self.seats.append(SeatInfo(name, "human"))
        self._seat_rows()

    def remove_seat(self, index: int) -> None:
        if 0 < index < len(self.seats):
            del self.seats[index]
            self._seat_rows()

    def cycle_level(self, index: int) -> None:
        seat = self.seats[index]
        if seat.human:
            return
        levels = bot_levels()
        level = levels[(levels.index(seat.kind) + 1) % len(levels)]
        self.seats[index] = SeatInfo(seat.name, level)
        self._seat_rows()

    def _seat_rows(self) -> None:
        self.seat_buttons = []
        for i, seat in enumerate(self.seats[1:], start=1):
            level = Button(
                seat.kind.title() if not seat.human else "Human",
                pygame.Rect(0, 0, 86, 30),
                functools.partial(self.cycle_level, i),
                font_size=13,
                tooltip=f"Bot level: {', '.join(bot_levels())}, weakest first (click: next)"
                if not seat.human
                else "A person at this machine",
            )
            remove = Button(
                "x",
                pygame.Rect(0, 0, 30, 30),
                functools.partial(self.remove_seat, i),
                font_size=14,
                tooltip="Remove this player",
            )
            self.seat_buttons.append((level, remove))
        self._stats = None
        self.on_resize(self.app.size)

    # -- army --------------------------------------------------------------------------------
    def open_piece_menu(self, slot: int) -> None:
        entries = menu_entries(self.pieces, self.formation, slot, self.host_profile())
        at = self.army.slots[slot].topright
        self.app.push(PieceMenu(self.app, at, entries, functools.partial(self.set_slot, slot)))

    def set_slot(self, slot: int, pid: int) -> None:
        self.formation[slot] = pid
        self.profile.armies[self.pack_key] = list(self.formation)
        self._save_profile()

    def _restore(self) -> None:
        """The seats, map, pieces per turn and army size the Book had when last left."""
        saved = self.profile
        levels = bot_levels()
        for name, kind in (s for s in saved.seats if len(s) == 2):
            if len(self.seats) < max_players() and (kind == "human" or kind in levels):
                self.seats.append(SeatInfo(name, kind))
        if saved.pieces_per_turn in self.ppt_choices:
            self.ppt_index = self.ppt_choices.index(saved.pieces_per_turn)
        if 1 <= saved.army_size <= self.rules.army.max_pieces:
            self.army_size = saved.army_size
        if saved.map_id in self.maps:
            self.map_index = self.maps.index(saved.map_id)

    def _remember(self) -> None:
        saved = self.profile
        saved.seats = [[seat.name, seat.kind] for seat in self.seats[1:]]
        saved.map_id = self.map_id or 0
        saved.pieces_per_turn = self.ppt_choices[self.ppt_index]
        saved.army_size = self.army_size

    def on_exit(self) -> None:
        self._remember()
        self._save_profile()

    def _save_profile(self) -> None:
        self._remember()
        problem = save_profile(self.profile)
        if problem:
            self.app.toasts.add(problem, 4.0)

    # -- stats -------------------------------------------------------------------------------
    def stats(self) -> tuple[list[StatsRow], list[str]]:
        if self._stats is None:
            self._stats = self.records.table(self.name, [(s.name, s.human) for s in self.seats])
        return self._stats

    def guild_person(self) -> str:
        """The name whose guild the guild field sets (a person seated at this machine)."""
        people = [seat.name for seat in self.seats if seat.human]
        return people[self.guild_seat % len(people)] if people else self.name

    def next_guild_seat(self) -> None:
        self.guild_seat = (self.guild_seat + 1) % max(1, sum(s.human for s in self.seats))
        if self.guild_entry is not None:
            self.guild_entry.set_text("")

    def set_guild(self) -> None:
        if self.guild_entry is None:
            return
        guild = self.guild_entry.get_text().strip()
        person = self.guild_person()
        if person == self.name:
            self.profile.guild = guild
            self._save_profile()
        message = self.records.set_guild(person, guild)
        if person != self.name and not message.startswith("Could not"):
            message = f"{person} wears the uniform of {guild}" if guild else f"{person}: no guild"
        self.app.notify(message)
        self._stats = None

    def open_war(self) -> None:
        if self.war_entry is None:
            return
        message = self.records.open_war(self.profile.guild, self.war_entry.get_text().strip())
        self.app.notify(message)
        self._stats = None

    # -- launching ---------------------------------------------------------------------------
    def launch(self) -> None:
        blocked = self.map_blocked()
        map_id = self.map_id
        if blocked or map_id is None:
            self.app.notify(f"Cannot launch: {blocked}")
            return
        mine = trimmed(self.formation, self.army_size)
        if not any(mine):
            self.app.notify("Cannot launch: your army is empty (Army view: right-click a slot)")
            return
        seats = [SeatInfo(self.seats[0].name, "human", mine), *self.seats[1:]]
        profiles = seat_profiles(seats, self.records.profile, self.profile.bots_use_locked)
        config = battle_config(
            seats,
            pack=self.profile.pack or None,
            map_id=map_id,
            pieces_per_turn=self.ppt_choices[self.ppt_index],
            army_size=None if self.army_size == self.rules.army.max_pieces else self.army_size,
            profiles=profiles,
        )
        self._save_profile()
        try:
            session = start_battle(config, seats, secrets.randbelow(2**31))
        except (ValueError, PackError) as exc:
            self.app.notify(f"Cannot launch: {exc}")
            return
        self._play(session, seats)

    def host_plan(self) -> HostPlan | None:
        """This set-up as a room for a server (None and a notice when it cannot be
        launched): the battle config a local launch makes, with the pack named by its
        folder (copied to a server started on this computer), the host's army at seat 1,
        random armies for the seats players take, bot seats as the server's bots."""
        blocked = self.map_blocked()
        if len(self.seats) < 2:
            blocked = "a battle needs a second army: add a bot, or a human seat for a player"
        mine = trimmed(self.formation, self.army_size)
        if blocked or self.map_id is None or not any(mine):
            self.app.notify(f"Cannot host: {blocked or 'your army is empty'}")
            return None
        seats = [SeatInfo(self.seats[0].name, "human", mine), *self.seats[1:]]
        profiles = seat_profiles(seats, self.records.profile, self.profile.bots_use_locked)
        files: dict[Path, str] = {}
        pack_name = None
        if self.profile.pack:
            folder = Path(self.profile.pack)
            pack_name = folder.name
            files[folder] = f"packs/{folder.name}"
        config = battle_config(
            seats,
            pack=pack_name,
            map_id=self.map_id,
            pieces_per_turn=self.ppt_choices[self.ppt_index],
            army_size=None if self.army_size == self.rules.army.max_pieces else self.army_size,
            profiles=[
                p if i == 0 or not s.human else None
                for i, (s, p) in enumerate(zip(seats, profiles, strict=True))
            ],
        )
        kinds = [seat.kind for seat in seats]
        ppt = self.ppt_choices[self.ppt_index]
        info = self.pack.maps.get(self.map_id)
        summary = (
            seats_line(kinds),
            f"Map: {info.name if info else self.map_id}; pieces per turn: "
            f"{ppt if ppt else 'all rested'}; army size: {self.army_size}",
            f"Pack: {pack_name or 'the shipped pack'} (players download it when theirs differs)",
            "Your army is the one in the Army view; players joining bring a random army.",
        )
        return HostPlan("tactics", config, seat_bots(kinds), files, summary)

    def host_online(self) -> None:
        plan = self.host_plan()
        if plan is not None:
            host_online(self.app, plan)

    def _play(self, session: LocalSession, seats: list[SeatInfo]) -> None:
        def autosave() -> None:
            save_battle(session.replay, seats, autosave_path())

        battle = BattleScene(
            self.app,
            LiveDriver(session),
            seats,
            self.profile,
            on_over=self._battle_over,
            stats=self.stats,
            autosave=autosave,
        )
        self.app.push(battle)

    def resume(self) -> None:
        """Continue the autosaved battle (replayed to where it was left)."""
        try:
            session, seats = resume_battle(autosave_path())
            self._play(session, seats)
        except (SaveError, ValueError, KeyError) as exc:
            self.app.notify(f"Cannot resume: {exc}")

    def _battle_over(self, battle: BattleScene) -> None:
        autosave_path().unlink(missing_ok=True)
        self._save_profile()
        self._stats = None
        self.app.replace(GameOverScene(self.app, battle, self.records, on_watch=self.watch))

    def open_pack(self) -> None:
        self.app.push(PackScene(self.app, self.pack, self.profile.pack, self._pack_chosen))

    def _pack_chosen(self, folder: str) -> bool:
        ok = self.load_pack(folder)
        if ok:
            self._save_profile()
            self.app.notify(f"Playing {folder if folder else 'the shipped pack'}")
        return ok

    def open_replays(self) -> None:
        files = list_replays()[:8]
        if not files:
            self.app.notify("No replays yet: finish a battle first")
            return
        entries: list[tuple[str, str, Callable[[], object]]] = [
            (path.stem.replace("-", " "), str(path), functools.partial(self.watch, path))
            for path in files
        ]
        entries.append(("Cancel", "Back to the book (Esc)", lambda: None))
        self.app.push(MenuScene(self.app, "Watch a replay", entries))

    def watch(self, path: Path) -> None:
        try:
            replay, seats = load_replay(path)
            driver = ReplayDriver(replay)
            battle = BattleScene(self.app, driver, seats, self.profile, on_over=self._replay_over)
        except (SaveError, ValueError, KeyError, PackError) as exc:
            self.app.notify(f"Cannot play that replay: {exc}")
            return
        self.app.push(battle)

    def _replay_over(self, battle: BattleScene) -> None:
        self.app.replace(GameOverScene(self.app, battle, None, on_watch=self.watch))

    # -- events, layout, drawing -------------------------------------------------------------
    @property
    def buttons(self) -> list[Button]:
        out = [
            *self.tabs,
            self.ppt_button,
            self.size_button,
            self.speed_button,
            self.locked_button,
            self.confirm_button,
            self.add_bot_button,
            self.add_human_button,
            self.launch_button,
            self.host_button,
            self.pack_button,
            self.replays_button,
            self.resume_button,
            self.back_button,
        ]
        if self.view_name == "map":
            out += [self.prev_map, self.next_map]
        if self.view_name == "stats":
            out += [self.guild_button, self.war_button]
            if sum(seat.human for seat in self.seats) > 1:  # hot-seat: whose guild
                out.append(self.guild_who)
        for level, remove in self.seat_buttons:
            out += [level, remove]
        return out

    def on_enter(self) -> None:
        self._stats = None

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.launch()
            return
        for button in self.buttons:
            if button.handle_event(event):
                return
        if self.view_name == "army" and self.army.handle_event(event):
            return

    def animating(self) -> bool:
        """Nothing here moves by itself: drawn after input only (the app keeps drawing a
        moment after each input for hover and tooltips)."""
        return False

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)
        self.resume_button.enabled = autosave_path().exists()
        full = len(self.seats) >= max_players()
        self.add_bot_button.enabled = not full
        self.add_human_button.enabled = not full
        blocked = self.map_blocked()
        self.launch_button.enabled = self.host_button.enabled = blocked is None
        self.launch_button.tooltip = (
            f"Cannot launch: {blocked}" if blocked else "Start the battle (Enter)"
        )
        ppt = self.ppt_choices[self.ppt_index]
        self.ppt_button.label = f"Pieces per turn: {ppt if ppt else 'all rested'}"
        self.size_button.label = f"Army size: {self.army_size}"
        self.guild_who.label = f"Guild of: {self.guild_person()}  (click: next person)"
        self.speed_button.label = f"Bots: {SPEEDS[self.profile.bot_speed % len(SPEEDS)][1]}"
        self.locked_button.label = "Bot pieces: " + (
            "any" if self.profile.bots_use_locked else "free"
        )
        self.confirm_button.label = (
            f"Confirm End Turn: {'on' if self.profile.confirm_end_turn else 'off'}"
        )

    def _scale_buttons(self, k: float) -> None:
        """Every button at its designed size and font times `k`."""
        for button in {
            id(b): b for b in (*self.buttons, self.guild_button, self.war_button, self.guild_who)
        }.values():
            w, h, font = self._button_base.setdefault(
                id(button), (button.rect.width, button.rect.height, button.font_size)
            )
            button.rect.size = (px(w, k), px(h, k))
            button.font_size = px(font, k)

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        k = self.k = ui_factor(size)
        self._scale_buttons(k)
        head = px(64, k)
        left = pygame.Rect(16, head, round(w * 0.56) - 24, h - head - 16)
        right = pygame.Rect(left.right + 16, head, w - left.right - 32, h - head - 16)
        self.layout_rects = {"left": left, "right": right}
        self.back_button.rect.topright = (w - 16, px(14, k))
        self.replays_button.rect.topright = (self.back_button.rect.x - 8, px(14, k))
        self.resume_button.rect.topright = (self.replays_button.rect.x - 8, px(14, k))
        self.pack_button.rect.topright = (self.resume_button.rect.x - 8, px(14, k))
        for i, tab in enumerate(self.tabs):
            tab.rect.bottomleft = (left.x + 14 + i * px(100, k), left.bottom - 12)
        body = self.body_rect()
        self.prev_map.rect.bottomleft = (body.x, body.bottom)
        self.next_map.rect.bottomright = (body.right, body.bottom)
        x, y = right.x + 14, right.y + 14
        bw = right.width - 28
        for button in (self.ppt_button, self.size_button, self.speed_button, self.confirm_button):
            button.rect = pygame.Rect(x, y, bw, px(34, k))
            y += px(40, k)
        half = (bw - 8) // 2  # bot speed and bot pieces share a row
        self.speed_button.rect.width = half
        self.locked_button.rect = self.speed_button.rect.move(half + 8, 0)
        row = px(48, k)
        self.layout_rects["players"] = pygame.Rect(x, y + 8, bw, 4 * row)
        for i, (level, remove) in enumerate(self.seat_buttons, start=1):
            row_y = y + 8 + i * row
            remove.rect = pygame.Rect(x + bw - px(30, k), row_y + px(6, k), px(28, k), px(28, k))
            level.rect = pygame.Rect(
                remove.rect.x - px(92, k), row_y + px(6, k), px(86, k), px(28, k)
            )
            level.font_size, remove.font_size = px(13, k), px(14, k)
        y += 8 + 4 * row + 6
        half = (bw - 8) // 2
        self.add_bot_button.rect = pygame.Rect(x, y, half, px(34, k))
        self.add_human_button.rect = pygame.Rect(x + half + 8, y, half, px(34, k))
        launch_w = (bw - 8) * 3 // 5
        self.launch_button.rect = pygame.Rect(x, right.bottom - px(62, k), launch_w, px(48, k))
        self.host_button.rect = pygame.Rect(
            x + launch_w + 8, right.bottom - px(62, k), bw - launch_w - 8, px(48, k)
        )
        self._layout_entries()

    def body_rect(self) -> pygame.Rect:
        left = self.layout_rects.get("left", pygame.Rect(0, 0, 400, 400))
        return pygame.Rect(
            left.x + 14, left.y + 14, left.width - 28, left.height - 28 - px(48, self.k)
        )

    def _layout_entries(self) -> None:
        if self.ui is None:
            return
        body = self.body_rect()
        k = self.k
        line, gap = px(32, k), px(40, k)
        if self.view_name != "stats":
            for entry in (self.guild_entry, self.war_entry):
                if entry is not None:
                    entry.hide()  # type: ignore[no-untyped-call]
            return
        y = body.bottom - px(34, k)
        entry_w = max(120, body.width - px(130, k))
        if self.guild_entry is None:
            self.guild_entry = UITextEntryLine(
                pygame.Rect(body.x, y - gap, entry_w, line),
                self.ui,
                initial_text=self.profile.guild,
                placeholder_text="your guild",
            )
            self.guild_entry.set_text_length_limit(24)
            self.war_entry = UITextEntryLine(
                pygame.Rect(body.x, y, entry_w, line),
                self.ui,
                placeholder_text="guild at war with yours",
            )
            if self.war_entry is not None:
                self.war_entry.set_text_length_limit(24)
        else:
            self.guild_entry.set_relative_position((body.x, y - gap))
            self.guild_entry.set_dimensions((entry_w, line))
            self.guild_entry.show()  # type: ignore[no-untyped-call]
            if self.war_entry is not None:
                self.war_entry.set_relative_position((body.x, y))
                self.war_entry.set_dimensions((entry_w, line))
                self.war_entry.show()  # type: ignore[no-untyped-call]
        self.guild_button.rect = pygame.Rect(
            body.x + entry_w + 8, y - gap, body.right - body.x - entry_w - 8, line
        )
        self.war_button.rect = pygame.Rect(
            body.x + entry_w + 8, y, body.right - body.x - entry_w - 8, line
        )
        self.guild_who.rect = pygame.Rect(body.x, y - 2 * gap, body.width, line)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        k = self.k
        draw_text(surface, "Book of Tactics", (20, px(4, k)), size=px(26, k), bold=True)
        problems = len(self.pack.problems)
        version = "?" if self.pack.version is None else f"{self.pack.version:g}"
        where = self.profile.pack or "shipped pack"
        plural = "s" if problems != 1 else ""
        pack_line = f"{where}  v{version}  \u2022  {problems} problem{plural} (Pack: details)"
        draw_text(
            surface,
            fit_text(pack_line, px(13, k), self.pack_button.rect.x - 30, False),
            (22, px(40, k)),
            size=px(13, k),
            colour=theme.TEXT_MUTED,
        )
        left, right = self.layout_rects["left"], self.layout_rects["right"]
        draw_panel(surface, left)
        draw_panel(surface, right)
        body = self.body_rect()
        if self.view_name == "map":
            self._draw_map(surface, body)
        elif self.view_name == "army":
            self._draw_army(surface, body)
        else:
            rows, wars = self.stats()
            draw_stats(
                surface,
                pygame.Rect(body.x, body.y, body.width, body.height - px(130, k)),
                rows,
                wars,
                "none yet: set your guild and a guild at war with it below",
                k,
            )
        for tab in self.tabs:
            tab.primary = tab.label.lower() == self.view_name
        self._draw_players(surface)
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)

    def _draw_map(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        map_id = self.map_id
        k = self.k
        if map_id is None:
            draw_text(
                surface,
                "No map of this pack has starts for this many armies.",
                body.center,
                size=px(15, k),
                anchor="center",
            )
            return
        grid = self.pack.grids[map_id]
        info = self.pack.maps.get(map_id)
        side = min(body.width, body.height - px(80, k))
        self.minimap.draw(surface, pygame.Rect(body.x, body.y, body.width, side), grid)
        y = body.y + side + 8
        blocked = self.map_blocked()
        title = f"{grid.name}  ({grid.size}x{grid.size})"
        draw_text(
            surface,
            fit_text(title, px(18, k), body.width - 100, True),
            (body.centerx, y),
            size=px(18, k),
            bold=True,
            anchor="midtop",
            colour=theme.DANGER if blocked else theme.TEXT,
        )
        elevation = "flat"
        if info is not None and info.elevation_bitmap:
            elevation = "elevation bitmap"
        elif info is not None and info.seed and (info.roughness is None or info.roughness > 0):
            elevation = f"bumpy (roughness {32 if info.roughness is None else info.roughness})"
        detail = f"{elevation}  \u2022  by {info.author or 'unknown'}" if info else elevation
        if blocked:
            detail = blocked
        draw_text(
            surface,
            fit_text(detail, px(14, k), body.width - 100),
            (body.centerx, y + px(26, k)),
            size=px(14, k),
            colour=theme.TEXT_MUTED,
            anchor="midtop",
        )

    def _draw_army(self, surface: pygame.Surface, body: pygame.Rect) -> None:
        k = self.k
        draw_text(
            surface,
            "Right-click a slot to choose its piece",
            (body.centerx, body.y),
            size=px(14, k),
            colour=theme.TEXT_MUTED,
            anchor="midtop",
        )
        grid = pygame.Rect(body.x, body.y + px(24, k), body.width, body.height - px(24, k))
        kept = trimmed(self.formation, self.army_size)
        dim = [bool(pid) and not kept[i] for i, pid in enumerate(self.formation)]
        self.army.draw(surface, grid, self.formation, 0, dim=dim, k=k)

    def _draw_players(self, surface: pygame.Surface) -> None:
        rect = self.layout_rects["players"]
        version = "?" if self.pack.version is None else f"{self.pack.version:g}"
        lines = []
        for i, seat in enumerate(self.seats):
            formation = trimmed(self.formation, self.army_size) if i == 0 else ()
            pieces = [self.pieces[p] for p in formation if p in self.pieces]
            score_pieces = len(pieces) if i == 0 else 0
            score_hp = sum(p.hp for p in pieces)
            kind = "you" if i == 0 else seat.kind
            note = "" if i == 0 else "random army"
            reserve = 0 if i == 0 else 130
            lines.append(
                PlayerLine(
                    i, seat.name, version, score_pieces, score_hp, kind, note=note, reserve=reserve
                )
            )
        k = self.k
        draw_players(surface, rect, lines, k)
        hint = "Positions (colours) are drawn at random at launch; bots pick random armies."
        if self.add_bot_button.rect.bottom + px(26, k) > self.launch_button.rect.y:
            return
        draw_text(
            surface,
            fit_text(hint, px(12, k), rect.width),
            (rect.x, self.add_bot_button.rect.bottom + 8),
            size=px(12, k),
            colour=theme.TEXT_MUTED,
        )
        self._draw_army_strip(
            surface, rect.x, self.add_bot_button.rect.bottom + px(34, k), rect.width
        )

    def _draw_army_strip(self, surface: pygame.Surface, x: int, top: int, width: int) -> None:
        """Your army at a glance (when the panel has room): its pieces and "17/7"s."""
        kept = [pid for pid in trimmed(self.formation, self.army_size) if pid in self.pieces]
        k = self.k
        side = min(px(72, k), (width - 8 * 8) // 9)
        if not kept or self.launch_button.rect.y - top < side + px(56, k):
            return
        hp = sum(self.pieces[p].hp for p in kept)
        title = f"Your army: {len(kept)} pieces, {hp} HP (Army view: right-click to change)"
        draw_text(
            surface, fit_text(title, px(14, k), width, True), (x, top), size=px(14, k), bold=True
        )
        for i, pid in enumerate(kept):
            box = pygame.Rect(x + i * (side + 8), top + px(24, k), side, side + px(18, k))
            draw_panel(surface, box, radius=6, shadow=2)
            surface.blit(self.army.image(pid, 0, side - 4), (box.x + 2, box.y + 2))
            label = short_form(self.pieces[pid])
            draw_text(
                surface, label, (box.centerx, box.bottom - 2), size=px(12, k), anchor="midbottom"
            )
