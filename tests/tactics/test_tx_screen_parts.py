"""The Tactics screens' parts one by one: the projection, the seam to the engine, the
Book's army rules, the popup, sounds, pack buttons, the profile, the ratings side, the
camera and the battle's controls (hot-seat, End Turn confirmation, waiting timer)."""

from __future__ import annotations

import ast
import dataclasses
import random
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pygame
import pytest

from suite.core.match import Action, Legal, Outcome, View
from suite.core.session import LocalSession, Notice
from suite.core.store import save_document
from suite.paths import asset
from suite.tactics.assets.bmp import save_bmp
from suite.tactics.assets.model import START_INDICES
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.actions import EndTurn, Move, Select, SkipAttack, SkipMove
from suite.tactics.rules.packs import playable_pieces
from suite.tactics.rules.requirements import Profile
from suite.tactics.rules.view import TacticsView
from suite.tactics.screens import UI, hud, open_setup, orders
from suite.tactics.screens.anim import Fade, Figure, Hop, Show, Strike
from suite.tactics.screens.art import BattleArt, load_map_pack
from suite.tactics.screens.book import PieceMenu, menu_entries, short_form
from suite.tactics.screens.buttons import IconButton, pack_button_images
from suite.tactics.screens.drivers import LiveDriver
from suite.tactics.screens.field import Battlefield, Marks
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.iso import ZOOMS, Projection, turned, unturned
from suite.tactics.screens.match import SeatInfo, battle_config, start_battle, trimmed
from suite.tactics.screens.popup import popup_lines
from suite.tactics.screens.profile import (
    TacticsProfile,
    autosave_path,
    load_profile,
    save_profile,
)
from suite.tactics.screens.ratings import Records
from suite.tactics.screens.setup import SetupScene
from suite.tactics.screens.sounds import PackSounds
from suite.ui.app import Scene
from suite.ui.audio import Audio
from suite.ui.dialogs import ConfirmScene, MenuScene
from suite.ui.game_cards import GameUI
from suite.ui.harness import Harness

from .conftest import PALETTE, MakePack, type_pack_folder

SCREENS = Path(__file__).resolve().parents[2] / "suite" / "tactics" / "screens"


def test_screens_import_no_engine_internals() -> None:
    """Screens (and the modules they use beside them) see the match only through the
    Session and its views: no engine state, no bots."""
    banned = (
        "suite.tactics.rules.state",
        "suite.tactics.rules.bots",
        "suite.tactics.rules.terrain",
    )
    helpers = [SCREENS.parent / name for name in ("ratings.py", "render.py", "skins.py")]
    for path in [*SCREENS.glob("*.py"), *helpers]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                assert not name.startswith(banned), f"{path.name} imports {name}"
        assert ".state" not in path.read_text(encoding="utf-8").replace("self.state", "")


def test_launcher_ui_object() -> None:
    assert isinstance(UI, GameUI) and UI.tags and UI.tooltip


@pytest.mark.parametrize("rotation", range(4))
def test_turning_and_picking_are_inverse(rotation: int) -> None:
    rng = np.random.default_rng(rotation)
    heights = rng.integers(0, 40, size=(9, 9)).astype(np.uint8)  # gentle: no tile hides
    for zoom in ZOOMS:
        projection = Projection(heights, zoom, rotation)
        for y in range(9):
            for x in range(9):
                assert unturned(*turned(x, y, 9, rotation), 9, rotation) == (x, y)
                assert projection.cell_at(projection.centre(x, y)) == (x, y)
        w, h = projection.surface_size
        for x, y in projection.draw_order():
            px, py = projection.image_pos(x, y)
            assert px >= 0 and px + projection.tile_w <= w and 0 <= py <= h - projection.tile_w


def test_higher_tiles_stand_higher_and_nearer_tiles_come_later() -> None:
    heights = np.zeros((4, 4), dtype=np.uint8)
    heights[1, 1] = 255
    projection = Projection(heights)
    assert projection.centre(1, 1)[1] < projection.centre(0, 0)[1] + projection.tile_h
    lifted = projection.centre(1, 1)[1]
    flat = Projection(np.zeros((4, 4), dtype=np.uint8)).centre(1, 1)[1]
    assert flat - lifted == projection.lift_max
    order = projection.draw_order()
    w, h = projection.surface_size
    assert projection.cells_within((0, 0, w, h)) == order
    corner = projection.image_pos(0, 3)  # the leftmost tile's image
    assert projection.cells_within((corner[0], corner[1] + 40, 1, 1)) == [(0, 3)]
    assert order.index((0, 0)) < order.index((1, 1)) < order.index((3, 3))


def test_short_form_menu_greying_and_trimming() -> None:
    pack = load_map_pack(None)
    pieces = playable_pieces(pack)
    king = next(p for p in pieces.values() if p.name == "King")
    assert short_form(king) == f"{king.hp + king.strength + king.defense + king.agility}/" + (
        f"{king.mobility + king.range}"
    )
    formation = [king.id] + [0] * 8
    entries = {
        pid: (enabled, why)
        for pid, _, why, enabled in menu_entries(pieces, formation, 1, Profile())
    }
    assert entries[0][0]
    assert not entries[king.id][0] and "max#" in entries[king.id][1]
    needy = next(p for p in pieces.values() if p.requirements)
    assert not entries[needy.id][0] and needy.requirements in entries[needy.id][1]
    same_slot = {pid: e for pid, _, _, e in menu_entries(pieces, formation, 0, Profile())}
    assert same_slot[king.id], "the slot's own piece does not count against max#"
    assert trimmed([1, 0, 2, 3, 4], 2) == (1, 0, 2, 0, 0)


def _battle(h: Harness, seats: list[SeatInfo], **profile: object) -> BattleScene:
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, army_size=2)
    session = start_battle(config, seats, 4)
    scene = BattleScene(h.app, LiveDriver(session), seats, TacticsProfile(**profile))
    h.push(scene)
    return scene


def test_popup_shows_stats_and_the_forecast_from_the_view() -> None:
    with Harness() as h:
        scene = _battle(h, [SeatInfo("A"), SeatInfo("B", "normal")], bot_speed=3)
        for _ in range(200):
            if scene.my_turn():
                break
            h.frames(1)
        mine = next(p for p in scene.view.pieces if p.owner == scene.viewer)
        scene.proxy_click(mine.uid)
        h.frames(1)
        view = scene.view
        enemy = next(p for p in view.pieces if p.owner != scene.viewer)
        labels = [label for label, _, _ in popup_lines(view, enemy, "B")]
        for label in (
            "HP",
            "MP",
            "STR  DEF  AGI",
            "Rest",
            "Range",
            "Mobility",
            "Movement",
            "Level",
        ):
            assert label in labels
        assert any(label.startswith("Attack by") for label in labels)
        assert {"Damage", "Miss", "Crit"} <= set(labels)
        own = popup_lines(view, mine, "A")
        assert not any(label.startswith("Attack by") for label, _, _ in own)
        assert mine.xp is not None and enemy.xp is None  # the XP meter: own pieces only


def test_hot_seat_follows_the_player_to_move_and_end_turn_asks_first() -> None:
    with Harness() as h:
        scene = _battle(h, [SeatInfo("Ann"), SeatInfo("Bob")], confirm_end_turn=True)
        assert scene.humans == frozenset({0, 1})
        first = scene.view.current
        assert scene.viewer == first and scene.my_turn()
        h.click(scene.tools[3])  # End Turn
        dialog = h.scene
        assert isinstance(dialog, ConfirmScene)
        h.click(dialog.cancel_button)
        assert scene.view.current == first
        h.key(pygame.K_e)
        h.key(pygame.K_RETURN)
        h.frames(2)
        assert scene.view.current != first and scene.viewer == scene.view.current


class RemoteLike:
    """A session as a remote client sees it: no bots run here (no `run_bot`)."""

    def __init__(self, session: LocalSession) -> None:
        self._session = session
        self.game = session.game
        self.seats = session.seats

    def view(self, seat: int | None) -> View:
        return self._session.view(seat)

    def legal(self, seat: int) -> Legal:
        return self._session.legal(seat)

    def awaiting(self) -> frozenset[int]:
        return self._session.awaiting()

    def outcome(self) -> Outcome | None:
        return self._session.outcome()

    def act(self, seat: int, action: Action) -> None:
        self._session.act(seat, action)

    def poll(self) -> list[Notice]:
        return self._session.poll()


def test_waiting_timer_shows_after_ten_seconds() -> None:
    seats = [SeatInfo("A"), SeatInfo("B", "normal")]
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, army_size=2)
    local = start_battle(config, seats, 4)
    with Harness() as h:
        scene = BattleScene(h.app, LiveDriver(RemoteLike(local)), seats, TacticsProfile())
        h.push(scene)
        if scene.my_turn():
            scene.act(EndTurn())
        assert not scene.my_turn()  # the other side never answers here
        scene.waiting = 0.0
        h.seconds(9)
        assert "waiting" not in hud.top_line(scene.view, scene.names, scene.waiting, False)
        h.seconds(2)
        text = hud.top_line(scene.view, scene.names, scene.waiting, scene.my_turn())
        assert "waiting 11 s" in text


def test_camera_pans_zooms_rotates_and_centres() -> None:
    with Harness() as h:
        scene = _battle(h, [SeatInfo("A"), SeatInfo("B", "normal")])
        field = scene.field
        before = list(field.camera)
        h.post(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
        h.frames(1)
        h.post(pygame.KEYUP, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
        h.press((600, 400))
        h.move((500, 350))
        h.release((500, 350))
        assert field.camera != before
        h.wheel((600, 400), -1)
        assert field.zoom == ZOOMS[-2]
        h.key(pygame.K_r)
        assert field.rotation == 1
        aim = (field.rect.centerx + 150, field.rect.centery + 80)
        target = field.cell_at(aim, ignore_pieces=True)
        assert target is not None
        h.click(aim, button=3)
        assert field.cell_at(field.rect.center, ignore_pieces=True) == target


def test_beats_move_figures_and_end() -> None:
    figures = {
        1: Figure(1, 1, 0, 0, 0.0, 0.0, 10, 10, True),
        2: Figure(2, 1, 1, 1, 3.0, 0.0, 10, 10, True),
    }
    played: list[tuple[str, int]] = []
    show = Show(lambda event, uid: played.append((event, uid)))
    show.add(Hop(1, [(0, 0), (1, 0), (2, 0)]))
    show.add(Strike(1, 2, "crit", 7, 3))
    show.add(Fade(2))
    flashed = False
    for _ in range(400):
        show.update(1 / 60, figures)
        flashed = flashed or figures[2].flash
        if not show.busy:
            break
    assert (figures[1].x, figures[1].y) == (2.0, 0.0)
    assert flashed and figures[2].hp == 3 and not figures[2].alive
    assert [e for e, _ in played] == ["go", "attack", "crit", "pain", "death"]
    assert any(f.text == "-7!" for f in show.floaters)


def test_pack_sounds_pick_from_the_sets(tmp_path: Path) -> None:
    pack = load_map_pack(None)
    sounds = PackSounds(pack, Audio(0), random.Random(3))
    kind = next(iter(playable_pieces(pack)))
    piece = pack.pieces[kind]
    for _ in range(20):
        sounds.piece("go", kind)
    chosen = {sid for event, sid in sounds.played if event == "go"}
    assert chosen <= set(pack.sound_sets[piece.set_go].sounds) and len(chosen) > 1
    assert sounds.weapon("miss", kind)
    assert not sounds.piece("go", 999)


def strip(frames: int, side: int = 24, across: bool = True) -> np.ndarray:
    """A button strip whose frame i is filled with palette index 30 + i (corners 6)."""
    parts = []
    for i in range(frames):
        frame = np.full((side, side), 30 + i, dtype=np.uint8)
        frame[0, 0] = 6
        parts.append(frame)
    return np.concatenate(parts, axis=1 if across else 0)


def test_pack_button_strips_are_used_per_button(make_pack: MakePack) -> None:
    """Issue 24, item 7: `buttonEndTurn` (4 frames across, in buttons/), `buttonMain` (4
    stacked, beside the ini) and a plain `buttonRotateLeft` are the pack's; every other
    button falls back to its drawn icon."""
    root = make_pack()
    (root / "buttons").mkdir()
    save_bmp(root / "buttons" / "buttonendturn.bmp", strip(4), PALETTE)
    save_bmp(root / "buttonMain.bmp", strip(4, across=False), PALETTE)
    save_bmp(root / "buttons" / "buttonRotateLeft.bmp", strip(1), PALETTE)
    (root / "buttons" / "buttonSkipMove.bmp").write_bytes(b"BM broken")
    strips = pack_button_images(load_pack(root))
    assert set(strips) == {"end_turn", "hud", "rotate_left"}
    assert strips["end_turn"]["hover"].get_size() == (24, 24)
    assert strips["hud"]["pressed"].get_size() == (24, 24)
    button = IconButton("end_turn", pygame.Rect(10, 10, 48, 48), lambda: None, tooltip="")
    button.strip = strips["end_turn"]
    surface = pygame.Surface((80, 80))

    def shown() -> tuple[int, int, int]:
        surface.fill((0, 0, 0))
        button.draw(surface)
        r, g, b, _ = surface.get_at(button.rect.center)
        return r, g, b

    assert shown() == tuple(PALETTE[30])  # normal
    button.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(30, 30), rel=(0, 0), buttons=(0, 0, 0))
    )
    assert button.state == "hover" and shown() == tuple(PALETTE[31])
    button.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(30, 30), button=1))
    assert button.state == "pressed" and shown() == tuple(PALETTE[32])
    button.enabled = False
    assert button.state == "disabled" and shown() == tuple(PALETTE[33])
    plain = IconButton("skip_move", pygame.Rect(10, 10, 48, 48), lambda: None, tooltip="")
    plain.draw(surface)  # drawn icon: no strip for this one


def test_profile_survives_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "tactics.json"
    profile = TacticsProfile(pack="/somewhere", guild="Owls", armies={"": [1, 2, 0]})
    assert save_profile(profile, path) is None
    again, problem = load_profile(path)
    assert again == profile and problem is None
    save_document(path, "tactics-profile", {"armies": "not a table"})
    broken, problem = load_profile(path)
    assert broken == TacticsProfile() and problem is not None and "unreadable" in problem
    assert (tmp_path / "tactics.json.broken").exists()


def test_ratings_problems_become_messages(tmp_path: Path) -> None:
    db = tmp_path / "ratings.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    records = Records(db)
    rows, wars = records.table("Me", [("Me", True)])
    assert rows == [] and wars and "unavailable" in wars[0]
    assert records.profile("Me") == Profile()
    assert records.set_guild("Me", "Owls").startswith("Could not")
    good = Records(tmp_path / "ok.sqlite")
    assert good.open_war("", "Cats") == "Set your guild first"
    assert "Owls vs Cats" in good.open_war("Owls", "Cats")
    assert good.table("Me", [])[1] == ["Cats vs Owls"]
    with sqlite3.connect(tmp_path / "ok.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM wars").fetchone()[0] == 1


def test_start_cells_and_armies_match_the_view() -> None:
    with Harness() as h:
        scene = _battle(
            h, [SeatInfo("A", "human", (1, 2, 0, 0, 0, 0, 0, 0, 0)), SeatInfo("B", "normal")]
        )
        mine = [p.kind for p in scene.view.pieces if p.owner == 0]
        assert mine == [1, 2]
        assert len(scene.figures) == len(scene.view.pieces)
        assert all(s is None or len(s) == 2 for s in scene.view.map.starts)
        assert START_INDICES  # the map's starts come from the pack's reserved indices


def test_a_left_battle_resumes_where_it_stopped() -> None:
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        assert not setup.resume_button.enabled
        while setup.profile.bot_speed != 3:
            h.click(setup.speed_button)
        h.click(setup.add_bot_button)
        h.click(setup.launch_button)
        battle = h.scene
        assert isinstance(battle, BattleScene)
        for _ in range(300):
            if battle.my_turn() and not battle.show.busy:
                break
            h.frames(1)
        mine = next(p for p in battle.proxies if p.rect is not None)
        h.click(mine.rect)
        selected = battle.view.selected
        assert selected is not None
        h.key(pygame.K_ESCAPE)
        menu = h.scene
        assert isinstance(menu, MenuScene)
        h.click(menu.buttons[-1])  # leave the battle
        assert h.scene is setup
        h.frames(1)
        assert setup.resume_button.enabled
        h.click(setup.resume_button)
        again = h.scene
        assert isinstance(again, BattleScene) and again is not battle
        assert again.view == battle.view
        h.key(pygame.K_ESCAPE)
        h.click(h.scene.buttons[-1])  # type: ignore[attr-defined]
        autosave_path().write_text("{ not json")
        h.click(setup.resume_button)
        assert h.scene is setup and h.notices[-1].startswith("Cannot resume")


def test_a_crafted_pack_with_missing_art_plays(make_pack: MakePack, artifacts: Path) -> None:
    """A folder pack chosen in the Book, its skin and tile files missing: placeholders
    are drawn, the problems are listed, and a battle runs."""
    root = make_pack(skip=frozenset({"skins/knight.bmp", "tiles/grass.bmp"}))
    with Harness() as h:
        setup, panel = type_pack_folder(h, root)
        h.click(panel.check_button)
        assert panel.verdict == "playable" and panel.pack is not None and panel.pack.problems
        h.screenshot(artifacts / "tx_pack_crafted_problems.png")
        h.click(panel.use_button)
        assert h.scene is setup and setup.profile.pack == str(root)
        h.click(setup.add_bot_button)
        while setup.profile.bot_speed != 3:
            h.click(setup.speed_button)
        h.click(setup.launch_button)
        battle = h.scene
        assert isinstance(battle, BattleScene)
        h.frames(30)
        assert battle.view.map.pack == str(root)
        h.screenshot(artifacts / "tx_battle_crafted_pack.png")


def test_a_higher_tile_in_front_hides_a_piece_feet() -> None:
    pack = load_map_pack(None)
    flat = pack.grids[1]
    heights = np.zeros_like(flat.elevation)
    heights[6, 6] = 255  # two rows in front of (5, 5), lifted to its feet
    bumpy = dataclasses.replace(flat, elevation=heights)
    kind = next(iter(playable_pieces(pack)))
    pygame.display.init()
    for grid, hidden in ((flat, False), (bumpy, True)):
        field = Battlefield(BattleArt(pack, grid), pygame.Rect(0, 0, 600, 500))
        field.look_at((5, 5))
        foot = field.to_screen(field.projection.centre(5, 5))
        probe = (foot[0] - 20, foot[1] + 1)  # its shadow, beside the life bar
        figure = Figure(1, kind, 0, 0, 5.0, 5.0, 10, 10, True)
        shots = []
        for figures in ([], [figure]):
            surface = pygame.Surface((600, 500))
            field.draw(surface, figures, Marks({}))
            shots.append(surface.get_at(probe))
        assert (shots[0] == shots[1]) == hidden


def test_a_huge_map_is_drawn_around_the_view() -> None:
    """A 200 x 200 map (packs may hold 256) is never pre-rendered whole."""
    pack = load_map_pack(None)
    small = pack.grids[1]
    size = 200
    tiles = np.full((size, size), int(small.tiles[8, 8]), dtype=np.uint8)
    zeros = np.zeros((size, size), dtype=np.uint8)
    grid = dataclasses.replace(small, tiles=tiles, movement=zeros + 1, elevation=zeros)
    pygame.display.init()
    art = BattleArt(pack, grid)
    field = Battlefield(art, pygame.Rect(0, 0, 800, 500))
    surface = pygame.Surface((800, 500))
    field.draw(surface, [], Marks({}))
    static, _ = art.static_map(
        field.projection, field.rect.move(-field.origin[0], -field.origin[1])
    )
    full_w, full_h = field.projection.surface_size
    assert static.get_width() * static.get_height() < full_w * full_h / 50
    assert art.renders == 1
    field.pan(100, 50)  # still inside the drawn window
    field.draw(surface, [], Marks({}))
    assert art.renders == 1
    field.look_at((10, 190))  # far away: drawn again around the new view
    field.draw(surface, [], Marks({}))
    assert art.renders == 2
    assert surface.get_at((400, 250))[:3] != (12, 14, 22)  # tiles under the view


def test_a_long_piece_menu_runs_in_columns_and_pages(artifacts: Path) -> None:
    entries = [(pid, f"Piece {pid}  17/7", "tip", pid % 7 != 0) for pid in range(1, 121)]
    picked: list[int] = []
    with Harness(size=(800, 560)) as h:
        base = h.push(Scene(h.app))
        menu = h.push(PieceMenu(h.app, (300, 100), entries, picked.append))
        assert isinstance(menu, PieceMenu)
        assert menu.columns >= 2 and menu.pages >= 1
        assert h.app.screen.get_rect().contains(menu.rect)
        for _, button in menu.shown:
            assert menu.rect.contains(button.rect)
        h.screenshot(artifacts / "tx_piece_menu_long.png")
        first = menu.shown[0][0]
        h.wheel(menu.rect.center, -1)
        assert menu.first == 1 and menu.shown[0][0] != first
        pid, button = menu.shown[-1]
        h.click(button)
        assert picked == [pid] and h.scene is base


def test_a_vanished_pack_folder_falls_back_to_the_shipped_pack(tmp_path: Path) -> None:
    assert save_profile(TacticsProfile(pack=str(tmp_path / "gone"))) is None
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        assert setup.profile.pack == "" and setup.map_id is not None
        assert any("Pack not usable" in text for text in h.notices)


def test_clicks_mean_what_the_phase_allows() -> None:
    seats = [SeatInfo("A"), SeatInfo("B")]
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, army_size=2)
    session = start_battle(config, seats, 9)
    seat = next(iter(session.awaiting()))

    def state() -> tuple[TacticsView, orders.Choices]:
        view = session.view(seat)
        assert isinstance(view, TacticsView)
        return view, orders.Choices.of(list(session.legal(seat)))

    view, choices = state()
    mine = next(p for p in view.pieces if p.uid in view.commandable)
    enemy = next(p for p in view.pieces if p.owner != seat)
    assert orders.click_action(view, choices, (mine.x, mine.y)) == Select(mine.uid)
    assert orders.click_action(view, choices, (enemy.x, enemy.y)) is None
    assert orders.highlights(view, None, True).cells["ready"]
    assert set(orders.highlights(view, (0, 0), False).cells) == {"cursor"}
    session.act(seat, Select(mine.uid))
    view, choices = state()
    spot = view.reach[0]
    assert orders.click_action(view, choices, (spot.x, spot.y)) == Move(spot.x, spot.y)
    assert orders.click_action(view, choices, (mine.x, mine.y)) == SkipMove()
    marks = orders.highlights(view, (spot.x, spot.y), True).cells
    assert (spot.x, spot.y) in marks["hover"] and marks["reach"]
    assert marks["outline"] == view.area_at((spot.x, spot.y)) and marks["outline"]
    assert marks["threat"] <= marks["outline"]
    here = orders.highlights(view, (mine.x, mine.y), True).cells
    assert here["outline"] == view.area_at() and "hover" not in here
    session.act(seat, SkipMove())
    view, choices = state()
    assert view.phase == "attack"
    marks = orders.highlights(view, None, True).cells
    assert marks["zone"] == view.area_at() and marks["zone"]
    if not view.targets:
        assert marks["target"] == {(mine.x, mine.y)}
        assert orders.click_action(view, choices, (mine.x, mine.y)) == SkipAttack()
        empty = next(iter(marks["zone"]))
        assert orders.click_action(view, choices, empty) == SkipAttack()
    else:
        empty = next(c for c in marks["zone"] if orders.piece_at(view, c) is None)
        assert orders.click_action(view, choices, empty) is None


def test_the_battle_follows_window_resizes() -> None:
    with Harness() as h:
        scene = _battle(h, [SeatInfo("A"), SeatInfo("B", "normal")], bot_speed=3)
        for size in ((800, 560), (1920, 1080), (1280, 800)):
            h.resize(size)
            h.frames(2)
            screen = h.app.screen.get_rect()
            assert scene.field.rect.bottomright == screen.bottomright
            assert all(screen.contains(t.rect) for t in scene.tools)
            assert all(p.rect is None or screen.contains(p.rect) for p in scene.proxies)
            assert scene.canvas is not None and scene.canvas.get_size() == size


def test_the_book_minimap_centres_the_battlefield() -> None:
    with Harness() as h:
        scene = _battle(h, [SeatInfo("A"), SeatInfo("B", "normal")], bot_speed=3)
        h.key(pygame.K_TAB)
        assert scene.book.open and scene.book.view_name == "map"
        mini = scene.book.minimap.rect
        n = scene.view.map.size
        cell = (n - 4, 3)
        point = (
            mini.x + (cell[0] * 2 + 1) * mini.width // (2 * n),
            mini.y + (cell[1] * 2 + 1) * mini.height // (2 * n),
        )
        h.click(point)
        assert scene.field.cell_at(scene.field.rect.center, ignore_pieces=True) == cell
        h.key(pygame.K_ESCAPE)  # Esc closes the book first
        assert not scene.book.open and h.scene is scene


def test_art_comes_from_this_machines_copy_of_the_pack(tmp_path: Path) -> None:
    """Online, the client draws with its synced copy of the host's pack."""
    copy = tmp_path / "synced"
    shutil.copytree(asset("tactics"), copy)
    seats = [SeatInfo("A"), SeatInfo("B", "normal")]
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, army_size=2)
    session = start_battle(config, seats, 4)
    with Harness() as h:
        scene = BattleScene(
            h.app, LiveDriver(RemoteLike(session)), seats, TacticsProfile(), pack_folder=str(copy)
        )
        h.push(scene)
        assert scene.pack.root.resolve() == copy.resolve()
        assert not any("differs" in text for text in h.notices)
    edited = tmp_path / "edited"
    shutil.copytree(asset("tactics"), edited)
    ini = edited / "tactics_ini.txt"
    ini.write_bytes(ini.read_bytes() + b"\r\n; a local edit\r\n")
    with Harness() as h:
        scene = BattleScene(
            h.app, LiveDriver(RemoteLike(session)), seats, TacticsProfile(), pack_folder=str(edited)
        )
        h.push(scene)
        assert any("differs" in text for text in h.notices)


def test_random_input_never_breaks_the_battle() -> None:
    """A monkey at the keyboard and mouse: clicks, drags, wheel and keys anywhere, for a
    while; the battle goes on and every refusal is a notice, never a traceback."""
    rng = random.Random(5)
    keys = [pygame.K_m, pygame.K_a, pygame.K_e, pygame.K_r, pygame.K_b, pygame.K_TAB]
    keys += [pygame.K_MINUS, pygame.K_PLUS, pygame.K_LEFT, pygame.K_RETURN, pygame.K_SPACE]
    with Harness(size=(1000, 700)) as h:
        scene = _battle(h, [SeatInfo("A"), SeatInfo("B", "random")], bot_speed=3)
        for _ in range(400):
            if not h.running:
                break
            point = (rng.randrange(1000), rng.randrange(700))
            roll = rng.random()
            if roll < 0.5:
                h.click(point, button=rng.choice((1, 1, 1, 3)), frames=1)
            elif roll < 0.6:
                h.wheel(point, rng.choice((-1, 1)))
            elif roll < 0.7:
                h.press(point)
                h.release((point[0] + rng.randrange(-80, 80), point[1] + rng.randrange(-80, 80)))
            else:
                h.key(rng.choice(keys))
            if h.app.stack and h.scene is not scene and rng.random() < 0.5:
                h.key(pygame.K_ESCAPE)  # close whatever opened (dialog, menu, help)
        assert scene.view.round >= 1
