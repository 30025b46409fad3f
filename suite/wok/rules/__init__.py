"""WoK rules: rule sets, orders, the turn engine and robots (no pygame).

`SPEC` registers the game as "wok" (see `suite.core.match.GameSpec`). The pieces:

- `ruleset`: every number of a rule set (Standard, Intermediate, WoK IV), typed records
  read from assets/wok/rules/<name>.toml, including the order of its phases;
- `troops`: Intermediate's troop types and their battles;
- `trading` / `covert`: WoK IV's Phase V tech trades and Phase VI spy operations;
- `contest`: W6 contests, and WoK IV's fights in which DEF wears away;
- `config`: `WokConfig`, the typed match config;
- `orders`: the typed orders, `SubmitOrders` and the other actions, entry checks;
- `legality`: whether an action is accepted (shared by the engine and `legal()`);
- `state`: `WokState` (the game contract, simultaneous orders with ready flags), `create`;
- `views` / `viewing`: the typed seat and spectator views and how they are built (a
  finished game's spectator view shows every province's figures);
- `history`: a replay turn by turn as views (a finished game's public views reveal all);
- `phases` / `turn`: the phases every rule set picks from and the turn runner, endings
  and scores;
- `reports`: per-colour turn reports; `events`: public events;
- `robots` (S16), `bots` ("robot", "general"), `space` (random order sets), `belief`;
- `clock`: the W12 turn clock driven by passed-in time;
- `mapgen` / `maps`: seeded island maps and the shipped Trial, Star Islands, Kaomaris.
"""

from __future__ import annotations

from typing import Any

from suite.core.bots import RandomBot
from suite.core.match import GameSpec, register_game
from suite.wok.rules.bots import GeneralBot, RobotBot
from suite.wok.rules.config import WokConfig
from suite.wok.rules.events import WokEvent
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    DeclareAlly,
    Move,
    OrderSet,
    Quit,
    SetAim,
    SetReady,
    Spy,
    SubmitOrders,
    Trade,
    Transform,
    Upgrade,
    Vote,
    WokAction,
)
from suite.wok.rules.state import WokState, create
from suite.wok.rules.views import WokSpectatorView, WokView, WokViews


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
        turn_of=lambda state: max(0, state.turn - 1),
        config_type=WokConfig,
        view_type=WokViews,
        event_type=WokEvent,
        blurb="Secret orders, then the turn runs for every kingdom at once.",
        order=20,
        ui="suite.wok.screens:UI",
        save_kind="wok-save",
        # Orders and alliance declarations are secret (W13: an ally is told only when
        # the alliance is mutual, by the engine's alliance_changed event).
        public_actions=frozenset({"ready", "vote", "quit"}),
        static_view=("rules", "map"),
    )
)

__all__ = [
    "SPEC",
    "Attack",
    "Bomb",
    "DeclareAlly",
    "GeneralBot",
    "Move",
    "OrderSet",
    "Quit",
    "RobotBot",
    "SetAim",
    "SetReady",
    "Spy",
    "SubmitOrders",
    "Trade",
    "Transform",
    "Upgrade",
    "Vote",
    "WokAction",
    "WokConfig",
    "WokEvent",
    "WokSpectatorView",
    "WokState",
    "WokView",
    "create",
    "default_config",
]
