"""The Tactics screens' pictures, each checked on what it must show, then saved under
tests/artifacts/ (tx_*.png) to be looked at: the Book of Tactics (map, army with its
piece menu, stats, pack panel), a flat and a bumpy battlefield with highlights, the info
popup with its forecast, a rotated view, the book over the battle, and every skin
recoloured for the four armies; at 1280x800, and the main ones at 800x560 and 1920x1080.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.core.rng import Rng
from suite.core.session import LocalSession
from suite.tactics.rules.bots import NormalBot
from suite.tactics.screens import open_setup
from suite.tactics.screens.art import BattleArt, load_map_pack
from suite.tactics.screens.book import PieceMenu
from suite.tactics.screens.drivers import LiveDriver
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.gameover import GameOverScene
from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
from suite.tactics.screens.packs import PackScene
from suite.tactics.screens.profile import TacticsProfile
from suite.tactics.screens.ratings import Records
from suite.tactics.screens.setup import SetupScene
from suite.tactics.skins import FRAME_NAMES
from suite.ui.dialogs import MenuScene
from suite.ui.harness import Harness

from .conftest import type_pack_folder

SIZES = ((800, 560), (1280, 800), (1920, 1080))
SEATS = [SeatInfo("Commander", "human"), SeatInfo("Bot Ada", "normal")]
ARCHER = 2  # the default pack's archer: range 4, minRange 1


def battle(
    h: Harness, map_id: int, seed: int = 5, size: int | None = 4, seats: list[SeatInfo] = SEATS
) -> BattleScene:
    config = battle_config(seats, pack=None, map_id=map_id, pieces_per_turn=0, army_size=size)
    session = start_battle(config, seats, seed)
    players = [(s.name, s.human) for s in SEATS]
    scene = BattleScene(
        h.app,
        LiveDriver(session),
        SEATS,
        TacticsProfile(bot_speed=3),
        stats=lambda: Records().table("Commander", players),
    )
    h.push(scene)
    return scene


def settle(h: Harness, scene: BattleScene) -> None:
    """Run frames until the show is over and it is the human's move."""
    for _ in range(600):
        h.frames(1)
        if scene.my_turn() and not scene.show.busy:
            return
    raise AssertionError("the bots never handed the turn back")


def march_until_in_reach(h: Harness, scene: BattleScene) -> None:
    """Let a bot brain command the human's seat until a selected piece could walk to a
    tile from which it attacks (the set-up for the highlight pictures)."""
    session = scene.session
    assert isinstance(session, LocalSession)
    brain, rng = NormalBot(), Rng(1)
    for _ in range(400):
        settle(h, scene)
        view = scene.view
        if view.phase == "move" and any(r.targets for r in view.reach):
            return
        seat = scene.viewer
        assert seat is not None
        session.act(seat, brain.choose(session.view(seat), session.legal(seat), rng))
    raise AssertionError("no enemy ever came within reach")


def test_book_of_tactics_views(artifacts: Path) -> None:
    for size in SIZES:
        with Harness(size=size) as h:
            setup = h.push(open_setup(h.app))
            assert isinstance(setup, SetupScene)
            h.click(setup.add_bot_button)
            h.click(setup.add_bot_button)
            h.frames(2)
            tag = f"{size[0]}x{size[1]}"
            h.screenshot(artifacts / f"tx_book_map_{tag}.png")
            for button in setup.buttons:  # nothing is cut off the window
                assert h.app.screen.get_rect().contains(button.rect), button.label
            h.click(setup.tabs[1])
            h.click(setup.army.slots[4], button=3)
            menu = h.scene
            assert isinstance(menu, PieceMenu)
            greyed = [b for _, b in menu.buttons if not b.enabled]
            assert greyed, "pieces past max# or their requirement are greyed"
            h.move(greyed[0].rect)
            h.frames(40)
            h.screenshot(artifacts / f"tx_book_army_{tag}.png")
            pick = next(b for pid, b in menu.buttons if pid and b.enabled)
            h.click(pick)
            assert h.scene is setup
            h.click(setup.tabs[2])
            h.screenshot(artifacts / f"tx_book_stats_{tag}.png")


def test_army_choice_is_remembered(artifacts: Path) -> None:
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.tabs[1])
        h.click(setup.army.slots[0], button=3)
        menu = h.scene
        assert isinstance(menu, PieceMenu)
        h.click(menu.buttons[0][1])  # (empty)
        assert setup.formation[0] == 0
        h.app.pop()
        again = h.push(open_setup(h.app))
        assert isinstance(again, SetupScene)
        assert again.formation == setup.formation


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_weapon_range_is_drawn_from_the_hovered_tile_and_after_the_hop(
    artifacts: Path, size: tuple[int, int]
) -> None:
    archers = SeatInfo("Commander", "human", (0, 0, 0, 0, ARCHER, 0, 0, 0, 0))
    with Harness(size=size) as h:
        scene = battle(h, map_id=1, size=None, seats=[archers, SEATS[1]])
        settle(h, scene)
        archer = next(p for p in scene.view.pieces if p.owner == scene.viewer)
        h.click(scene.screen_point((archer.x, archer.y)))
        settle(h, scene)
        view = scene.view
        assert view.phase == "move" and view.selected == archer.uid
        spot = max(view.reach, key=lambda r: (len(view.area_at((r.x, r.y))), r.y, r.x))
        scene.field.look_at((spot.x, spot.y))
        h.move(scene.screen_point((spot.x, spot.y)))
        h.frames(3)
        marks = scene._marks().cells
        area = view.area_at((spot.x, spot.y))
        assert marks["outline"] == area and len(area) > 12  # range 4 round the white tile
        assert (spot.x, spot.y) not in area  # minRange 1: not its own tile
        tag = f"{size[0]}x{size[1]}"
        h.screenshot(artifacts / f"tx_battle_range_hover_{tag}.png")
        h.click(scene.screen_point((spot.x, spot.y)))
        settle(h, scene)
        assert scene.view.phase == "attack"
        h.move((size[0] - 5, size[1] - 5))
        h.frames(3)
        assert scene._marks().cells["zone"] == area
        h.screenshot(artifacts / f"tx_battle_range_zone_{tag}.png")


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_flat_battlefield_highlights_and_popup(artifacts: Path, size: tuple[int, int]) -> None:
    tag = "" if size == (1280, 800) else f"_{size[0]}x{size[1]}"
    with Harness(size=size) as h:
        scene = battle(h, map_id=1)
        march_until_in_reach(h, scene)
        view = scene.view
        spot = next(r for r in view.reach if r.targets)
        scene.field.look_at((spot.x, spot.y))
        h.move(scene.screen_point((spot.x, spot.y)))
        h.frames(3)
        marks = scene._marks().cells
        assert marks["reach"] and (spot.x, spot.y) in marks["hover"] and marks["outline"]
        h.screenshot(artifacts / f"tx_battle_flat_highlights{tag}.png")
        h.click(scene.screen_point((spot.x, spot.y)))
        settle(h, scene)
        assert scene.view.phase == "attack" and scene.view.targets
        target = next(p for p in scene.view.pieces if p.uid == scene.view.targets[0])
        h.move(scene.screen_point((target.x, target.y)))
        h.frames(20)
        assert scene._marks().cells["target"]
        assert scene.hover_uid == target.uid
        odds = next(o for o in scene.view.odds if o.target == target.uid)
        assert odds.in_range
        h.screenshot(artifacts / f"tx_battle_popup_forecast{tag}.png")
        h.key(pygame.K_F1)
        h.screenshot(artifacts / f"tx_battle_help{tag}.png")
        h.key(pygame.K_SPACE)
        assert h.scene is scene
        h.key(pygame.K_b)
        assert scene.book.open
        h.screenshot(artifacts / "tx_battle_book.png")
        h.click(scene.book.tabs[1])
        h.screenshot(artifacts / "tx_battle_book_army.png")
        h.key(pygame.K_b)
        scene.profile.bot_speed = scene.speed = 1  # the bot's blows animate too
        h.click(scene.screen_point((target.x, target.y)))
        seen_flash = seen_number = False
        for _ in range(600):
            h.frames(1)
            flashing = any(f.flash for f in scene.figures.values())
            if flashing and not seen_flash:
                seen_flash = True
                h.screenshot(artifacts / "tx_battle_strike_flash.png")
            if scene.show.floaters and not seen_number:
                seen_number = True
                h.frames(10)
                h.screenshot(artifacts / "tx_battle_strike_number.png")
            if seen_number and (seen_flash or "miss" in scene.show.floaters[0].text):
                break
        assert seen_number
        heard = [event for event, _ in scene.sounds.played]
        assert "attack" in heard and {"hit", "miss", "crit"} & set(heard)


@pytest.mark.parametrize("size", SIZES)
def test_bumpy_battlefield_and_rotation(artifacts: Path, size: tuple[int, int]) -> None:
    with Harness(size=size) as h:
        scene = battle(h, map_id=2, size=9)
        settle(h, scene)
        mine = next(p for p in scene.proxies if p.rect is not None)
        h.click(mine.rect)
        assert scene.view.phase == "move" and scene.view.reach
        h.move(scene.screen_point((scene.view.reach[0].x, scene.view.reach[0].y)))
        h.frames(3)
        tag = f"{size[0]}x{size[1]}"
        h.screenshot(artifacts / f"tx_battle_bumpy_{tag}.png")
        before = scene.art.renders
        h.key(pygame.K_r)
        h.frames(2)
        assert scene.field.rotation == 1 and scene.art.renders == before + 1
        h.screenshot(artifacts / f"tx_battle_rotated_{tag}.png")
        h.key(pygame.K_b)
        for tab in scene.book.tabs:
            h.click(tab)
            assert h.app.screen.get_rect().contains(scene.book.rect)
            h.screenshot(artifacts / f"tx_battle_book_{tab.label.lower()}_{tag}.png")


def test_idle_screen_composes_nothing(artifacts: Path) -> None:
    with Harness() as h:
        scene = battle(h, map_id=1)
        settle(h, scene)
        for figure in scene.figures.values():
            figure.idle_left = 1000.0  # no idle frame swap during the check
        h.frames(30)
        composed, renders = scene.composed, scene.art.renders
        h.frames(60)
        assert scene.composed == composed and scene.art.renders == renders


def test_skins_recoloured_for_four_armies(artifacts: Path) -> None:
    pack = load_map_pack(None)
    art = BattleArt(pack, pack.grids[1])
    kinds = sorted(pack.pieces)
    cell = 100
    sheet = pygame.Surface((cell * len(kinds), cell * 4))
    sheet.fill((40, 60, 40))
    stand = FRAME_NAMES.index("stand")
    for army in range(4):
        for i, kind in enumerate(kinds):
            frame = art.frames(kind, army, 1.0)[stand]
            sheet.blit(frame, (i * cell + 2, army * cell + 2))
    pygame.image.save(sheet, str(artifacts / "tx_skins_armies.png"))
    red = art.frames(kinds[0], 0, 1.0)[stand]
    blue = art.frames(kinds[0], 3, 1.0)[stand]
    assert pygame.image.tobytes(red, "RGBA") != pygame.image.tobytes(blue, "RGBA")


def test_pack_panel_lists_problems(artifacts: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "tactics_ini.txt").write_text("[general]\nnumMaps = 1\n[map1]\nname = x\n")
    with Harness() as h:
        setup, panel = type_pack_folder(h, broken)
        h.click(panel.use_button)
        assert h.scene is panel, "an unplayable pack is refused"
        assert panel.pack is not None and panel.pack.errors
        assert panel.verdict.startswith("not playable")
        h.screenshot(artifacts / "tx_pack_problems.png")
        h.click(panel.close_button)
        assert h.scene is setup and setup.profile.pack == ""


def test_game_over_of_four_with_ratings_and_war_points(artifacts: Path) -> None:
    seats = [
        SeatInfo("Ann", "human"),
        SeatInfo("Bob", "human"),
        SeatInfo("Bot Cyra", "normal"),
        SeatInfo("Bot Dax", "random"),
    ]
    records = Records()
    assert "Owls" in records.set_guild("Ann", "Owls")
    records.set_guild("Bob", "Cats")
    records.open_war("Owls", "Cats")
    config = battle_config(seats, pack=None, map_id=1, pieces_per_turn=0, army_size=2)
    session = start_battle(config, seats, 21)
    brain, rng = NormalBot(), Rng(2)
    for _ in range(5000):
        if session.outcome() is not None:
            break
        seat = next(iter(session.awaiting()))
        if seat in session.seats:
            session.act(seat, brain.choose(session.view(seat), session.legal(seat), rng))
        else:
            session.run_bot()
    outcome = session.outcome()
    assert outcome is not None
    with Harness() as h:
        scene = BattleScene(h.app, LiveDriver(session), seats, TacticsProfile())
        h.push(scene)
        over = GameOverScene(h.app, scene, records)
        h.app.replace(over)
        h.frames(2)
        assert over.record is not None and set(over.record.elo) == {"Ann", "Bob"}
        first_human = next(s for group in outcome.places for s in group if s < 2)
        winner_name = seats[first_human].name
        assert over.record.war_points.get(winner_name, 0) > 0
        h.screenshot(artifacts / "tx_game_over_four.png")


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_overlays_fit_and_grow_with_the_window(artifacts: Path, size: tuple[int, int]) -> None:
    """The battle menu, the pack panel and the Book's buttons stay inside the window and
    their text grows on a large one (fonts follow the UI factor)."""
    tag = f"{size[0]}x{size[1]}"
    with Harness(size=size) as h:
        screen = h.app.screen.get_rect()
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        big = size[0] >= 1920
        assert (setup.launch_button.font_size > 18) == big
        h.click(setup.pack_button)
        panel = h.scene
        assert isinstance(panel, PackScene) and screen.contains(panel.rect)
        assert all(panel.rect.contains(b.rect) for b in panel.buttons)
        h.screenshot(artifacts / f"tx_pack_panel_{tag}.png")
        h.click(panel.close_button)
        scene = battle(h, map_id=1)
        settle(h, scene)
        scene.open_menu()
        menu = h.scene
        assert isinstance(menu, MenuScene) and screen.contains(menu.rect)
        assert all(menu.rect.contains(b.rect) for b in menu.buttons)
        assert (menu.buttons[0].font_size > 16) == big
        h.frames(2)
        h.screenshot(artifacts / f"tx_battle_menu_{tag}.png")
