"""World War rules: engine, cards, odds, bots and maps (no pygame).

`SPEC` registers the game as "worldwar" (found by `suite sim` and the launcher through
its entry point).

Modules: `engine` (the `WorldWarState`), `config` (the typed match config), `actions`
(actions and events), `views` (what a seat sees), `cards` (card modes, decks and sets),
`odds` (exact battle odds), `bots` (random, easy, hard, aggressive), `expert` (the
search bot), `legal` (lazy
legal-action lists), `snapshot` (saves), `topology` (integer tables of a board), `data`
(the rules numbers from assets/worldwar/rules/rules.toml), `game` (the board a config
names), `maps` (boards).
"""

from __future__ import annotations

from suite.core.match import GameSpec, register_game
from suite.worldwar.rules.actions import WorldWarAction, WorldWarEvent
from suite.worldwar.rules.bots import AggressiveBot, EasyBot, HardBot, RandomBot
from suite.worldwar.rules.config import WorldWarConfig
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.rules.expert import ExpertBot
from suite.worldwar.rules.legal import list_json
from suite.worldwar.rules.views import WorldWarView

__all__ = ["SPEC", "WorldWarAction", "WorldWarConfig", "WorldWarState", "WorldWarView"]

SAVE_KIND = "worldwar-save"

SPEC = register_game(
    GameSpec(
        name="worldwar",
        title="World War",
        create=WorldWarState.create,
        load=WorldWarState.from_dict,
        action_type=WorldWarAction,
        players=(2, 6),
        default_config=lambda n: {"players": n, "map": "classic", "cards": "increasing"},
        bots={
            "random": RandomBot,
            "easy": EasyBot,
            "hard": HardBot,
            "aggressive": AggressiveBot,
            "expert": ExpertBot,
        },
        turn_of=lambda state: state.rounds(),
        config_type=WorldWarConfig,
        view_type=WorldWarView,
        event_type=WorldWarEvent,
        blurb="Conquer the map with dice battles, card sets and a turn clock.",
        ui="suite.worldwar.screens:UI",
        order=10,
        save_kind=SAVE_KIND,
        static_view=("map", "rules"),
        legal_json=list_json,
    )
)
