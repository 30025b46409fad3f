"""The contract every registered game passes (DESIGN.md: the game contract).

Modelled on OpenSpiel's random_sim_test: random playouts to the end with `check()` after
every action; every illegal action leaves the state unchanged; snapshots, replays and JSON
round trips; a seat's view and legal actions never reveal another seat's secrets. The only
game-specific code is the fixture in `fixtures.py`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from suite.core.match import (
    GAME_OVER,
    Action,
    ActionSpace,
    ConfigError,
    Event,
    GameOver,
    GameSpec,
    IllegalAction,
    Legal,
    Recorder,
    Replay,
    Seat,
    State,
    View,
    decode_action,
    encode,
    new_game,
    parse_config,
    registered_games,
)
from suite.core.rng import Rng
from tests.contract.fixtures import FIXTURES, GameFixture

GAMES = sorted(registered_games())


def fixture_of(game: str) -> GameFixture:
    assert game in FIXTURES, f"{game} has no contract fixture in tests/contract/fixtures.py"
    return FIXTURES[game]


def random_action(state: State, seat: Seat, rng: Rng) -> Action:
    legal = state.legal(seat)
    if isinstance(legal, ActionSpace):
        return legal.sample(rng)
    assert legal, f"seat {seat} is awaited but has no legal action"
    return rng.choice(list(legal))


def playout(
    game: str, players: int, seed: int
) -> Iterator[tuple[State, Seat, Action, list[Event]]]:
    """Random play to the end: yields (state after, seat, action, events) for each action."""
    fixture = fixture_of(game)
    state = new_game(game, fixture.config(players), seed)
    rng = Rng(seed + 1000)
    for _ in range(fixture.max_actions):
        if state.outcome() is not None:
            return
        awaited = sorted(state.awaiting())
        assert awaited, "the game is not over but awaits nobody"
        seat = awaited[rng.randbelow(len(awaited))]
        action = random_action(state, seat, rng)
        events = state.apply(seat, action)
        yield state, seat, action, events
    raise AssertionError(f"{game}: no outcome after {fixture.max_actions} random actions")


def cases() -> list[Any]:
    """(game, players) for every registered game and player count its fixture names."""
    out = []
    for game in GAMES:
        fixture = FIXTURES.get(game)
        players = fixture.player_counts if fixture else (registered_games()[game].players[0],)
        out.extend(pytest.param(game, n, id=f"{game}-{n}p") for n in players)
    return out


def spec_of(game: str) -> GameSpec:
    return registered_games()[game]


# -- the spec is complete ----------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_spec_names_everything_a_game_needs(game: str) -> None:
    spec = spec_of(game)
    assert spec.config_type is not None, "no config record"
    assert spec.view_type is not None, "no view type"
    assert spec.event_type is not None, "no event type"
    assert spec.blurb and spec.save_kind and spec.title
    assert spec.bots, "no bots"
    fixture_of(game)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_config_keys_and_bad_values_are_refused(game: str) -> None:
    spec = spec_of(game)
    config = spec.default_config(spec.players[0])
    with pytest.raises(ConfigError, match="no_such_key") as info:
        new_game(game, {**config, "no_such_key": 1}, 1)
    assert "known:" in str(info.value)
    with pytest.raises(ConfigError):
        new_game(game, {**config, "players": "many"}, 1)
    assert isinstance(parse_config(spec, config), spec.config_type)  # type: ignore[arg-type]


# -- random playouts ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), cases())
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_end_and_keep_every_invariant(game: str, players: int, seed: int) -> None:
    state: State | None = None
    over = 0
    for state, _seat, _action, events in playout(game, players, seed):
        state.check()
        over += sum(1 for e in events if isinstance(e, GameOver))
        for event in events:
            if isinstance(event, GameOver):
                assert event.outcome == state.outcome()
    assert state is not None and state.outcome() is not None
    assert over == 1, "the game must announce its end with one GameOver event"
    assert not state.awaiting()


# -- illegal actions change nothing -------------------------------------------------------

BAD_VALUES: tuple[Any, ...] = (-1, 10**9, 1.5, True, "x", None, [1])
BAD_SEATS: tuple[Any, ...] = (-1, 99, 1.0, True, "0", None)


def mutations(action: Action) -> Iterator[Action]:
    """The action with each field replaced by values of wrong type or range."""
    for field in msgspec.structs.fields(action):
        for bad in BAD_VALUES:
            try:
                yield msgspec.structs.replace(action, **{field.name: bad})
            except (TypeError, ValueError):
                continue


def assert_refused_or_legal(state: State, game: str, seat: Any, action: Any) -> None:
    """Applying to a copy either raises IllegalAction leaving it unchanged, or succeeds."""
    spec = spec_of(game)
    before = state.to_dict()
    trial = spec.load(copy.deepcopy(before))
    try:
        trial.apply(seat, action)
    except IllegalAction as refusal:
        assert refusal.reason, "a refusal must say why"
        assert trial.to_dict() == before, f"refused {action!r} by {seat!r} changed the state"
        return
    except Exception as exc:  # noqa: BLE001 - anything else is a crash of the engine
        pytest.fail(f"{game}: {action!r} by seat {seat!r} raised {type(exc).__name__}: {exc}")
    trial.check()


@pytest.mark.parametrize(("game", "players"), cases())
def test_illegal_actions_change_nothing(game: str, players: int) -> None:
    rng = Rng(5)
    seen: list[Action] = []
    for n, (state, _seat, action, _events) in enumerate(playout(game, players, 3)):
        seen.append(action)
        if n % 7 or state.outcome() is not None:
            continue
        awaited = sorted(state.awaiting())
        for bad_seat in BAD_SEATS:
            assert_refused_or_legal(state, game, bad_seat, action)
        target = awaited[0]
        for old in seen[-3:]:
            assert_refused_or_legal(state, game, target, old)  # stale actions
        for other in range(players):
            if other not in awaited:
                assert_refused_or_legal(state, game, other, random_action_of(state, awaited))
        for mutated in mutations(random_action_of(state, awaited)):
            if rng.randbelow(3) == 0:
                assert_refused_or_legal(state, game, target, mutated)
        assert_refused_or_legal(state, game, target, "not an action")
        if n > 400:
            break


def random_action_of(state: State, awaited: list[Seat]) -> Action:
    return random_action(state, awaited[0], Rng(len(awaited)))


# -- snapshots, replays, JSON -------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), cases())
def test_snapshots_round_trip_and_continue_identically(game: str, players: int) -> None:
    spec = spec_of(game)
    actions: list[tuple[Seat, Action]] = []
    for n, (state, seat, action, _events) in enumerate(playout(game, players, 4)):
        actions.append((seat, action))
        if n in (5, 60, 300):
            snapshot = state.to_dict()
            text = msgspec.json.encode(snapshot)  # raises unless to_dict() is JSON-safe
            restored = spec.load(msgspec.json.decode(text))
            assert msgspec.json.encode(restored.to_dict()) == text
            restored.check()
            assert restored.view(None) == state.view(None)
    replayed = new_game(game, fixture_of(game).config(players), 4)
    for seat, action in actions:
        replayed.apply(seat, action)
    assert replayed.to_dict() == state.to_dict(), "same seed and actions must give the same state"


@pytest.mark.parametrize(("game", "players"), cases())
def test_replays_rebuild_the_same_state(game: str, players: int, tmp_path: Any) -> None:
    fixture = fixture_of(game)
    recorder = Recorder(game, fixture.config(players), 6)
    rng = Rng(60)
    while recorder.state.outcome() is None and len(recorder.replay.actions) < 3000:
        seat = min(recorder.state.awaiting())
        recorder.apply(seat, random_action(recorder.state, seat, rng))
    path = tmp_path / "game.replay"
    recorder.replay.save(path)
    assert Replay.load(path).play().to_dict() == recorder.state.to_dict()


@pytest.mark.parametrize(("game", "players"), cases())
def test_actions_views_and_events_round_trip_through_json(game: str, players: int) -> None:
    spec = spec_of(game)
    for n, (state, _seat, action, events) in enumerate(playout(game, players, 7)):
        data = msgspec.json.decode(msgspec.json.encode(action))
        assert decode_action(game, data) == action
        for event in events:
            assert isinstance(event, Event)
            back = msgspec.json.decode(msgspec.json.encode(event), type=spec.event_type)
            assert back == event, f"event {event!r} does not round-trip"
            if isinstance(event, GameOver):
                assert encode(event)["kind"] == GAME_OVER
        if n % 11 == 0 or state.outcome() is not None:
            for viewer in [None, *range(players)]:
                view = state.view(viewer)
                assert isinstance(view, View), f"view({viewer}) is not a typed View"
                back = msgspec.json.decode(msgspec.json.encode(view), type=spec.view_type)
                assert back == view, f"view({viewer}) does not round-trip"
        if n > 600:
            break


# -- hidden information -------------------------------------------------------------------


def legal_fingerprint(legal: Legal) -> Any:
    if isinstance(legal, ActionSpace):
        assert not reaches_a_state(legal), "an action space must not hold the engine's state"
        return legal.describe()
    return [encode(a) for a in legal]


def reaches_a_state(obj: Any, depth: int = 0, seen: set[int] | None = None) -> bool:
    """Whether an engine state is reachable from `obj`'s attributes and containers."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 6 or isinstance(obj, (str, bytes, int, float, bool)):
        return False
    seen.add(id(obj))
    if hasattr(obj, "to_dict") and hasattr(obj, "apply") and hasattr(obj, "awaiting"):
        return True
    children: list[Any] = []
    if isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        children = list(obj)
    else:
        children = list(getattr(obj, "__dict__", {}).values())
        children += [
            getattr(obj, s) for s in getattr(type(obj), "__slots__", ()) if hasattr(obj, s)
        ]
    return any(reaches_a_state(c, depth + 1, seen) for c in children)


@pytest.mark.parametrize(("game", "players"), cases())
def test_no_seat_sees_another_seats_secrets(game: str, players: int) -> None:
    fixture = fixture_of(game)
    rng = Rng(9)
    checked = 0
    for n, (state, _seat, _action, _events) in enumerate(playout(game, players, 8)):
        if n % 13 or state.outcome() is not None:
            continue
        owner = n // 13 % players
        other = fixture.perturb_hidden(state, owner, rng)
        if other is None:
            continue
        assert other.to_dict() != state.to_dict(), "the perturbation changed nothing"
        for viewer in [None, *(s for s in range(players) if s != owner)]:
            assert other.view(viewer) == state.view(viewer), (
                f"{game}: seat {viewer} can see {fixture.hidden} of seat {owner}"
            )
            if viewer is not None:
                assert legal_fingerprint(other.legal(viewer)) == legal_fingerprint(
                    state.legal(viewer)
                ), f"{game}: seat {viewer}'s legal actions reveal seat {owner}'s secrets"
        checked += 1
        if checked >= 12:
            break
    assert checked, f"{game}: the playout never had hidden information to test"
