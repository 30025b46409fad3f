"""Shared World War test pieces: a small six-territory board and position builders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from suite.core.board import Board
from suite.core.match import parse_config
from suite.worldwar.rules import SPEC
from suite.worldwar.rules.engine import WorldWarState

SMALL = {
    "name": "small",
    "regions": [
        {"id": "west", "name": "West", "bonus": 2},
        {"id": "east", "name": "East", "bonus": 3},
    ],
    "nodes": [
        {"id": "a1", "region": "west", "neighbours": ["a2", "a3"]},
        {"id": "a2", "region": "west", "neighbours": ["a1", "a3"]},
        {"id": "a3", "region": "west", "neighbours": ["a1", "a2"], "sea_lanes": ["b1"]},
        {"id": "b1", "region": "east", "neighbours": ["b2"], "sea_lanes": ["a3"]},
        {"id": "b2", "region": "east", "neighbours": ["b1", "b3"]},
        {"id": "b3", "region": "east", "neighbours": ["b2"]},
    ],
}


@pytest.fixture(scope="session")
def small_board() -> Board:
    return Board.from_json(SMALL, source="small")


Position = Callable[..., WorldWarState]


@pytest.fixture(scope="session")
def position(small_board: Board) -> Position:
    """Build a state on the small board: owners/armies per territory, then any to_dict keys."""

    def build(
        owners: list[int],
        armies: list[int],
        players: int = 2,
        cards: str = "increasing",
        seed: int = 1,
        **extra: Any,
    ) -> WorldWarState:
        cfg = {"players": players, "cards": cards}
        cfg.update(extra.pop("config", {}))
        st = WorldWarState.new(small_board, parse_config(SPEC, cfg), seed)
        d = st.to_dict()
        d.update(owner=owners, armies=armies, phase="attack", current=0, turn=1, pool=0)
        d.update(setup_left=[0] * players, step_left=0)
        d.update(extra)
        return WorldWarState.from_dict(d, board=small_board)

    return build
