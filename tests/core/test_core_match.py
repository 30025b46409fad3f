"""The game contract, registry, action decoding and replays, on the tiny race21 game."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from suite.core import match
from suite.core.bots import NoLegalAction, RandomBot
from suite.core.match import (
    Action,
    ActionSpace,
    GameSpec,
    IllegalAction,
    Outcome,
    Recorder,
    Replay,
    UnknownGame,
    decode_action,
    encode,
    game_spec,
    load_state,
    new_game,
    registered_games,
    unavailable_games,
)
from suite.core.rng import Rng
from suite.core.store import SaveError, load_document


class Foreign(Action, tag="foreign"):
    """An action of some other game."""


def play_out(race21: ModuleType, seed: int, bot_seed: int) -> tuple[Any, list[Action]]:
    state = new_game("race21", {"players": 3}, seed)
    rng = Rng(bot_seed)
    bot = RandomBot()
    actions: list[Action] = []
    while state.outcome() is None:
        (seat,) = state.awaiting()
        action = bot.choose(state.view(seat), state.legal(seat), rng)
        state.apply(seat, action)
        actions.append(action)
    return state, actions


# -- new games and the contract -------------------------------------------------


def test_new_game_through_the_registry(race21: ModuleType) -> None:
    state = new_game("race21", {"players": 3, "target": 10}, 5)
    assert isinstance(state, race21.RaceState)
    assert state.game == "race21"
    assert state.awaiting() == frozenset({0})
    assert state.legal(0) == [race21.Step(1), race21.Step(2), race21.Step(3), race21.Gamble()]
    assert state.legal(1) == []
    assert state.outcome() is None
    assert registered_games()["race21"] is race21.SPEC
    assert game_spec("race21").title == "Race to 21"


def test_a_game_plays_to_an_outcome_and_is_deterministic(race21: ModuleType) -> None:
    first, actions = play_out(race21, seed=3, bot_seed=4)
    second, again = play_out(race21, seed=3, bot_seed=4)
    assert first.to_dict() == second.to_dict()
    assert actions == again
    outcome = first.outcome()
    assert isinstance(outcome, Outcome)
    assert first.total == 21
    assert outcome.winners == (first.winner,)
    assert outcome.places[0] == (first.winner,)
    assert first.awaiting() == frozenset()
    assert all(first.legal(s) == [] for s in range(3))


def test_events_say_what_happened(race21: ModuleType) -> None:
    state = new_game("race21", {"players": 2, "target": 3}, 1)
    assert state.apply(0, race21.Step(2)) == [race21.Moved(0, 2, 2)]
    assert state.apply(1, race21.Step(1)) == [race21.Moved(1, 1, 3), race21.Won(1)]
    assert encode(race21.Won(1)) == {"kind": "won", "seat": 1}


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (0, "step2", "seat 0 is not to move (seat 1 is)"),
        (1, "step4", "a step is 1-3, not 4"),
        (1, "step0", "a step is 1-3, not 0"),
        (1, "foreign", "not a race action"),
    ],
)
def test_illegal_actions_leave_the_state_unchanged(
    race21: ModuleType, seat: int, action: str, reason: str
) -> None:
    actions = {
        "step2": race21.Step(2),
        "step4": race21.Step(4),
        "step0": race21.Step(0),
        "foreign": Foreign(),
    }
    state = new_game("race21", {"players": 2}, 9)
    state.apply(0, race21.Gamble())  # now seat 1 is to move
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, actions[action])
    assert isinstance(info.value, ValueError)
    assert reason in info.value.reason
    assert state.to_dict() == before


def test_passing_the_target_is_illegal(race21: ModuleType) -> None:
    state = new_game("race21", {"players": 2, "target": 4}, 0)
    state.apply(0, race21.Step(3))
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="a step of 2 passes the target"):
        state.apply(1, race21.Step(2))
    assert state.to_dict() == before
    assert state.legal(1) == [race21.Step(1), race21.Gamble()]


def test_actions_after_the_end_are_illegal(race21: ModuleType) -> None:
    state = new_game("race21", {"players": 2, "target": 2}, 0)
    state.apply(0, race21.Step(2))
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, race21.Step(1))
    assert state.to_dict() == before


# The fixture only registers the game; nothing in it changes between examples.
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    moves=st.lists(
        st.tuples(st.integers(0, 2), st.one_of(st.integers(-1, 5), st.none())), max_size=40
    ),
)
def test_any_action_is_either_applied_or_refused_without_change(
    race21: ModuleType, seed: int, moves: list[tuple[int, int | None]]
) -> None:
    state = new_game("race21", {"players": 3, "target": 15}, seed)
    for seat, amount in moves:
        action = race21.Gamble() if amount is None else race21.Step(amount)
        before = state.to_dict()
        legal = seat in state.awaiting() and action in state.legal(seat)
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            assert not legal, exc.reason
            assert exc.reason
            assert state.to_dict() == before
        else:
            assert legal
            assert events and state.to_dict() != before
        assert load_state(json.loads(json.dumps(state.to_dict()))).to_dict() == state.to_dict()


# -- registry and errors --------------------------------------------------------


def test_unknown_game(race21: ModuleType) -> None:
    with pytest.raises(UnknownGame) as info:
        new_game("chess", {}, 1)
    message = str(info.value)
    assert message.startswith("unknown game 'chess' (known: ")
    assert "race21" in message
    assert isinstance(info.value, KeyError)
    with pytest.raises(UnknownGame, match="'chess'"):
        load_state({"game": "chess"})
    with pytest.raises(UnknownGame, match="'chess'"):
        decode_action("chess", {"kind": "step", "amount": 1})


def test_load_state(race21: ModuleType) -> None:
    state, _ = play_out(race21, seed=8, bot_seed=2)
    snapshot = json.loads(json.dumps(state.to_dict()))
    restored = load_state(snapshot)
    assert isinstance(restored, race21.RaceState)
    assert restored.to_dict() == state.to_dict()
    with pytest.raises(ValueError, match="no 'game' key"):
        load_state({"total": 3})


def test_a_restored_state_continues_identically(race21: ModuleType) -> None:
    live = new_game("race21", {"players": 2}, 12)
    for _ in range(4):
        live.apply(next(iter(live.awaiting())), race21.Gamble())
    copy = load_state(live.to_dict())
    for _ in range(3):
        seat = next(iter(live.awaiting()))
        assert live.apply(seat, race21.Gamble()) == copy.apply(seat, race21.Gamble())
    assert live.to_dict() == copy.to_dict()


def test_broken_installed_games_do_not_take_the_others_down(
    race21: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    class FakeEntryPoint:
        def __init__(self, name: str, value: str, load: Any) -> None:
            self.name, self.value, self._load = name, value, load

        def load(self) -> Any:
            return self._load()

    def explode() -> Any:
        raise RuntimeError("rules file missing")

    fakes = [
        FakeEntryPoint("broken", "pkg.broken:SPEC", explode),
        FakeEntryPoint("notaspec", "pkg.other:SPEC", lambda: 42),
        FakeEntryPoint("missing", "pkg.missing:SPEC", lambda: __import__("no_such_module_x")),
        FakeEntryPoint("race21", "elsewhere:SPEC", explode),  # already registered: skipped
    ]
    monkeypatch.setattr(match, "entry_points", lambda group: fakes)
    monkeypatch.setattr(match, "_ENTRY_POINTS_LOADED", False)
    monkeypatch.setattr(match, "_ENTRY_POINT_ERRORS", {})
    games = registered_games()
    assert "race21" in games and "broken" not in games
    errors = unavailable_games()
    assert errors["broken"] == "RuntimeError: rules file missing"
    assert errors["notaspec"] == "pkg.other:SPEC is not a GameSpec"
    assert errors["missing"].startswith("ModuleNotFoundError")
    assert "race21" not in errors


def test_register_game_returns_the_spec(race21: ModuleType) -> None:
    spec = GameSpec(
        name="race21-short",
        title="Short race",
        create=lambda config, seed: race21.create({**config, "target": 5}, seed),
        load=race21.RaceState.from_dict,
        action_type=race21.Step | race21.Gamble,
        players=(2, 2),
    )
    assert match.register_game(spec) is spec
    assert new_game("race21-short", {"players": 2}, 1).target == 5
    assert spec.default_config(3) == {"players": 3}
    assert spec.bots == {}


# -- actions as plain data ---------------------------------------------------------


def test_decode_action(race21: ModuleType) -> None:
    assert decode_action("race21", {"kind": "step", "amount": 2}) == race21.Step(2)
    assert decode_action("race21", {"kind": "gamble"}) == race21.Gamble()
    assert encode(race21.Step(3)) == {"kind": "step", "amount": 3}
    for action in (race21.Step(1), race21.Gamble()):
        assert decode_action("race21", json.loads(json.dumps(encode(action)))) == action


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"kind": "castle"}, "castle"),
        ({"kind": "step"}, "amount"),
        ({"kind": "step", "amount": "two"}, "amount"),
        ({"amount": 2}, "kind"),
        ({"kind": "foreign"}, "foreign"),
        (["step", 2], "['step', 2]"),  # not an object at all (JSON from a client)
    ],
)
def test_decode_action_errors(race21: ModuleType, data: Any, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        decode_action("race21", data)
    message = str(info.value)
    assert message.startswith("bad race21 action")
    assert fragment in message


# -- replays ------------------------------------------------------------------------


def test_replay_record_save_load_play(race21: ModuleType, tmp_path: Path) -> None:
    recorder = Recorder("race21", {"players": 3, "target": 21}, 77)
    rng = Rng(5)
    bot = RandomBot()
    snapshots = [recorder.state.to_dict()]
    while recorder.state.outcome() is None:
        (seat,) = recorder.state.awaiting()
        recorder.apply(seat, bot.choose({}, recorder.state.legal(seat), rng))
        snapshots.append(recorder.state.to_dict())
    replay = recorder.replay
    assert len(replay.actions) == len(snapshots) - 1

    path = tmp_path / "game.replay.json"
    replay.save(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["kind"] == "replay" and doc["data"]["game"] == "race21"
    assert doc["data"]["actions"][0]["action"]["kind"] in {"step", "gamble"}
    assert load_document(path, "replay")["seed"] == 77

    loaded = Replay.load(path)
    assert loaded == replay
    assert loaded.play().to_dict() == recorder.state.to_dict()
    for upto in (0, 1, len(snapshots) // 2):
        assert loaded.play(upto).to_dict() == snapshots[upto]


def test_recorder_does_not_record_refused_actions(race21: ModuleType) -> None:
    recorder = Recorder("race21", {"players": 2}, 1)
    recorder.apply(0, race21.Step(3))
    with pytest.raises(IllegalAction):
        recorder.apply(0, race21.Step(3))
    assert [step.action for step in recorder.replay.actions] == [{"kind": "step", "amount": 3}]


def test_replay_load_errors(race21: ModuleType, tmp_path: Path) -> None:
    from suite.core.store import save_document

    not_replay = tmp_path / "save.json"
    save_document(not_replay, "save", {"game": "race21"})
    with pytest.raises(SaveError, match=r"save\.json: holds a 'save', expected a 'replay'"):
        Replay.load(not_replay)
    bad = tmp_path / "bad.json"
    save_document(bad, "replay", {"game": "race21", "config": {}, "seed": "soon"})
    with pytest.raises(SaveError, match=r"bad\.json: not a replay"):
        Replay.load(bad)


def test_replay_with_a_tampered_action_fails_clearly(race21: ModuleType) -> None:
    replay = Replay("race21", {"players": 2}, 1)
    replay.record(0, race21.Step(2))
    replay.actions.append(match.ReplayStep(1, {"kind": "step", "amount": 9}))
    with pytest.raises(IllegalAction, match="not 9"):
        replay.play()
    replay.actions[-1] = match.ReplayStep(1, {"kind": "warp"})
    with pytest.raises(ValueError, match="bad race21 action"):
        replay.play()


# -- the random bot -------------------------------------------------------------------


def test_random_bot_picks_uniformly_among_legal_actions(race21: ModuleType) -> None:
    legal = [race21.Step(1), race21.Step(2), race21.Step(3), race21.Gamble()]
    bot = RandomBot()
    rng = Rng(44)
    counts = Counter(bot.choose({}, legal, rng) for _ in range(4000))
    assert set(counts) == set(legal)
    assert all(900 < c < 1100 for c in counts.values())
    a, b = Rng(9), Rng(9)
    assert [bot.choose({}, legal, a) for _ in range(20)] == [
        bot.choose({}, legal, b) for _ in range(20)
    ]


def test_random_bot_samples_action_spaces(race21: ModuleType) -> None:
    class EvenSteps:
        def contains(self, action: Action) -> bool:
            return isinstance(action, race21.Step) and action.amount % 2 == 0

        def sample(self, rng: Rng) -> Action:
            step: Action = race21.Step(2 * rng.randint(1, 5))
            return step

        def describe(self) -> dict[str, Any]:
            return {"steps": [2, 4, 6, 8, 10]}

    space = EvenSteps()
    assert isinstance(space, ActionSpace)
    rng = Rng(3)
    picks = [RandomBot().choose({}, space, rng) for _ in range(50)]
    assert all(space.contains(p) for p in picks)
    assert len(set(picks)) > 1


def test_random_bot_with_nothing_to_do() -> None:
    with pytest.raises(NoLegalAction, match="no legal action"):
        RandomBot().choose({}, [], Rng(1))
