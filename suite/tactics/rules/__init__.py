"""WoS Tactics rules: the battle engine, forecast, bots and requirements (no pygame).

Registers the game `tactics` (`SPEC`). The modules, one job each:
- `data`: the rule numbers (assets/tactics/rules/tactics.toml) as typed `Rules`;
- `config`: the match config record `TacticsConfig`;
- `view`: `TacticsView`, what a seat (or a spectator) sees;
- `packs`: packs and maps loaded once (`get_pack`, `get_terrain`, `resolve_map`);
- `terrain`: reachability (T2), shot lines (T3) and march distances on flat lists;
- `combat`, `forecast`: the equations (T4-T6) and the info popup's `Forecast`;
- `armies`, `requirements`: army checks, random and value-model armies, formations (T8);
  requirement strings and profiles (T12);
- `actions`: the typed actions and events (`TacticsEvent`, ending with the core
  `GameOver`); `state`: `TacticsState`, the engine;
- `bots`: random, normal and hard bots; `expert`: the hard bot with the enemy's reply
  played out; `arena`: bot-against-bot battles.

Quick use::

    state = TacticsState.create({"players": 2, "map": 1}, seed=7)
    seat = state.current
    state.apply(seat, state.legal(seat)[0])          # Select, Move, Attack, ... EndTurn
    state.forecast(attacker_unit, target_unit)       # miss %, crit %, damage, dominance
"""

from __future__ import annotations

from typing import Any

from suite.core.match import GameSpec, SimOption, register_game
from suite.tactics.rules.actions import TacticsAction, TacticsEvent
from suite.tactics.rules.bots import BOTS
from suite.tactics.rules.config import TacticsConfig
from suite.tactics.rules.expert import ExpertBot
from suite.tactics.rules.state import TacticsState
from suite.tactics.rules.view import TacticsView

BOTS_BY_NAME = {**BOTS, "expert": ExpertBot}
"""Every Tactics bot by name, weakest first: random, normal, hard, expert."""

BLURB = "Squad battles on isometric hills: height, rest and crits."


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


def turns_played(state: TacticsState) -> int:
    """Whole rounds a battle has played (for `suite sim`'s turns per game)."""
    return state.round if state.outcome() is None else max(1, state.round - 1)


SPEC = register_game(
    GameSpec(
        name="tactics",
        title="WoS Tactics",
        create=TacticsState.create,
        load=_load,
        action_type=TacticsAction,
        players=(2, 4),
        default_config=default_config,
        bots=BOTS_BY_NAME,
        turn_of=turns_played,
        config_type=TacticsConfig,
        view_type=TacticsView,
        event_type=TacticsEvent,
        blurb=BLURB,
        order=30,
        ui="suite.tactics.screens:UI",
        save_kind="tactics-battle",
        sim_options=(
            SimOption("--pack", "pack", "pack folder (default: the shipped pack)"),
            SimOption(
                "--pieces-per-turn",
                "pieces_per_turn",
                "pieces a player moves per turn: 1-4, or 0 for all rested",
                int,
            ),
        ),
    )
)

__all__ = [
    "SPEC",
    "TacticsAction",
    "TacticsConfig",
    "TacticsEvent",
    "TacticsState",
    "TacticsView",
    "default_config",
]
