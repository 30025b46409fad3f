"""A tiny real game for testing the core contract: "race to 21".

Seats take turns adding to a shared total. A seat either steps 1-3 or gambles (adds a
d3 drawn from the state's own Rng, capped at what is left). Whoever brings the total to
exactly the target wins. Stepping past the target is illegal.

Not a test module: tests load it by path (see the `race21` fixture in
`tests/core/conftest.py`) and register `SPEC` only for the duration of a test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from suite.core.match import Action, Event, GameSpec, IllegalAction, Outcome, Seat
from suite.core.rng import Rng

NAME = "race21"


class Step(Action, tag="step"):
    amount: int


class Gamble(Action, tag="gamble"):
    pass


class Moved(Event, tag="moved"):
    seat: int
    amount: int
    total: int


class Won(Event, tag="won"):
    seat: int


class RaceState:
    """The state of one race; follows `suite.core.match.State`."""

    game = NAME

    def __init__(self, players: int, target: int, rng: Rng) -> None:
        self.players = players
        self.target = target
        self.rng = rng
        self.total = 0
        self.turn = 0
        self.winner: Seat | None = None
        self.moves = 0

    def awaiting(self) -> frozenset[Seat]:
        return frozenset() if self.winner is not None else frozenset({self.turn})

    def legal(self, seat: Seat) -> Sequence[Action]:
        if seat not in self.awaiting():
            return []
        left = self.target - self.total
        return [*(Step(k) for k in range(1, min(3, left) + 1)), Gamble()]

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        if self.winner is not None:
            raise IllegalAction("the race is over")
        if seat != self.turn:
            raise IllegalAction(f"seat {seat} is not to move (seat {self.turn} is)")
        left = self.target - self.total
        if isinstance(action, Step):
            if not 1 <= action.amount <= 3:
                raise IllegalAction(f"a step is 1-3, not {action.amount}")
            if action.amount > left:
                raise IllegalAction(f"a step of {action.amount} passes the target")
            amount = action.amount
        elif isinstance(action, Gamble):
            amount = min(left, self.rng.randint(1, 3))
        else:
            raise IllegalAction(f"not a race action: {action!r}")
        self.total += amount
        self.moves += 1
        events: list[Event] = [Moved(seat, amount, self.total)]
        if self.total == self.target:
            self.winner = seat
            events.append(Won(seat))
        else:
            self.turn = (self.turn + 1) % self.players
        return events

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {"total": self.total, "target": self.target, "to_move": self.turn}

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        rest = tuple(s for s in range(self.players) if s != self.winner)
        return Outcome((self.winner,), ((self.winner,), rest), "reached the target")

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "players": self.players,
            "target": self.target,
            "total": self.total,
            "turn": self.turn,
            "winner": self.winner,
            "moves": self.moves,
            "rng": self.rng.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RaceState:
        state = cls(int(d["players"]), int(d["target"]), Rng.from_dict(d["rng"]))
        state.total = int(d["total"])
        state.turn = int(d["turn"])
        state.winner = None if d["winner"] is None else int(d["winner"])
        state.moves = int(d["moves"])
        return state


def create(config: Mapping[str, Any], seed: int) -> RaceState:
    players = int(config.get("players", 2))
    if not 2 <= players <= 4:
        raise ValueError(f"race21 takes 2-4 players, not {players}")
    return RaceState(players, int(config.get("target", 21)), Rng(seed))


class FirstBot:
    """Always takes the first legal action (a second bot kind for `--bots`)."""

    name = "first"

    def choose(self, view: Mapping[str, Any], legal: Any, rng: Rng) -> Action:
        first: Action = legal[0]
        return first


SPEC = GameSpec(
    name=NAME,
    title="Race to 21",
    create=create,
    load=RaceState.from_dict,
    action_type=Step | Gamble,
    players=(2, 4),
    default_config=lambda n: {"players": n, "target": 21},
    bots={"first": FirstBot},
)
