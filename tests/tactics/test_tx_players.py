"""Players (issue 24, item 11): a paused replay counts no waiting time; the Book keeps its
seats, map and pieces per turn when left and opened again; a boxed-in piece has a narrow
proxy; the second hot-seat player sets their own guild (so war points can be earned)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.core.session import LocalSession
from suite.tactics.rules import actions as A
from suite.tactics.rules.state import TacticsState
from suite.tactics.rules.view import build_view
from suite.tactics.screens import hud, open_setup
from suite.tactics.screens.drivers import ReplayDriver
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
from suite.tactics.screens.profile import TacticsProfile
from suite.tactics.screens.ratings import Records
from suite.tactics.screens.setup import SetupScene
from suite.ui.harness import Harness

BOTS = [SeatInfo("Bot A", "normal"), SeatInfo("Bot B", "normal")]


def test_a_paused_replay_counts_no_waiting() -> None:
    config = battle_config(BOTS, pack=None, map_id=1, pieces_per_turn=0, army_size=2)
    session = start_battle(config, BOTS, 4)
    assert isinstance(session, LocalSession)
    for _ in range(6):
        session.run_bot()
    with Harness() as h:
        scene = BattleScene(h.app, ReplayDriver(session.replay), BOTS, TacticsProfile())
        h.push(scene)
        h.key(pygame.K_SPACE)
        assert scene.paused
        waited = scene.waiting
        h.seconds(5)
        assert scene.waiting == waited
        assert "waiting" not in hud.top_line(scene.view, scene.names, scene.waiting, False)


def test_the_book_keeps_its_set_up_when_opened_again() -> None:
    with Harness() as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.add_bot_button)
        h.click(setup.add_human_button)
        setup.cycle_level(1)
        h.click(setup.ppt_button)
        h.click(setup.size_button)
        setup.step_map(1)
        kept = (list(setup.seats), setup.map_id, setup.ppt_index, setup.army_size)
        h.key(pygame.K_ESCAPE)
        assert setup not in h.app.stack
        again = h.push(open_setup(h.app))
        assert isinstance(again, SetupScene)
        assert (list(again.seats), again.map_id, again.ppt_index, again.army_size) == kept
        assert len(again.seat_buttons) == len(kept[0]) - 1


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_second_hot_seat_player_sets_their_own_guild(
    artifacts: Path, size: tuple[int, int]
) -> None:
    with Harness(size=size) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        h.click(setup.add_human_button)
        second = setup.seats[1].name
        h.click(setup.tabs[2])  # stats
        assert setup.guild_who in setup.buttons and setup.guild_person() == setup.name
        h.click(setup.guild_who)
        assert setup.guild_person() == second
        assert setup.guild_entry is not None
        setup.guild_entry.set_text("Cats")
        h.click(setup.guild_button)
        with Records()._db() as db:
            stats = db.player(second)
        assert stats is not None and stats.guild == "Cats"
        assert setup.profile.guild == ""  # the first player's own guild is untouched
        h.frames(2)
        screen = h.app.screen.get_rect()
        for button in (setup.guild_who, setup.guild_button, setup.war_button):
            assert screen.contains(button.rect)
        assert not setup.guild_who.rect.colliderect(setup.guild_button.rect)
        h.screenshot(artifacts / f"tx_book_hot_seat_guild_{size[0]}x{size[1]}.png")


def test_a_boxed_in_piece_has_a_narrow_proxy() -> None:
    config = battle_config(
        [SeatInfo("A"), SeatInfo("B")], pack=None, map_id=1, pieces_per_turn=0, army_size=9
    )
    state = TacticsState.create(config, 3)
    seat = state.current
    view = build_view(state, seat)
    boxed = [p for p in view.pieces if p.owner == seat and p.boxed]
    free = [p for p in view.pieces if p.owner == seat and p.can_act and not p.boxed]
    assert boxed and free  # pieces walled in by their own formation and the map's edge
    assert all(not state.reachable(state.unit(p.uid)) for p in boxed)
    proxies = {p.uid: p for p in hud.layout_proxies(view, seat, 40, 800)}
    wide = max(p.rect.width for p in proxies.values() if p.rect is not None)
    for piece in boxed:
        rect = proxies[piece.uid].rect
        assert rect is not None and rect.width < wide
    assert all(A.Select(p.uid) not in state.legal(seat) for p in boxed)  # nothing to do
