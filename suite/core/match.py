"""The game contract every engine implements (see DESIGN.md), the game registry and replays.

A game is a pure, deterministic state machine. The same seed and the same actions give
the same state. Chance comes only from the state's own `Rng`.

Games register a `GameSpec` with `register_game`; installed games are also found through
the ``warsuite.games`` entry-point group, so `core` never imports a game by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import msgspec

from suite.core.rng import Rng

Seat = int
"""A seat is a player's index in the match, 0..players-1."""


class IllegalAction(ValueError):
    """An action the state refused. `reason` says why; the state is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Action(msgspec.Struct, frozen=True, tag_field="kind"):
    """Base of every action record. Subclasses set ``tag="..."`` for their `kind`."""


class Event(msgspec.Struct, frozen=True, tag_field="kind"):
    """Base of every event record: what happened, for screens, reports and the server."""


class Outcome(msgspec.Struct, frozen=True):
    """How a game ended.

    `winners` holds the winning seats (several for a shared victory); `places` lists the
    seats from first to last (ties share a tuple); `reason` is a short human text.
    """

    winners: tuple[Seat, ...]
    places: tuple[tuple[Seat, ...], ...]
    reason: str


@runtime_checkable
class ActionSpace(Protocol):
    """What a seat may do when its options are too many to list (WoK order sets).

    `contains` answers legality without raising; `sample` draws one legal action.
    """

    def contains(self, action: Action) -> bool: ...

    def sample(self, rng: Rng) -> Action: ...


Legal = Sequence[Action] | ActionSpace


class State(Protocol):
    """The state of one match of one game."""

    game: str

    def awaiting(self) -> frozenset[Seat]:
        """Seats whose action the game waits for (several at once for simultaneous orders)."""

    def legal(self, seat: Seat) -> Legal:
        """What `seat` may do now (empty when it is not awaited)."""

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Validate then perform. On a bad action raise IllegalAction and change nothing."""

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """Only what `seat` may see; None is a spectator."""

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot; `from_dict(to_dict())` gives an equal state."""


@dataclass(frozen=True)
class SimOption:
    """An extra `suite sim` flag a game offers: `--flag VALUE` sets config[`key`]."""

    flag: str
    key: str
    help: str
    type: Callable[[str], Any] = str


@dataclass(frozen=True)
class GameSpec:
    """How the core creates, restores and decodes one game.

    `create(config, seed)` makes a new state; `load(d)` restores `to_dict()` output;
    `action_type` is a type msgspec can convert plain dicts into (a tagged union of the
    game's actions); `players` is the allowed range of seats; `default_config(n)` gives a
    playable config for n players (used by `suite sim`, which overlays its `--map`,
    `--variant`, `--cards` and `--max-turns` options as the config keys "map", "variant",
    "cards" and "max_turns"); `bots` maps bot names to factories of objects following
    `suite.core.bots.Bot` (the random bot is always available as "random"); `turn_of`,
    when given, counts the turns a state has played.
    """

    name: str
    title: str
    create: Callable[[Mapping[str, Any], int], State]
    load: Callable[[dict[str, Any]], State]
    action_type: Any
    players: tuple[int, int]
    default_config: Callable[[int], dict[str, Any]] = field(default=lambda n: {"players": n})
    bots: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    turn_of: Callable[[Any], int] | None = None
    """How many whole turns a state has played (lets `suite sim` report turns per game)."""
    sim_options: tuple[SimOption, ...] = ()
    """Game-specific `suite sim` flags (e.g. Tactics' `--pack` and `--pieces-per-turn`)."""


_REGISTRY: dict[str, GameSpec] = {}
_ENTRY_POINTS_LOADED = False
_ENTRY_POINT_ERRORS: dict[str, str] = {}
ENTRY_POINT_GROUP = "warsuite.games"


class UnknownGame(KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:
        # KeyError's str() would wrap the message in quotes.
        return str(self.args[0]) if self.args else "unknown game"


def register_game(spec: GameSpec) -> GameSpec:
    """Add (or replace) a game in the registry; returns the spec for use as a constant."""
    _REGISTRY[spec.name] = spec
    return spec


def _load_entry_points() -> None:
    global _ENTRY_POINTS_LOADED
    if _ENTRY_POINTS_LOADED:
        return
    _ENTRY_POINTS_LOADED = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _REGISTRY:
            continue
        try:
            spec = ep.load()
        except Exception as exc:
            # A game that is not built yet (or broken) must not take the others down.
            _ENTRY_POINT_ERRORS[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        if isinstance(spec, GameSpec):
            register_game(spec)
        else:
            _ENTRY_POINT_ERRORS[ep.name] = f"{ep.value} is not a GameSpec"


def unavailable_games() -> dict[str, str]:
    """Installed games that failed to load, with the reason (for `suite --help` and logs)."""
    _load_entry_points()
    return dict(_ENTRY_POINT_ERRORS)


def registered_games() -> dict[str, GameSpec]:
    """Every known game by name (registered or installed)."""
    _load_entry_points()
    return dict(_REGISTRY)


def game_spec(name: str) -> GameSpec:
    """The spec of game `name`; UnknownGame lists the known ones."""
    games = registered_games()
    if name not in games:
        known = ", ".join(sorted(games)) or "none"
        raise UnknownGame(f"unknown game {name!r} (known: {known})")
    return games[name]


def new_game(game: str, config: Mapping[str, Any], seed: int) -> State:
    """A new match of `game` with `config`, all chance drawn from `seed`."""
    return game_spec(game).create(config, seed)


def load_state(d: dict[str, Any]) -> State:
    """Restore any game's state from its `to_dict()` (which carries a "game" key)."""
    if "game" not in d:
        raise ValueError("state snapshot has no 'game' key")
    return game_spec(str(d["game"])).load(d)


def decode_action(game: str, data: Mapping[str, Any]) -> Action:
    """Turn a plain dict (from JSON) into `game`'s typed action; ValueError if malformed."""
    try:
        action = msgspec.convert(data, type=game_spec(game).action_type)
    except msgspec.ValidationError as exc:
        raise ValueError(f"bad {game} action {data!r}: {exc}") from exc
    if not isinstance(action, Action):
        raise ValueError(f"bad {game} action {data!r}: not an action")
    return action


def encode(record: msgspec.Struct) -> dict[str, Any]:
    """An action, event or outcome as a JSON-safe dict (with its `kind`)."""
    out = msgspec.to_builtins(record)
    assert isinstance(out, dict)
    return out


class ReplayStep(msgspec.Struct, frozen=True):
    seat: Seat
    action: dict[str, Any]


class Replay(msgspec.Struct):
    """A replay file: `{game, config, seed, actions}`. Replaying rebuilds the same state."""

    game: str
    config: dict[str, Any]
    seed: int
    actions: list[ReplayStep] = msgspec.field(default_factory=list)

    def record(self, seat: Seat, action: Action) -> None:
        self.actions.append(ReplayStep(seat, encode(action)))

    def start(self) -> State:
        return new_game(self.game, self.config, self.seed)

    def play(self, upto: int | None = None) -> State:
        """The state after the first `upto` actions (all when None)."""
        state = self.start()
        for step in self.actions[:upto]:
            state.apply(step.seat, decode_action(self.game, step.action))
        return state

    def save(self, path: str | Path) -> None:
        from suite.core.store import save_document

        save_document(path, "replay", msgspec.to_builtins(self))

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        from suite.core.store import SaveError, load_document

        data = load_document(path, "replay")
        try:
            return msgspec.convert(data, type=cls)
        except msgspec.ValidationError as exc:
            raise SaveError(Path(path), f"not a replay: {exc}") from exc


class Recorder:
    """Wraps a state and records every accepted action into a Replay."""

    def __init__(self, game: str, config: Mapping[str, Any], seed: int) -> None:
        self.replay = Replay(game=game, config=dict(config), seed=seed)
        self.state = self.replay.start()

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        events = self.state.apply(seat, action)
        self.replay.record(seat, action)
        return events
