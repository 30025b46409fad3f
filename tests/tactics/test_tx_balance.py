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
        wins = piece.duel_wins + piece.squad_wins
        assert piece.rate == pytest.approx(wins / (piece.duel_games + piece.squad_games))
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


def test_pieces_are_keyed_by_id_when_names_repeat(make_pack, capsys) -> None:  # type: ignore[no-untyped-def]
    """Two pieces named alike stay two lines, told apart by their ids."""
    from .conftest import GOOD_INI

    twin = (
        "piece2 = Knight, skins\\knight, 0, 14, 0, 6, 4, 3, 0, 1, 3, 1, 0, 1, 1, 1, 1, 1, 2, "
        '0, 0, "", 0\n[map1]'
    )
    root = make_pack(GOOD_INI.replace("[map1]", twin))
    report = balance.run_balance(root, battles=2, squads=2)
    labels = sorted(p.label for p in report.pieces)
    assert labels == ["Knight #1", "Knight #2"]
    assert all(p.duel_games == 2 for p in report.pieces)


def test_squads_weigh_by_games() -> None:
    line = balance.PieceBalance(
        1, "A", 10, 4, duel_wins=1, duel_games=2, squad_wins=9, squad_games=10
    )
    assert line.rate == pytest.approx(10 / 12)
