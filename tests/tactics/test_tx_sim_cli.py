"""`suite sim tactics --pack DIR --pieces-per-turn K` (issue 7, item 9)."""

from __future__ import annotations

import pytest

from suite.cli import main
from suite.paths import asset


def test_sim_takes_the_pack_and_pieces_per_turn(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "tactics", "--pack", str(asset("tactics")), "--pieces-per-turn", "2"]
    assert main([*args, "--games", "2", "--bots", "normal"]) == 0
    out = capsys.readouterr().out
    assert "tactics: 2 games" in out and "how games ended:" in out


def test_sim_refuses_a_missing_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "tactics", "--pack", "/no/such/pack", "--games", "1"]) == 2
    assert "no such pack folder" in capsys.readouterr().err


def test_sim_refuses_a_bad_pieces_per_turn(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "tactics", "--pieces-per-turn", "9", "--games", "1"]) == 2
    assert "pieces_per_turn" in capsys.readouterr().err


def test_other_games_refuse_tactics_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "wok", "--pack", "x", "--games", "1"]) == 2
    assert "wok has no option for pack" in capsys.readouterr().err


def test_each_map_in_turn_by_seed() -> None:
    """With no --map, game i of a sim (seed + i) plays the pack's maps in turn."""
    from suite.core.match import new_game
    from suite.tactics.rules.packs import playable_maps

    played = [new_game("tactics", {"players": 2, "map": None}, seed) for seed in range(7)]
    maps = playable_maps(played[0].pack, 2)
    assert [state.map_id for state in played] == [maps[i % len(maps)] for i in range(7)]
    assert len(set(maps)) == 7


def test_sim_with_per_seat_bots_and_pieces_per_turn(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "tactics", "--games", "3", "--bots", "random,normal", "--pieces-per-turn", "3"]
    assert main(args) == 0
    assert "tactics: 3 games, 2 seats, bots: random,normal" in capsys.readouterr().out


@pytest.mark.parametrize(
    "bad",
    [["--map", "nowhere"], ["--bots", "a,b,c"], ["--bots", "genius"], ["--pieces-per-turn", "7"]],
)
def test_bad_options_are_refused(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "tactics", "--games", "1", *bad]) == 2
    assert "error" in capsys.readouterr().err


def test_suite_sim_plays_every_default_map_to_the_end() -> None:
    from suite.sim import simulate

    report = simulate("tactics", 4, 1, 7, options={"max_turns": 40})
    assert report.unfinished == 0 and sum(report.wins.values()) == 7
