"""`suite sim wok` plays whole games headless and reports winners, turns and time per turn."""

from __future__ import annotations

import pytest

from suite.cli import main


def test_sim_prints_winners_turns_and_time(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "wok", "--variant", "trinity", "--players", "3", "--bots", "general"]
    assert main([*args, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "seat" in out and "turns" in out and "ms of engine time per turn" in out
    assert "how games ended:" in out


def test_sim_bad_variant_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "wok", "--variant", "duel", "--players", "3"]) == 2
    assert "duel is for 2 players" in capsys.readouterr().err


def test_sim_plays_wok_duel(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "wok", "--variant", "duel", "--games", "2", "--bots", "general,robot"]
    assert main(args) == 0
    assert "seat" in capsys.readouterr().out


def test_sim_turn_cap_ends_by_score(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "wok", "--players", "4", "--max-turns", "3", "--bots", "general"]
    assert main([*args, "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "3.0 turns" in out


def test_sim_plays_intermediate_and_refuses_what_it_lacks(capsys: pytest.CaptureFixture[str]):
    def err() -> str:
        return " ".join(capsys.readouterr().err.split())  # the console wraps long lines

    args = ["sim", "wok", "--set", "ruleset=intermediate", "--bots", "general,robot"]
    assert main([*args, "--games", "2"]) == 0
    assert "seat" in capsys.readouterr().out
    assert main(["sim", "wok", "--set", "ruleset=intermediate", "--variant", "duel"]) == 2
    assert "unknown variant 'duel' (key `variant`; have: skirmish)" in err()
    assert main(["sim", "wok", "--set", "ruleset=wok5"]) == 2
    assert "unknown ruleset 'wok5' (key `ruleset`; have: intermediate, standard, wok4)" in err()


def test_sim_plays_wok4(capsys: pytest.CaptureFixture[str]):
    args = ["sim", "wok", "--set", "ruleset=wok4", "--bots", "general,robot,random"]
    assert main([*args, "--players", "3", "--set", "map=star-islands", "--games", "2"]) == 0
    assert "seat" in capsys.readouterr().out


def test_sim_counts_the_seats_that_play_and_a_variant_takes_its_player_count(capsys) -> None:
    """Issue 23 item 8: robots are colours, not seats; trinity needs no --players."""
    assert main(["sim", "wok", "--players", "5", "--set", "robots=4", "--games", "1"]) == 0
    assert "1 games, 1 seat for 5 players," in capsys.readouterr().out
    assert main(["sim", "wok", "--variant", "trinity", "--games", "1", "--max-turns", "3"]) == 0
    assert "1 games, 3 seats," in capsys.readouterr().out
    assert main(["sim", "wok", "--variant", "trinity", "--players", "2"]) == 2  # named: refused
    assert "trinity is for 3 players, not 2" in capsys.readouterr().err
    assert main(["sim", "wok", "--games", "1", "--max-turns", "2"]) == 0
    assert "1 games, 2 seats," in capsys.readouterr().out
