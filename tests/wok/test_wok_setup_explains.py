"""Issue 23 item 3: the set-up explains itself: a line on the rule set and one on the
variant (rules data), the Resume list names map, players, turn and date, and the Players
arrows say why there are no more (or fewer) players."""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.ui.harness import Harness
from suite.ui.widgets import TOOLTIP_DELAY
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch, autosave_path, saves_dir
from suite.wok.screens.overlays import MenuScene
from suite.wok.screens.setup import SetupScene

from .test_wok_screen_parts import SIZES, choose, close_reports  # noqa: TID252


def test_a_line_on_the_rule_set_and_one_on_the_variant(artifacts: Path) -> None:
    for size in SIZES:
        tag = f"{size[0]}x{size[1]}"
        with Harness(size=size) as h:
            setup = h.push(SetupScene(h.app))
            assert isinstance(setup, SetupScene)
            seen = set()
            for ruleset in ("standard", "intermediate", "wok4"):
                choose(h, setup.ruleset, ruleset)
                rules = load_ruleset(ruleset)
                for variant in setup.variant.choices:
                    choose(h, setup.variant, variant)
                    lines = setup.summaries()
                    summary = rules.variants[variant].summary
                    assert lines == [
                        f"{rules.title}: {rules.summary}",
                        f"{variant.capitalize()}: {summary}",
                    ]
                    assert rules.summary and summary
                    if setup._summary_right:  # no room left of the players: under them
                        assert setup.notes()[:2] == lines
                    else:
                        text = " ".join(setup._summary_lines)
                        assert " ".join(" ".join(lines).split()) == " ".join(text.split())
                    seen.add(rules.summary)
                    if (ruleset, variant) in (("intermediate", "skirmish"), ("standard", "duel")):
                        h.screenshot(artifacts / f"wok_setup_{ruleset}_{variant}_{tag}.png")
            assert len(seen) == 3


def test_the_players_arrows_say_why_they_stop(artifacts: Path) -> None:
    with Harness(size=(800, 560)) as h:
        setup = h.push(SetupScene(h.app))
        assert isinstance(setup, SetupScene)
        choose(h, setup.map, "trial")
        right = setup.players.right
        assert setup.players.value == "2" and not right.enabled
        assert "Trial has start provinces for 2 players" in right.tooltip
        h.click(right)
        assert setup.players.value == "2"  # no wrapping round, no change
        h.move(right.rect.center)
        h.seconds(TOOLTIP_DELAY + 0.2)
        h.screenshot(artifacts / "wok_setup_players_limit_800x560.png")
        choose(h, setup.map, "star-islands")
        for _ in range(12):
            if not setup.players.right.enabled:
                break
            h.click(setup.players.right)
        top = setup.players.value
        assert f"start provinces for {top} players" in setup.players.right.tooltip
        choose(h, setup.variant, "duel")
        assert setup.players.right.tooltip == "Duel is for 2 players"
        assert not setup.players.left.enabled and not setup.players.right.enabled


def test_the_resume_list_names_map_players_turn_and_date(artifacts: Path) -> None:
    match = WokMatch.new(
        {"map": "trial"}, 8, [SeatPlan("Han"), SeatPlan("Kor", "robot")], autosave=autosave_path()
    )
    with Harness(size=(1280, 800)) as h:
        scene = GameScene(h.app, match, bot_delay=0.0)
        h.push(scene)
        close_reports(h)
        h.key(pygame.K_r, frames=3)
        close_reports(h)
        path = scene.save_game()
        assert path is not None
        (saves_dir() / "junk.json").write_text("{nonsense")
        setup = SetupScene(h.app)
        h.push(setup)
        h.click(setup.resume_button)
        assert isinstance(h.scene, MenuScene)
        labels = [b.label for b in h.scene.buttons]
        turn = match.view(0).turn
        assert any(
            t.startswith(f"WoK Standard, Trial, 2 players, turn {turn} - ") for t in labels
        ), labels
        assert any(t.startswith("Autosave: WoK Standard, Trial, 2 players") for t in labels)
        assert any(t.startswith("junk (unreadable) - ") for t in labels)
        h.screenshot(artifacts / "wok_resume_list_1280x800.png")
