"""Hidden information, message by message (issue 20, item 2).

The contract suite checks views; this checks everything the server sends. Two servers run
the same match side by side (same seed, codes and tokens). Whole games are played through
fake connections, one per seat plus a spectator, and every message each receives is kept:

- **hidden state**: before each action, the second room's state becomes the first one's
  with only what one seat (the owner) may know changed (the contract suite's own
  perturbations: other hands, fogged figures and orders, experience); the same action is
  played in both. Every other seat's and the spectator's messages for that step, and a
  rejoining seat's catch-up, must be the same bytes. Steps whose public outcome the hidden
  information legitimately decides (a WoK turn resolving, a card drawn) show up as a
  different spectator stream and are not compared; the test requires most steps compared.
- **private actions**: in WoK the owner enters different secret orders or declares a
  different ally in each room; nobody else may receive anything different.
"""

from __future__ import annotations

import copy
import itertools
from collections import deque
from pathlib import Path
from typing import Any

import msgspec
import pytest

from suite.core.bots import make_bot
from suite.core.match import State, game_spec
from suite.core.rng import Rng
from suite.net import protocol as P
from suite.net.server import room as room_module
from suite.net.server.app import MatchServer
from suite.net.server.room import Room
from tests.contract.fixtures import FIXTURES

from .fakes import FakeConn, make_server

SEED = 2**90 + 12345
CONFIGS: dict[str, dict[str, Any]] = {
    "worldwar": {
        "players": 3,
        "map": "classic",
        "cards": "increasing",
        "max_turns": 6,
        "map_seed": 1,
    },
    "wok": {"players": 3, "variant": "skirmish", "max_turns": 3},
    "tactics": {"players": 3, "max_rounds": 6},
}


def _ww_hands_not_drawn(state: State, owner: int, rng: Rng) -> State | None:
    """World War: swap the owner's cards with deck cards that no draw of this step can
    reach (the top two stay), so only the owner's own knowledge differs."""
    data = state.to_dict()
    hand, deck = data["hands"][owner], data["deck"]
    if not hand or len(deck) < 3:
        return None
    for i in range(len(hand)):
        j = 2 + rng.randbelow(len(deck) - 2)
        hand[i], deck[j] = deck[j], hand[i]
    return game_spec("worldwar").load(data)


PERTURB = {
    "worldwar": _ww_hands_not_drawn,
    "wok": FIXTURES["wok"].perturb_hidden,
    "tactics": FIXTURES["tactics"].perturb_hidden,
}


class Table:
    """One server with one room of `game`: a fake connection per seat and a spectator."""

    def __init__(
        self,
        tmp: Path,
        game: str,
        monkeypatch: pytest.MonkeyPatch,
        config: dict[str, Any] | None = None,
    ) -> None:
        config = config or CONFIGS[game]
        self.server: MatchServer = make_server(tmp)
        self.server.draw_seed = lambda: SEED
        self.server.new_code = lambda: "HIDDEN"  # type: ignore[method-assign]
        counter = itertools.count()
        monkeypatch.setattr(room_module, "new_token", lambda: f"token-{next(counter)}")
        players = config["players"]
        self.seats = [FakeConn(self.server, f"p{i}") for i in range(players)]
        for conn in self.seats:
            conn.say(P.Hello(name=conn.name))
        self.seats[0].say(P.Create(game=game, config=config))
        for i, conn in enumerate(self.seats[1:], 1):
            conn.say(P.Join(code="HIDDEN", seat=i))
        self.spectator = FakeConn(self.server, "watcher")
        self.spectator.say(P.Hello(name="watcher"))
        self.spectator.say(P.Spectate(code="HIDDEN"))
        for conn in self.seats:
            conn.say(P.Ready(token=conn.token))
        self.room: Room = self.server.rooms["HIDDEN"]
        assert self.room.phase == "playing"

    def conns(self) -> list[FakeConn]:
        return [*self.seats, self.spectator]

    def marks(self) -> list[int]:
        return [len(c.raw) for c in self.conns()]

    def since(self, marks: list[int]) -> list[list[bytes]]:
        return [c.raw[m:] for c, m in zip(self.conns(), marks, strict=True)]

    def act(self, seat: int, action: dict[str, Any]) -> None:
        conn = self.seats[seat]
        answer = conn.say(P.Act(token=conn.token, state_id=self.room.state_id, action=action))
        errors = [m for m in answer if isinstance(m, P.Error)]
        assert not errors, errors


def _copy_room(source: Room, target: Room, state: State) -> None:
    """`target` becomes `source` with `state` (what the perturbation made)."""
    target.state = state
    target.state_id, target.fence = source.state_id, source.fence
    target.recent = deque(source.recent, maxlen=source.recent.maxlen)
    target.clock = copy.deepcopy(source.clock)
    target._last_clock = source._last_clock
    target._legal = room_module._LegalCache()


def _next_action(table: Table, bots: list[Any], rng: Rng) -> tuple[int, dict[str, Any]]:
    state = table.room.state
    seat = min(state.awaiting())
    action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
    return seat, msgspec.to_builtins(action)


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_no_seat_receives_a_byte_more_than_it_may_know(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Table(tmp_path / "a", game, monkeypatch)
    other = Table(tmp_path / "b", game, monkeypatch)
    spec = game_spec(game)
    bots = [make_bot(spec, "random") for _ in real.seats]
    rng, hidden_rng = Rng(3), Rng(4)
    steps = perturbed_steps = compared = 0
    while real.room.phase == "playing" and steps < 400:
        seat, action = _next_action(real, bots, rng)
        owners = [s for s in range(len(real.seats)) if s != seat]
        owner = owners[steps % len(owners)]
        perturbed = PERTURB[game](real.room.state, owner, hidden_rng)
        steps += 1
        if perturbed is None:
            real.act(seat, action)
            continue
        perturbed_steps += 1
        _copy_room(real.room, other.room, perturbed)
        before_real, before_other = real.marks(), other.marks()
        real.act(seat, action)
        other.act(seat, action)
        rejoiner = (owner + 1) % len(real.seats)
        since = max(0, real.room.state_id - 3)
        for table in (real, other):
            conn = table.seats[rejoiner]
            conn.say(P.Rejoin(token=conn.token, since=since))
        got_real, got_other = real.since(before_real), other.since(before_other)
        if got_real[-1] != got_other[-1]:
            continue  # the hidden information decided a public outcome (resolution)
        compared += 1
        for index, (a, b) in enumerate(zip(got_real, got_other, strict=True)):
            if index != owner:
                assert a == b, f"{game}: seat {index} learnt what seat {owner} knows (step {steps})"
    assert real.room.phase == "over" or steps >= 400
    assert perturbed_steps >= 9 and compared >= perturbed_steps * 0.6, (compared, perturbed_steps)


def test_wok_secret_orders_and_alliances_reach_no_one_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alliances = {"players": 6, "variant": "standard", "max_turns": 3}  # W13: 6 or more
    real = Table(tmp_path / "a", "wok", monkeypatch, alliances)
    other = Table(tmp_path / "b", "wok", monkeypatch, alliances)
    owner = 1
    view = real.room.state.view(owner)
    colour = view.colours[0].colour
    partners = [c for c in range(len(real.seats)) if c != colour]
    home = real.room.state.legal(owner).describe()["colours"][0]["provinces"][0]
    transform = {"province": home, "kind": "POP_ARM", "amount": 1}
    variants = [
        (
            {"kind": "ally", "colour": colour, "partner": partners[0]},
            {"kind": "ally", "colour": colour, "partner": partners[1]},
        ),
        (
            {"kind": "orders", "sets": [{"colour": colour}], "ready": False},
            {
                "kind": "orders",
                "sets": [{"colour": colour, "transforms": [transform]}],
                "ready": False,
            },
        ),
    ]
    for mine, theirs in variants:
        before_real, before_other = real.marks(), other.marks()
        real.act(owner, mine)
        other.act(owner, theirs)
        got_real, got_other = real.since(before_real), other.since(before_other)
        for index, (a, b) in enumerate(zip(got_real, got_other, strict=True)):
            if index != owner:
                assert a == b, f"seat {index} learnt seat {owner}'s secret action"
        assert got_real[owner] != got_other[owner]  # the owner hears its own action
    late = FakeConn(real.server, "late")
    late.say(P.Hello(name="late"))
    late.say(P.Spectate(code="HIDDEN"))
    seen = b"".join(late.raw)
    assert b'"kind":"ally"' not in seen and b'"partner"' not in seen
