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
