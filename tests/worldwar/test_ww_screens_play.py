"""A whole World War game played through the screens with posted mouse and key events.

The test reads the state only to decide where a player would click; every move of the
human is a real pygame event (clicks on the map, keys), so the set-up screen, placement,
attacks with odds, occupation, cards, the end of turns and the game-over screen are all
driven the way a person drives them. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.worldwar.rules.odds import battle
from suite.worldwar.screens import open_setup
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.gameover import GameOverScene, ReplayScene
from suite.worldwar.screens.setup import SMALL_RANDOM, SetupScene

MAX_STEPS = 3000


def point_of(scene: GameScene, t: int) -> tuple[int, int]:
    """A screen point inside territory `t`."""
    pos = scene.map.point_in(t)
    assert pos is not None
    return pos


def configure(h: Harness, setup: SetupScene, *, clock: int = 0) -> None:
    """Small random map, a random bot, instant bots, seed 7: all by clicks and typing."""
    while setup.map_choice.value != SMALL_RANDOM[0]:
        h.click(setup.map_choice)
    h.click(setup.rows[1].kind, button=3)  # easy -> random bot
    assert setup.rows[1].kind.value == "random"
    while setup.speed.value != 0.0:
        h.click(setup.speed)
    while setup.clock.value != clock:
        h.click(setup.clock)
    assert setup.seed_entry is not None
    h.click(setup.seed_entry)
    h.type_text("7")
    h.frames(2)


def best_border(scene: GameScene, seat: int) -> int:
    st = scene.match.local.state
    adj = st.topo.adj
    mine = [t for t in range(len(st.owner)) if st.owner[t] == seat]
    border = [t for t in mine if any(st.owner[n] != seat for n in adj[t])] or mine
    return max(border, key=lambda t: (st.armies[t], -t))


def best_attack(scene: GameScene, seat: int) -> tuple[int, int] | None:
    st = scene.match.local.state
    best: tuple[float, int, int] | None = None
    for s in range(len(st.owner)):
        if st.owner[s] != seat or st.armies[s] < 3:
            continue
        for t in st.topo.adj[s]:
            if st.owner[t] != seat:
                win = battle(st.armies[s], st.armies[t]).win
                if win > 0.5 and (best is None or win > best[0]):
                    best = (win, s, t)
    return None if best is None else (best[1], best[2])


class Player:
    """Plays the human seat by events; takes the screenshots along the way."""

    def __init__(self, h: Harness, scene: GameScene, artifacts: Path) -> None:
        self.h = h
        self.g = scene
        self.artifacts = artifacts
        self.shots: set[str] = set()
        self.shifted = False

    def shot(self, name: str) -> None:
        if name not in self.shots:
            self.shots.add(name)
            self.h.frames(2)
            self.h.screenshot(self.artifacts / f"ww_{name}.png")

    def move(self) -> None:
        h, g = self.h, self.g
        st = g.match.local.state
        seat = g.human_turn()
        assert seat is not None
        phase = st.phase
        if phase in ("setup", "place"):
            if phase == "place" and st.view(seat).must_turn_in:
                assert g.cards.open  # forced turn-ins open the panel
                self.shot("cards")
                h.key(pygame.K_b)
                h.key(pygame.K_t)
                return
            hand = st.view(seat).hand
            if phase == "place" and len(hand) >= 3 and "cards" not in self.shots:
                h.key(pygame.K_c)
                assert g.cards.open
                self.shot("cards")
                h.key(pygame.K_c)
            t = best_border(g, seat)
            if phase == "place" and g.to_place() >= 5 and not self.shifted:
                pygame.key.set_mods(pygame.KMOD_SHIFT)
                before = sum(n for _, n in g.buffer)
                h.click(point_of(g, t))
                pygame.key.set_mods(pygame.KMOD_NONE)
                self.shifted = True
                if g.to_place() > 5:
                    assert sum(n for _, n in g.buffer) == before + 5
                    h.key(pygame.K_u)  # undo takes the 5 back
                    assert sum(n for _, n in g.buffer) == before
                return
            h.click(point_of(g, t))
        elif phase == "cards":
            h.key(pygame.K_b)
            h.key(pygame.K_t)
            if st.phase == "cards":
                h.click(g.cards.skip_button)
        elif phase == "occupy":
            assert g.slider is not None and g.slider.lo == st.pending["min"]
            h.key(pygame.K_RETURN)
        elif phase == "attack":
            pair = best_attack(g, seat)
            if pair is None:
                h.key(pygame.K_e)
                return
            s, t = pair
            if g.selected != s:
                h.click(point_of(g, s))
            assert g.selected == s
            h.click(point_of(g, t))
            assert g.target == t
            if "attack_odds" not in self.shots:
                h.move(point_of(g, t))
                self.shot("attack_odds")
                h.key(pygame.K_SPACE)  # one roll with animated dice
                h.frames(12)
                self.shot("dice")
                if st.phase != "attack" or g.target is None:
                    return
            h.key(pygame.K_RETURN)
            h.frames(3)
        else:
            h.key(pygame.K_e)


def test_whole_game_by_events(artifacts: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        configure(h, setup, clock=180)
        h.screenshot(artifacts / "ww_setup.png")
        h.click(setup.start_button)
        game = h.scene
        assert isinstance(game, GameScene)
        assert game.match.seed == 7
        assert game.match.local.state.clock == 180
        player = Player(h, game, artifacts)
        steps = 0
        while not isinstance(h.scene, GameOverScene):
            steps += 1
            assert steps < MAX_STEPS, "the game did not end"
            if game.human_turn() is None:
                h.frames(1)
                continue
            if game.match.local.state.turn >= 6 and "midgame" not in player.shots:
                h.move(point_of(game, best_border(game, game.human_turn() or 0)))
                h.frames(40)
                player.shot("midgame")
                player.shot("clock")
            player.move()
        over = h.scene
        assert isinstance(over, GameOverScene)
        assert game.match.over
        assert over.replay_path is not None and over.replay_path.is_file()
        h.frames(2)
        h.screenshot(artifacts / "ww_game_over.png")
        assert {"attack_odds", "dice", "midgame", "clock"} <= player.shots
        assert {"dice", "conquest", "turn"} <= set(game.sound_at)  # the sounds were asked for
        h.click(over.replay_button)
        replay = h.scene
        assert isinstance(replay, ReplayScene)
        h.frames(60)
        assert replay.step > 0
        h.screenshot(artifacts / "ww_replay.png")
        h.key(pygame.K_ESCAPE)
        assert h.scene is over
        h.click(over.done_button)
        assert isinstance(h.scene, SetupScene)


@pytest.mark.parametrize("mode", ["increasing", "royalty", "poker"])
def test_card_faces_for_every_mode(mode: str, artifacts: Path) -> None:
    from suite.worldwar.screens.cards import CardsPanel

    with Harness(size=(1280, 800)) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        while setup.cards.value != mode:
            h.click(setup.cards)
        h.click(setup.start_button)
        game = h.scene
        assert isinstance(game, GameScene)
        st = game.match.local.state
        seat = game.humans[0]
        st.hands[seat] = list(range(0, 20, 4))[:5]  # five cards straight from the deck
        game.viewer = seat
        panel: CardsPanel = game.cards
        panel.open = True
        h.frames(3)
        assert len(panel.card_rects) == 5
        h.screenshot(artifacts / f"ww_cards_{mode}.png")
