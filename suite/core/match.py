"""The game contract every engine implements (see DESIGN.md), the game registry and replays.

A game is a pure, deterministic state machine. The same seed and the same actions give
the same state. Chance comes only from the state's own `Rng`.

Games register a `GameSpec` with `register_game`; installed games are also found through
the ``warsuite.games`` entry-point group, so `core` never imports a game by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import msgspec

from suite.core.action_json import ActionPieces
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


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """Base of every game's typed view: what one seat (or a spectator) may see.

    Subclasses set ``tag="..."``. A view holds everything a screen needs to draw and to
    offer choices (including the rule numbers that matter to the seat now) and nothing the
    seat may not know. Views encode to JSON with msgspec and decode back equal.
    """


class Outcome(msgspec.Struct, frozen=True):
    """How a game ended.

    `winners` holds the winning seats (several for a shared victory); `places` lists the
    seats from first to last (ties share a tuple); `reason` is a short human text.
    """

    winners: tuple[Seat, ...]
    places: tuple[tuple[Seat, ...], ...]
    reason: str


class GameOver(Event, frozen=True, tag="game_over"):
    """The one event every game emits when it ends, carrying the final `Outcome`."""

    outcome: Outcome


GAME_OVER = "game_over"
"""The `kind` of the game-over event, the same in every game."""


@runtime_checkable
class ActionSpace(Protocol):
    """What a seat may do when its options are too many to list (WoK order sets).

    `contains` answers legality without raising; `sample` draws one legal action.
    """

    def contains(self, action: Action) -> bool: ...

    def sample(self, rng: Rng) -> Action: ...

    def describe(self) -> dict[str, Any]:
        """A JSON-safe description of the choices (limits, sources, targets) for screens.

        It may hold only what the seat's view holds.
        """


Legal = Sequence[Action] | ActionSpace


class State(Protocol):
    """The state of one match of one game.

    Each game's state class is named ``<Game>State`` and restores with the classmethod
    ``from_dict(to_dict())`` (registered as its spec's `load`).
    """

    game: str

    def awaiting(self) -> frozenset[Seat]:
        """Seats whose action the game waits for (several at once for simultaneous orders)."""

    def legal(self, seat: Seat) -> Legal:
        """What `seat` may do now (empty when it can do nothing).

        A seat that is not awaited may still have something to do: a WoK seat that is
        ready is not awaited, yet may take its ready flag back."""

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Validate then perform. On a bad action raise IllegalAction and change nothing."""

    def view(self, seat: Seat | None) -> View:
        """Only what `seat` may see, as the game's typed view; None is a spectator."""

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot; `from_dict(to_dict())` gives an equal state."""

    def check(self) -> None:
        """Assert the engine's invariants; raise AssertionError naming what is wrong."""


@dataclass(frozen=True)
class SimOption:
    """An extra `suite sim` flag a game offers: `--flag VALUE` sets config[`key`]."""

    flag: str
    key: str
    help: str
    type: Callable[[str], Any] = str


@dataclass(frozen=True)
class GameSpec:
    """Everything the suite knows of one game; a game registers exactly one.

    `create(config, seed)` makes a new state from a config mapping or record; `load(d)`
    restores `to_dict()` output; `action_type`, `view_type` and `event_type` are types
    msgspec converts plain data into (tagged unions of the game's records); `config_type`
    is the game's match-config record (unknown keys and bad values refused, see
    `parse_config`); `players` is the allowed range of seats; `default_config(n)` gives a
    playable config for n players (`suite sim` overlays its `--map`, `--variant`,
    `--cards` and `--max-turns` options as the keys "map", "variant", "cards" and
    "max_turns" when the config record has them); `bots` maps bot names to factories of
    `suite.core.bots.Bot` objects; `turn_of`, when given, counts the turns a state has
    played. `blurb` is the launcher's text for the game and `ui` names the game's desktop
    UI object as "module:attribute" (loaded lazily by the launcher, "" when the game has no
    screens); `save_kind` is the kind of its save documents.
    """

    name: str
    title: str
    create: Callable[[Any, int], State]
    load: Callable[[dict[str, Any]], State]
    action_type: Any
    players: tuple[int, int]
    default_config: Callable[[int], dict[str, Any]] = field(default=lambda n: {"players": n})
    bots: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    turn_of: Callable[[Any], int] | None = None
    """How many whole turns a state has played (lets `suite sim` report turns per game)."""
    sim_options: tuple[SimOption, ...] = ()
    """Game-specific `suite sim` flags (e.g. Tactics' `--pack` and `--pieces-per-turn`)."""
    config_type: type[msgspec.Struct] | None = None
    view_type: Any = None
    event_type: Any = None
    blurb: str = ""
    ui: str = ""
    save_kind: str = ""
    order: int = 100
    """Where the game's card stands in the launcher (lower first, then by name)."""
    public_actions: frozenset[str] | None = None
    """The action kinds every seat may see others play (None: all of them). An action of
    another kind reaches only the seat that played it; the others learn only the events
    the engine emits for it (WoK's orders and alliance declarations are secret)."""
    static_view: tuple[str, ...] = ()
    """View fields that are the same in every seat's view and the spectator's for the
    whole match (a map, the rules data): a server may send them once per room instead of
    in every view (`suite.net`'s `room_data`)."""
    legal_json: Callable[[Sequence[Action], ActionPieces, int, int | None], bytes] | None = None
    """`legal_json(actions, pieces, start, stop)`: actions `start` to `stop` (None: the
    end) of a legal list as `State.legal` gives it, as a JSON array, each action as the
    pieces' `encode` gives it: exactly `encode(list(actions)[start:stop])`, only cheaper
    (None: a server encodes the list itself)."""


class ConfigError(ValueError):
    """A match config was refused: names the key and what is wrong (and the known keys)."""


@cache
def _config_fields(config_type: type[msgspec.Struct]) -> tuple[str, ...]:
    # Cached: `msgspec.structs.fields` evaluates the annotations (0.2 ms a call), and
    # engines parse their config for every new match.
    return tuple(sorted(f.encode_name for f in msgspec.structs.fields(config_type)))


def parse_config(game: str | GameSpec, config: Any) -> Any:
    """`config` (a mapping or the game's record) as the game's typed config record.

    Raises `ConfigError` naming an unknown key (listing the known ones) or a bad value.
    """
    spec = game if isinstance(game, GameSpec) else game_spec(game)
    config_type = spec.config_type
    if config_type is None:
        raise ConfigError(f"{spec.name} declares no config record")
    if isinstance(config, config_type):
        return config
    if isinstance(config, msgspec.Struct):
        config = msgspec.structs.asdict(config)
    if not isinstance(config, Mapping):
        raise ConfigError(f"a {spec.name} config is a table of settings, not {config!r}")
    known = _config_fields(config_type)
    for key in config:
        if key not in known:
            raise ConfigError(f"unknown {spec.name} config key {key!r} (known: {', '.join(known)})")
    try:
        return msgspec.convert(dict(config), type=config_type, strict=True)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"bad {spec.name} config: {_where(str(exc))}") from exc
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"bad {spec.name} config: {exc}") from exc


def _where(message: str) -> str:
    """msgspec's "... - at `$.a[0]`" as "... (key `a[0]`)"."""
    head, sep, path = message.rpartition(" - at `$")
    if not sep:
        return message
    return f"{head} (key `{path.rstrip('`').lstrip('.')}`)"


def validate_seat(seat: object, players: int) -> Seat:
    """`seat` as a seat index of a match of `players`; IllegalAction for anything else.

    Only a real int (not a bool, not a float such as 1.0) in 0..players-1 is a seat.
    """
    if type(seat) is not int:
        raise IllegalAction(f"a seat is a whole number, not {seat!r}")
    if not 0 <= seat < players:
        raise IllegalAction(f"no seat {seat} in a game of {players}")
    return seat


def validate_action(action: object, action_type: Any) -> Action:
    """`action` checked field by field against `action_type`; IllegalAction when wrong.

    Returns the record rebuilt from the check, equal to `action` with every field of
    exactly its declared type (a list given for a tuple field comes back a tuple).

    Records built in Python are not type-checked by msgspec, so `Place(t, 1.5)` would
    otherwise reach the engine: this re-converts the record from its builtins strictly.
    """
    if not isinstance(action, Action):
        raise IllegalAction(f"not an action: {action!r}")
    try:
        checked = msgspec.convert(msgspec.to_builtins(action), type=action_type, strict=True)
    except msgspec.ValidationError as exc:
        raise IllegalAction(f"malformed {_kind(action)} action: {_where(str(exc))}") from exc
    except (TypeError, ValueError) as exc:
        raise IllegalAction(f"malformed {_kind(action)} action: {exc}") from exc
    if type(checked) is not type(action):
        raise IllegalAction(f"not an action of this game: {_kind(action)}")
    return checked


def _kind(action: Action) -> str:
    return type(action).__name__


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


def load_game(name: str) -> GameSpec | None:
    """Game `name`, importing only its own entry point when it is not registered yet (a
    command that plays one game need not import the others: a third of a second); None
    when no game of that name loads (`game_spec` and `unavailable_games` then say why)."""
    spec = _REGISTRY.get(name)
    if spec is not None or _ENTRY_POINTS_LOADED:
        return spec
    for ep in entry_points(group=ENTRY_POINT_GROUP, name=name):
        try:
            loaded = ep.load()
        except Exception:
            return None  # `_load_entry_points` records why
        if isinstance(loaded, GameSpec) and loaded.name == name:
            return register_game(loaded)
    return None


def game_spec(name: str) -> GameSpec:
    """The spec of game `name`; UnknownGame lists the known ones."""
    spec = _REGISTRY.get(name)
    if spec is not None:
        return spec
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


_ACTION_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}
"""One JSON decoder per action type: msgspec analyses a union of action structs once per
decoder, where `msgspec.convert` analyses it again on every call (~25x slower)."""
_ACTION_ENCODER = msgspec.json.Encoder()


def decode_action(game: str, data: Mapping[str, Any]) -> Action:
    """Turn a plain dict (from JSON) into `game`'s typed action; ValueError if malformed."""
    action_type = game_spec(game).action_type
    decoder = _ACTION_DECODERS.get(action_type)
    if decoder is None:
        decoder = _ACTION_DECODERS[action_type] = msgspec.json.Decoder(action_type)
    try:
        action = decoder.decode(_ACTION_ENCODER.encode(data))
    except (msgspec.ValidationError, msgspec.EncodeError, TypeError) as exc:
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
