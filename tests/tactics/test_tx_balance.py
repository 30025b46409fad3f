"""The balance report: piece lines, round robins, the chart and the command."""

from __future__ import annotations

from pathlib import Path

import pytest

import suite.tactics.balance as balance
from suite.tactics.tools import run_tool


def test_report_lines_and_round_robins(artifacts: Path) -> None:
    seen: list[tuple[int, int]] = []
    report = balance.run_balance(
        None, battles=2, squads=4, progress=lambda d, t: seen.append((d, t))
    )
    names = {p.name: p for p in report.pieces}
    assert names["Swordsman"].short_form == "21/4" and names["Swordsman"].stat_sum == 25
    assert report.median_sum == 24  # sums of the shipped pack: 20, 23, 24 x6, 25, 26, 28, 31
    pairs = len(report.pieces) * (len(report.pieces) - 1) // 2
    assert seen[-1] == (pairs * 2 + 4, pairs * 2 + 4)
    assert all(p.duel_games == 2 * (len(report.pieces) - 1) for p in report.pieces)
    assert sum(p.duel_wins for p in report.pieces) == pytest.approx(pairs * 2)
    assert sum(p.squad_games for p in report.pieces) >= 8
    for piece in report.pieces:
        assert 0.0 <= piece.rate <= 1.0
        assert report.flag(piece) in ("", "over", "under")
    chart = artifacts / "tx_balance.png"
    balance.write_chart(report, chart)
    assert chart.stat().st_size > 1000


def test_command_prints_a_table_and_writes_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "chart.png"
    code = run_tool(["balance", "--battles", "1", "--squads", "2", "--chart", str(chart)])
    out = capsys.readouterr().out
    assert code == 0 and chart.exists()
    assert "Swordsman" in out and "21/4" in out
    assert run_tool(["balance", "--map", "99", "--chart", str(chart)]) == 2
    assert run_tool(["balance", str(tmp_path / "nothing")]) == 2


def test_suite_command_line_has_the_tools(tmp_path: Path) -> None:
    from suite.cli import main

    chart = tmp_path / "chart.png"
    assert (
        main(["tactics", "balance", "--battles", "1", "--squads", "0", "--chart", str(chart)]) == 0
    )
    assert chart.exists()
    assert main(["sim", "tactics", "--games", "1", "--map", "1"]) == 0
