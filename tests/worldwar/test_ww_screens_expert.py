"""The expert on the World War screens: offered on the set-up screen, it thinks in the
worker process while the window goes on drawing and taking input, and leaving the game
stops its search at once (issue 25, item 4)."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from suite.core.thinking import shared_thinker
from suite.ui.dialogs import ConfirmScene
from suite.ui.harness import Harness
from suite.worldwar.screens import open_setup
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.hud import instructions
from suite.worldwar.screens.setup import SetupScene

PATIENCE = 120.0
"""Seconds of real time a step may take before the test gives up (never reached)."""


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_expert_is_offered_thinks_in_its_worker_and_stops_when_left(
    artifacts: Path, size: tuple[int, int]
) -> None:
    shared_thinker().patience = 0.0  # the window does not wait (conftest: 60 s)
    with Harness(size=size) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        for row, kind in ((0, "hard"), (1, "expert")):
            while setup.rows[row].kind.value != kind:
                h.click(setup.rows[row].kind)
        h.screenshot(artifacts / f"ww_setup_expert_{size[0]}.png")
        h.click(setup.start_button)
        h.frames(2)
        game = h.scene
        assert isinstance(game, GameScene)
        assert [s.kind for s in game.match.seats] == ["hard", "expert"]
        replay = game.match.replay
        # Frames go on while the expert thinks; its moves land when its worker answers.
        drawn_while_thinking = 0
        deadline = time.monotonic() + PATIENCE
        while not any(step.seat == 1 for step in replay.actions[-1:]) or drawn_while_thinking < 3:
            assert time.monotonic() < deadline, "the expert never acted"
            if game.match.thinking:
                before = h.app.draws
                h.move((200 + drawn_while_thinking % 300, 300))
                drawn_while_thinking += h.app.draws > before
                if drawn_while_thinking == 1:
                    assert instructions(game)[0].endswith("is thinking...")
                    h.screenshot(artifacts / f"ww_expert_thinking_{size[0]}.png")
            else:
                h.frames(1)
            time.sleep(0.005)
        # Leave while it thinks: the search stops, nothing more is played.
        while not game.match.thinking:
            assert time.monotonic() < deadline, "the expert never thought again"
            h.frames(1)
            time.sleep(0.002)
        worker = shared_thinker()._process
        assert worker is not None and worker.is_alive()
        moves = len(replay.actions)
        h.key(pygame.K_ESCAPE)
        h.click(h.scene.buttons[3])  # Leave game
        assert isinstance(h.scene, ConfirmScene)
        h.key(pygame.K_RETURN)
        assert isinstance(h.scene, SetupScene)
        assert not worker.is_alive() and not game.match.thinking
        h.frames(5)
        assert len(replay.actions) == moves
