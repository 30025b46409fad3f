"""Hostile input at a server with matches in progress (issue 20's property suite).

Hypothesis sends garbled bytes, oversized and deeply nested JSON, known message types with
wrong-typed or random fields, garbage actions with real seat tokens, and heavy create
configs. After every message: no exception escaped, every match in progress is exactly as
it was, and the connection is still served. At the end every match plays on to its end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from suite.core.bots import make_bot
from suite.core.match import game_spec
from suite.core.rng import Rng
from suite.net import protocol as P
from suite.net.server.app import MatchServer

from .fakes import FakeConn, make_server, open_room

TYPES = [
    "hello", "create", "join", "rejoin", "spectate", "ready", "unready", "action", "legal",
    "chat", "leave", "poke", "run_now", "seat_bot", "kick", "pause", "resume", "end",
    "pack_request", "replay_request", "rooms", "nonsense",
]  # fmt: skip

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)

FIELDS = ["name", "game", "config", "code", "seat", "token", "state_id", "action", "page",
          "text", "bot", "path", "offset", "since", "public", "protocol", "seed"]  # fmt: skip


@st.composite
def shaped_messages(draw: st.DrawFn, tokens: list[str]) -> bytes:
    """A message of a known (or unknown) type with random fields, some of them real."""
    body: dict[str, Any] = {"type": draw(st.sampled_from(TYPES))}
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=6, unique=True)):
        body[field] = draw(json_values)
    if draw(st.booleans()) and tokens:
        body["token"] = draw(st.sampled_from(tokens))
    if body["type"] == "action":  # a garbage action: never a real action kind
        body["action"] = {"kind": "zz" + draw(st.text(max_size=8)), "x": draw(json_values)}
    return msgspec.json.encode(body)


@st.composite
def heavy_creates(draw: st.DrawFn) -> bytes:
    """A create with a config made to cost: huge numbers, long lists, deep nesting."""
    game = draw(st.sampled_from(["worldwar", "wok", "tactics"]))
    config: dict[str, Any] = {
        key: draw(
            st.integers(min_value=-(2**80), max_value=2**80)
            | st.text(max_size=200)
            | st.lists(st.integers(), max_size=300)
            | json_values
        )
        for key in draw(
            st.lists(
                st.sampled_from(
                    [
                        "players",
                        "map",
                        "max_turns",
                        "rules",
                        "names",
                        "armies",
                        "clock",
                        "map_seed",
                        "robots",
                        "max_rounds",
                        "army_size",
                        "profiles",
                        "pack",
                    ]
                ),  # fmt: skip
                max_size=4,
                unique=True,
            )
        )
    }
    depth = draw(st.integers(min_value=0, max_value=2000))
    if depth > 10:
        config["deep"] = msgspec.Raw(b"[" * depth + b"]" * depth)
    return msgspec.json.encode({"type": "create", "game": game, "config": config})


def nested(depth: int) -> bytes:
    return b'{"type":"chat","text":' + b"[" * depth + b"]" * depth + b"}"


raw_messages = (
    st.binary(max_size=300)
    | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass"))
    | st.integers(min_value=10, max_value=5000).map(nested)
    | st.integers(min_value=P.MAX_MESSAGE - 10, max_value=P.MAX_MESSAGE + 10).map(
        lambda n: b'{"type":"chat","text":"' + b"x" * n + b'"}'
    )
    | json_values.map(msgspec.json.encode)
)


class Arena:
    """A server with one match of each game in progress and an attacker."""

    def __init__(self, tmp: Path) -> None:
        self.server: MatchServer = make_server(
            tmp, max_lobbies_per_connection=1000, max_lobbies_per_address=1000, max_rooms=1000
        )
        self.rooms = [
            open_room(self.server, "worldwar", {"players": 2, "max_turns": 8}, 2, seed=1)[0],
            open_room(self.server, "wok", {"players": 2, "max_turns": 3}, 2, seed=2)[0],
            open_room(self.server, "tactics", {"players": 2, "max_rounds": 8}, 2, seed=3)[0],
        ]
        self.tokens = [s.token for r in self.rooms for s in r.seats if s.token]
        self.attacker = FakeConn(self.server, "mallory", "198.51.100.7")
        self.attacker.say(P.Hello(name="mallory"))

    def snapshot(self) -> list[tuple[int, str, bytes]]:
        return [(r.state_id, r.phase, msgspec.json.encode(r.state.to_dict())) for r in self.rooms]


def _check(arena: Arena, data: bytes) -> None:
    before = arena.snapshot()
    answered = len(arena.attacker.out)
    arena.server.receive(arena.attacker, data)  # type: ignore[arg-type]
    assert arena.snapshot() == before
    assert arena.server.receive(arena.attacker, P.encode(P.ListRooms())) is None  # type: ignore[arg-type]
    assert len(arena.attacker.out) > answered  # still served


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_garbled_messages_change_nothing(tmp_path: Path) -> None:
    arena = Arena(tmp_path)

    @FUZZ
    @given(raw_messages)
    def attack(data: bytes) -> None:
        _check(arena, data)

    attack()
    _plays_on(arena)


def test_wrong_typed_messages_with_real_tokens_change_nothing(tmp_path: Path) -> None:
    arena = Arena(tmp_path)

    @FUZZ
    @given(st.data())
    def attack(data: st.DataObject) -> None:
        message = data.draw(shaped_messages(arena.tokens))
        if any(f'"type":"{t}"'.encode() in message for t in ("end", "leave", "rejoin")):
            return  # a seat's own token may end, leave or take its seat back: not an attack
        before = arena.snapshot()
        arena.server.receive(arena.attacker, message)  # type: ignore[arg-type]
        assert arena.snapshot() == before

    attack()
    _plays_on(arena)


def test_heavy_configs_are_refused_or_bounded(tmp_path: Path) -> None:
    arena = Arena(tmp_path)

    @FUZZ
    @given(heavy_creates())
    def attack(data: bytes) -> None:
        _check(arena, data)
        for room in list(arena.server.rooms.values()):
            if room not in arena.rooms:  # a config that passed: bounded views
                for seat in [None, *range(len(room.seats))]:
                    assert len(msgspec.json.encode(room.state.view(seat))) < P.MAX_MESSAGE
                del arena.server.rooms[room.code]

    attack()
    _plays_on(arena)


def _plays_on(arena: Arena) -> None:
    """Every match still plays to its end, with random bots on every seat."""
    rng = Rng(9)
    for room in arena.rooms:
        bot = make_bot(game_spec(room.game), "random")
        for _ in range(20_000):
            if room.phase != "playing":
                break
            seat = min(room.state.awaiting())
            action = bot.choose(room.state.view(seat), room.state.legal(seat), rng)
            room._commit(_act(seat, action))
        assert room.phase == "over", room.game


def _act(seat: int, action: Any) -> Any:
    from suite.net.server.turns import ActOp

    return ActOp(seat=seat, action=msgspec.to_builtins(action))
