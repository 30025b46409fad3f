"""The small per-game part of the contract suite.

Each game names the configs its random playouts use (bounded so that random play ends),
what information it hides, and `perturb_hidden`: a copy of a state in which only
information hidden from everyone but `owner` differs. The suite then checks that no other
seat's view or legal actions change. This is the only game-specific code of the suite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from suite.core.match import Seat, State, game_spec
from suite.core.rng import Rng

Perturb = Callable[[State, Seat, Rng], State | None]


@dataclass(frozen=True)
class GameFixture:
    """How the contract suite plays one game."""

    config: Callable[[int], dict[str, Any]]
    """A config for n players whose random playouts end in a bounded number of actions."""
    player_counts: tuple[int, ...]
    hidden: str
    """What the game hides, in words (cards in hands, fogged provinces, ...)."""
    perturb_hidden: Perturb
    """A state equal to the given one except for information only `owner` may know;
    None when `owner` holds no hidden information at this moment."""
    max_actions: int = 20_000


def _reload(game: str, data: dict[str, Any]) -> State:
    return game_spec(game).load(data)


def _worldwar_hands(state: State, owner: Seat, rng: Rng) -> State | None:
    """Swap the owner's cards for cards still in the deck (the count stays the same)."""
    data = state.to_dict()
    hand, deck = data["hands"][owner], data["deck"]
    if not hand or not deck:
        return None
    for i in range(len(hand)):
        j = rng.randbelow(len(deck))
        hand[i], deck[j] = deck[j], hand[i]
    if data["hands"][owner] == state.to_dict()["hands"][owner]:
        return None
    return _reload("worldwar", data)


def _wok_fog(state: State, owner: Seat, rng: Rng) -> State | None:
    """Change what fog hides of the owner: its provinces' figures and its draft orders."""
    data = state.to_dict()
    colours = set(data["seat_colours"][owner])
    provinces = data["provinces"]
    changed = False
    for index, holder in enumerate(provinces["owner"]):
        if holder in colours:
            for key in ("pop", "wok", "spy", "mis"):
                if key in provinces:
                    provinces[key][index] = (provinces[key][index] + 1 + rng.randbelow(5)) % 90
                    changed = True
    for colour in colours:
        record = data["colours"][colour]
        record["gold"] = record.get("gold", 0) + 1 + rng.randbelow(50)
        record["tech"] = min(999, record.get("tech", 0) + 1 + rng.randbelow(9))
        changed = True
    orders = data.get("orders", {})
    if str(owner) in orders:
        orders.pop(str(owner))
        changed = True
    return _reload("wok", data) if changed else None


def _tactics_xp(state: State, owner: Seat, rng: Rng) -> State | None:
    """Tactics is a game of full information but for experience, which only its owner
    sees (the XP meter is drawn on one's own pieces)."""
    data = state.to_dict()
    units = [u for u in data["units"] if u["seat"] == owner and u["hp"] > 0]
    if not units:
        return None
    for unit in units:
        unit["xp"] = (unit["xp"] + 1 + rng.randbelow(7)) % 40
    return _reload("tactics", data)


WOK_RULESETS = {4: "wok4", 5: "intermediate"}
"""Which WoK rule set the playouts of each player count use (the others: Standard)."""

FIXTURES: dict[str, GameFixture] = {
    "worldwar": GameFixture(
        config=lambda n: {"players": n, "map": "classic", "cards": "increasing", "max_turns": 12},
        player_counts=(2, 4, 6),
        hidden="the cards in each hand (others see only how many) and the deck's order",
        perturb_hidden=_worldwar_hands,
    ),
    "wok": GameFixture(
        config=lambda n: {
            "players": n,
            "variant": "skirmish",
            "ruleset": WOK_RULESETS.get(n, "standard"),
            "max_turns": 6,
        },
        player_counts=(2, 4, 5, 10),
        hidden="the figures of provinces under fog (intel shows only what spies saw, "
        "with its turn), gold, and every seat's orders until the turn runs",
        perturb_hidden=_wok_fog,
    ),
    "tactics": GameFixture(
        config=lambda n: {"players": n, "max_rounds": 12},
        player_counts=(2, 3, 4),
        hidden="each piece's experience, shown only to its owner",
        perturb_hidden=_tactics_xp,
    ),
}
