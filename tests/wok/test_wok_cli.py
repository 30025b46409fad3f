"""`suite wok-sim` and `suite sim wok` play whole games headless."""

from __future__ import annotations

import pytest

from suite.cli import main


def test_wok_sim_prints_winners_turns_and_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wok-sim", "--variant", "trinity", "--players", "3", "--bots", "general"]) == 0
    out = capsys.readouterr().out
    assert "won (" in out and "turns" in out and "ms per turn" in out


def test_wok_sim_bad_variant_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wok-sim", "--variant", "duel", "--players", "3"]) == 2
    assert "duel is for 2 players" in capsys.readouterr().err


def test_generic_sim_plays_wok_duel(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "wok", "--variant", "duel", "--games", "2", "--bots", "general,robot"]
    assert main(args) == 0
    assert "seat" in capsys.readouterr().out
