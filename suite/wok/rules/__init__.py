"""WoK rules: rule sets, orders, the turn engine and robots (no pygame).

`SPEC` registers the game as "wok" (see `suite.core.match.GameSpec`).
"""

from __future__ import annotations

from typing import Any

from suite.core.bots import RandomBot
from suite.core.match import GameSpec, register_game
from suite.wok.rules.bots import GeneralBot, RobotBot
from suite.wok.rules.orders import WokAction
from suite.wok.rules.state import WokState, create


def default_config(players: int) -> dict[str, Any]:
    """A Skirmish for `players` on the shipped map made for them."""
    return {"players": players, "variant": "skirmish"}


def _load(d: dict[str, Any]) -> WokState:
    return WokState.from_dict(d)


SPEC = register_game(
    GameSpec(
        name="wok",
        title="WoK",
        create=create,
        load=_load,
        action_type=WokAction,
        players=(2, 10),
        default_config=default_config,
        bots={"random": RandomBot, "robot": RobotBot, "general": GeneralBot},
    )
)

__all__ = ["SPEC", "WokState", "create", "default_config"]
