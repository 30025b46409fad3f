"""The WoK top bar and help follow the rule set's data: WoK IV's tech is tech points, and
the F1 help describes each rule set's phases, trades and covert operations with its own
figures (a changed rules record changes the help)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pygame
import pytest

from suite.ui.harness import Harness
from suite.wok.rules.helptext import PHASES, help_sections
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch
from suite.wok.screens.overlays import HelpScene
from suite.wok.screens.report import ReportScene

SIZES = ((800, 560), (1920, 1080))


def game(h: Harness, ruleset: str) -> GameScene:
    match = WokMatch.new(
        {"ruleset": ruleset, "map": "trial"}, 3, [SeatPlan("Han"), SeatPlan("Kor", "robot")]
    )
    scene = GameScene(h.app, match, bot_delay=0.0)
    h.push(scene)
    h.frames(3)
    for _ in range(3):
        if isinstance(h.scene, ReportScene):
            h.key(pygame.K_RETURN, frames=2)
    assert h.scene is scene
    return scene


def test_the_top_bar_names_tech_as_the_rule_set_counts_it() -> None:
    with Harness(size=(1280, 800)) as h:
        wok4 = game(h, "wok4")
        text = wok4.top_figures(wok4.current())
        assert "Tech points 0" in text and "Gold" not in text  # WoK IV has no gold
    with Harness(size=(1280, 800)) as h:
        standard = game(h, "standard")
        text = standard.top_figures(standard.current())
        assert "Tech 0" in text and "Tech points" not in text and "Gold 0" in text


def _text(ruleset: str) -> dict[str, str]:
    return {title: " ".join(lines) for title, lines in help_sections(load_ruleset(ruleset))}


def test_wok_iv_help_describes_its_phases_trades_and_covert_operations() -> None:
    rules = load_ruleset("wok4")
    sections = _text("wok4")
    turn = help_sections(rules)[0][1]
    assert len(turn) == 1 + len(rules.phases)  # the intro, then one line per phase in order
    for i, phase in enumerate(rules.phases, 1):
        assert turn[i] == f"{i}. {PHASES[phase](rules)}"
    assert "3 attacks a turn, +1 at 50, 100, 150, 200 tech points (at most 7)" in sections["A turn"]
    assert "spent whether they can run or not" in sections["A turn"]
    assert "within 3 of the source" in sections["A turn"]
    assert "5-13 tech points" in sections["A turn"]
    assert "at most 999 are kept" in sections["Tech points"]
    assert rules.trades is not None and rules.covert is not None
    for offer in rules.trades.offers:
        assert f"{offer.points} tech points:" in sections["Tech trades"]
    assert "350 tech points: DEF +0.6, LEV +0.5 in every province." in sections["Tech trades"]
    assert "MIS only where there are workers" in sections["Tech trades"]
    for op in rules.spying.operations:
        assert op.replace("_", " ").capitalize() + ":" in sections["Covert operations"]
    assert "Steal pop: 1 x EFF -20 %" in sections["Covert operations"]
    assert "steals 15 POP per spy" in sections["Covert operations"]
    assert "Spy player: 6" in sections["Covert operations"]
    standard = _text("standard")
    assert "Tech trades" not in standard and "Covert operations" not in standard
    assert "Upgrades: up to 3 a turn, costing 100, 200, 300 gold" in standard["A turn"]


def test_the_help_is_written_from_the_rules_data() -> None:
    rules = load_ruleset("wok4")
    assert rules.trades is not None
    offers = (msgspec.structs.replace(rules.trades.offers[0], points=120, mis=4),)
    modded = msgspec.structs.replace(
        rules, trades=msgspec.structs.replace(rules.trades, offers=offers, orders=2)
    )
    text = dict(help_sections(modded))["Tech trades"]
    assert text[0].startswith("Up to 2 a turn")
    assert text[1:] == ["120 tech points: DEF +0.3, MIS +4 in every province."]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_f1_pages_through_the_wok_iv_help(size: tuple[int, int], artifacts: Path) -> None:
    with Harness(size=size) as h:
        scene = game(h, "wok4")
        h.key(pygame.K_F1)
        help_scene = h.scene
        assert isinstance(help_scene, HelpScene)
        seen: list[str] = []
        for page in range(len(help_scene.pages)):
            assert help_scene.page == page
            seen += [text for kind, text, _ in help_scene.pages[page] if kind == "head"]
            h.screenshot(artifacts / f"wok_help_wok4_{size[0]}x{size[1]}_p{page + 1}.png")
            h.key(pygame.K_RIGHT)
        assert seen == [
            "Keys",
            "A turn",
            "Tech points",
            "Tech trades",
            "Covert operations",
            "The robots' doctrine",
        ]
        assert help_scene.page == len(help_scene.pages) - 1  # the last page stays
        h.key(pygame.K_LEFT)
        assert help_scene.page == max(0, len(help_scene.pages) - 2)
        h.key(pygame.K_ESCAPE)
        assert h.scene is scene
