"""WoS Tactics rules: the battle engine, forecast, bots and requirements (no pygame).

Registers the game `tactics` (`SPEC`).
"""

from __future__ import annotations

from typing import Any

from suite.core.match import GameSpec, register_game
from suite.tactics.rules.actions import TacticsAction
from suite.tactics.rules.bots import BOTS
from suite.tactics.rules.state import TacticsState


def _load(d: dict[str, Any]) -> TacticsState:
    return TacticsState.from_dict(d)


def default_config(players: int) -> dict[str, Any]:
    """The default pack, each map in turn (by seed), all-rested turns, random armies."""
    return {
        "pack": None,
        "map": None,
        "players": players,
        "pieces_per_turn": 0,
        "armies": ["random"] * players,
    }


SPEC = register_game(
    GameSpec(
        name="tactics",
        title="WoS Tactics",
        create=TacticsState.create,
        load=_load,
        action_type=TacticsAction,
        players=(2, 4),
        default_config=default_config,
        bots=BOTS,
    )
)

__all__ = ["SPEC", "TacticsState", "TacticsAction", "default_config"]
