"""World War rules: engine, cards, odds, bots and maps (no pygame).

`SPEC` registers the game as "worldwar" (found by `suite sim` through its entry point).

Modules: `engine` (the `WorldWar` state), `actions` (actions and events), `cards`
(decks and sets), `odds` (exact battle odds), `bots` (random, easy, hard, aggressive),
`legal` (lazy legal-action lists), `views` and `snapshot` (what a seat sees, saves),
`topology` (integer tables of a board), `data` (the rules numbers from
assets/worldwar/rules/rules.toml), `game` (create/load from configs), `maps` (boards).
"""

from __future__ import annotations

from suite.core.match import GameSpec, register_game
from suite.worldwar.rules.actions import WorldWarAction
from suite.worldwar.rules.bots import AggressiveBot, EasyBot, HardBot, RandomBot
from suite.worldwar.rules.engine import WorldWar
from suite.worldwar.rules.game import create, load

__all__ = ["SPEC", "WorldWar", "WorldWarAction", "create", "load"]

SPEC = register_game(
    GameSpec(
        name="worldwar",
        title="World War",
        create=create,
        load=load,
        action_type=WorldWarAction,
        players=(2, 6),
        default_config=lambda n: {"players": n, "map": "classic", "cards": "increasing"},
        bots={"random": RandomBot, "easy": EasyBot, "hard": HardBot, "aggressive": AggressiveBot},
        turn_of=lambda state: state.turn,
    )
)
