"""`suite tactics sim`: battles on a pack with per-seat bots and pieces per turn."""

from __future__ import annotations

import pytest

from suite.tactics.tools import run_tool


def test_each_map_in_turn_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = run_tool(["sim", "--games", "3", "--bots", "random,normal", "--pieces-per-turn", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Green Meadow x1" in out and "Twin Rivers x1" in out and "Lava Keep x1" in out


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_tool(["sim", "--map", "nowhere"]) == 2
    assert run_tool(["sim", "--bots", "a,b,c"]) == 2
    assert run_tool(["sim", "--bots", "genius"]) == 2
    assert run_tool(["sim", "--pieces-per-turn", "7", "--games", "1"]) == 2
    assert "error" in capsys.readouterr().out


def test_suite_sim_plays_every_default_map_to_the_end() -> None:
    from suite.sim import simulate

    report = simulate("tactics", 4, 1, 7, options={"max_turns": 40})
    assert report.unfinished == 0 and sum(report.wins.values()) == 7
