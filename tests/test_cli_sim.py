"""`suite sim` and `suite.sim` on the tiny race21 game of the core tests."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from suite import cli
from suite.core import match
from suite.core.match import Action, GameSpec, Outcome, Seat
from suite.core.rng import Rng
from suite.sim import play_one, simulate


@pytest.fixture
def race21(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """tests/core/race21_game.py, registered for this test only."""
    module = sys.modules.get("race21_game")
    if module is None:
        path = Path(__file__).parent / "core" / "race21_game.py"
        spec = importlib.util.spec_from_file_location("race21_game", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["race21_game"] = module
        spec.loader.exec_module(module)
    match.registered_games()  # load the installed games into the real registry first
    monkeypatch.setattr(match, "_REGISTRY", dict(match._REGISTRY))
    match.register_game(module.SPEC)
    return module


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["sim", *args])
    out, err = capsys.readouterr()
    return code, out, err


def flat(text: str) -> str:
    """Text with rich's line wrapping undone."""
    return " ".join(text.split())


def test_sim_prints_winners_length_and_speed(
    race21: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "race21", "--players", "2", "--games", "3")
    assert code == 0, err
    assert "race21: 3 games, 2 seats, bots: random" in flat(out)
    rows = re.findall(r"seat (\d)\s+[│|]?\s*(\d+)\s+[│|]?\s*([\d.]+)%", out)
    assert rows and sum(int(games) for _, games, _ in rows) == 3
    assert abs(sum(float(share) for _, _, share in rows) - 100.0) < 0.2
    length = re.search(r"mean length: ([\d.]+) actions per game", out)
    assert length and 7 <= float(length.group(1)) <= 21  # 21 points, 1-3 per action
    assert re.search(r"speed: [\d.]+ games per second", out)


def test_sim_is_reproducible(race21: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    def table() -> str:
        code, out, _ = run(capsys, "race21", "--games", "5", "--seed", "9")
        assert code == 0
        return out.split("speed:")[0]

    assert table() == table()


def test_sim_with_a_named_bot(race21: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # "first" always steps 1, so seat 0 makes the 21st step every time.
    code, out, err = run(capsys, "race21", "--games", "4", "--bots", "first")
    assert code == 0, err
    assert "bots: first" in flat(out)
    assert re.search(r"seat 0\s+[│|]?\s*4\s+[│|]?\s*100\.0%", out)
    assert "mean length: 21.0 actions per game" in out


def test_sim_with_a_progress_bar(race21: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "race21", "--players", "4", "--games", "12")
    assert code == 0, err
    assert "race21: 12 games, 4 seats, bots: random" in flat(out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess' (known:"),
        (["race21", "--bots", "genius"], "unknown bot 'genius' for race21 (have random, first)"),
        (["race21", "--bots", "random,first,random"], "names 3 bots for 2 players"),
        (["race21", "--players", "7"], "Race to 21 takes 2-4 players, not 7"),
        (["race21", "--games", "0"], "--games must be at least 1, not 0"),
    ],
)
def test_sim_errors_exit_2_with_a_clear_message(
    race21: ModuleType, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert "error:" in err
    assert message in flat(err)
    assert "Traceback" not in err + out


def test_sim_of_a_game_that_failed_to_load(
    race21: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(match._ENTRY_POINT_ERRORS, "ghost", "ImportError: no rules yet")
    code, _, err = run(capsys, "ghost")
    assert code == 2
    assert "game 'ghost' is not available: ImportError: no rules yet" in err


def test_help_lists_sim(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--help"])
    assert info.value.code == 0
    assert "sim" in capsys.readouterr().out


def test_simulate_report(race21: ModuleType) -> None:
    report = simulate("race21", 3, seed=1, games=6)
    assert (report.game, report.players, report.games) == ("race21", 3, 6)
    assert sum(report.wins.values()) == 6
    assert set(report.wins) <= {"seat 0", "seat 1", "seat 2"}
    assert report.unfinished == 0
    assert 7 <= report.mean_steps <= 21
    assert report.games_per_second > 0
    done: list[int] = []
    simulate("race21", 2, seed=1, games=3, progress=done.append)
    assert done == [1, 2, 3]


def test_simulate_counts_unfinished_games(race21: ModuleType) -> None:
    report = simulate("race21", 2, seed=1, games=3, max_steps=4)
    assert report.unfinished == 3
    assert report.wins == {"unfinished": 3}
    assert report.mean_steps == 4


class Claim(Action, tag="claim"):
    pass


class ClaimRace:
    """Both seats are awaited; the first claim takes the round and the other is not awaited
    until the next round. Three rounds to win."""

    game = "claimrace"

    def __init__(self) -> None:
        self.points = [0, 0]
        self.claimed = False

    def awaiting(self) -> frozenset[Seat]:
        if self.outcome() is not None:
            return frozenset()
        return frozenset({1}) if self.claimed else frozenset({0, 1})

    def legal(self, seat: Seat) -> list[Action]:
        return [Claim()] if seat in self.awaiting() else []

    def apply(self, seat: Seat, action: Action) -> list[Any]:
        if seat not in self.awaiting():
            raise match.IllegalAction(f"seat {seat} is not awaited")
        if seat == 0:
            self.points[0] += 1
            self.claimed = True  # seat 1 keeps its turn to close the round
        else:
            self.points[1] += 0 if self.claimed else 1
            self.claimed = False
        return []

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {"points": list(self.points)}

    def outcome(self) -> Outcome | None:
        if max(self.points) < 3:
            return None
        winner = 0 if self.points[0] >= 3 else 1
        return Outcome((winner,), ((winner,), (1 - winner,)), "three rounds")

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "points": self.points, "claimed": self.claimed}


class SeatZeroOnlyOnce(ClaimRace):
    """After seat 0 claims, seat 1 is no longer awaited this step: play_one must re-check."""

    def awaiting(self) -> frozenset[Seat]:
        if self.outcome() is not None:
            return frozenset()
        return frozenset({0}) if self.claimed else frozenset({0, 1})

    def apply(self, seat: Seat, action: Action) -> list[Any]:
        if seat not in self.awaiting():
            raise match.IllegalAction(f"seat {seat} is not awaited")
        self.points[seat] += 1
        self.claimed = seat == 0 and not self.claimed
        return []


def test_play_one_handles_simultaneous_seats() -> None:
    run = play_one(ClaimRace(), Rng(1))
    outcome, steps = run.outcome, run.steps
    assert outcome is not None and outcome.winners == (0,)
    assert steps == 5  # two per round, and the third round ends at seat 0's claim


def test_play_one_rechecks_who_is_awaited() -> None:
    state = SeatZeroOnlyOnce()
    run = play_one(state, Rng(1))
    outcome, steps = run.outcome, run.steps
    assert outcome is not None and outcome.winners == (0,)
    assert steps == 3 and state.points == [3, 0]


def test_game_spec_bots_default_to_none() -> None:
    spec = GameSpec(
        name="x",
        title="X",
        create=lambda c, s: ClaimRace(),
        load=lambda d: ClaimRace(),
        action_type=Claim,
        players=(2, 2),
    )
    assert dict(spec.bots) == {}


def test_sim_options_reach_the_config(
    race21: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[dict[str, Any]] = []

    def create(config: Any, seed: int) -> Any:
        seen.append(dict(config))
        return race21.create(config, seed)

    match.register_game(
        GameSpec(
            name="race21-cfg",
            title="Race (config probe)",
            create=create,
            load=race21.RaceState.from_dict,
            action_type=race21.Step | race21.Gamble,
            players=(2, 4),
            default_config=lambda n: {"players": n, "target": 9},
            bots={"first": race21.FirstBot},
        )
    )
    args = ["race21-cfg", "--players", "3", "--games", "2", "--max-turns", "40", "--variant", "x"]
    code, out, err = run(capsys, *args, "--bots", "random,first,random")
    assert code == 0, err
    assert seen == [{"players": 3, "target": 9, "max_turns": 40, "variant": "x"}] * 2
    assert "bots: random,first,random" in flat(out)


def test_set_reads_json_values_and_plain_strings() -> None:
    got = cli.parse_settings(["pieces_per_turn=2", "pack=/tmp/my pack", "flags=[1,2]"])
    assert got == {"pieces_per_turn": 2, "pack": "/tmp/my pack", "flags": [1, 2]}


def test_set_without_equals_is_refused(
    race21: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(capsys, "race21", "--set", "oops")
    assert code == 2 and "KEY=VALUE" in err


def test_set_reaches_the_game_config(
    race21: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[dict[str, Any]] = []
    create = race21.SPEC.create
    spec = dataclasses.replace(
        race21.SPEC, create=lambda c, s: seen.append(dict(c)) or create(c, s)
    )
    match.register_game(spec)
    code, _out, _err = run(capsys, "race21", "--set", "target=5", "--set", "label=fast")
    assert code == 0
    assert seen and all(c["target"] == 5 and c["label"] == "fast" for c in seen)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["wok", "--set", "ruleset=no-such-rules"], "ruleset"),
        (["wok", "--set", "names=5"], "names"),
        (["wok", "--set", "colour_count=3"], "colour_count"),
        (["tactics", "--set", "armies=5"], "armies"),
        (["tactics", "--cards", "royalty"], "cards"),
        (["worldwar", "--set", "cards=7"], "cards"),
        (["worldwar", "--set", "nonsense=1"], "nonsense"),
    ],
)
def test_a_bad_config_is_a_clear_error_naming_the_key(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, _out, err = run(capsys, *args, "--games", "1")
    assert code == 2
    assert fragment in err and "Traceback" not in err


def test_sim_counts_the_games_that_reached_the_turn_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "worldwar", "--players", "3", "--games", "2", "--max-turns", "2")
    assert code == 0, err
    assert "games that reached the turn limit: 2 of 2" in flat(out)
