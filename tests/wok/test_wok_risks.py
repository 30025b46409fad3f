"""Issue 23 item 1 (warnings): a draft that leaves a province empty or nearly, attacks
with less than an even chance, or starves a province's POP is pointed out in the form
and once more before Ready."""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.ui.harness import Harness
from suite.wok.rules.draft import Draft, Planner
from suite.wok.rules.orders import Attack, Transform
from suite.wok.rules.risks import draft_risks, order_risks
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch
from suite.wok.screens.timer import TimedConfirm

from .test_wok_screen_draft import view_of  # noqa: TID252
from .test_wok_screen_parts import SIZES, close_reports  # noqa: TID252


def test_the_risks_of_a_draft() -> None:
    v = view_of()
    home = v.colours[0].homes[0]
    fig = v.provinces[home].figures
    assert fig is not None and fig.arm > 6
    name = v.map.provinces[home].name
    target = v.map.provinces[home].neighbours[0]
    keep = v.rules.start.neutral.arm
    draft = Draft.from_view(v)
    plan = Planner(v, draft)
    assert draft_risks(plan, 0) == []
    everything = Attack(home, target, fig.arm)
    assert order_risks(plan, 0, "attacks", everything) == [
        f"{name} is left without troops: anyone may walk in"
    ]
    draft.add(0, "attacks", Attack(home, target, fig.arm - (keep - 1)))
    risks = draft_risks(Planner(v, draft), 0)
    assert f"{name} keeps only {keep - 1} troops (a neutral has {keep}): easy to take" in risks
    draft = Draft.from_view(v)
    draft.add(0, "attacks", Attack(home, target, 1))  # one army against the neutral's
    risks = draft_risks(Planner(v, draft), 0)
    assert any(r.startswith(f"the attack on {v.map.provinces[target].name} has ") for r in risks)
    draft = Draft.from_view(v)
    ratio = v.rules.transform.ratios["POP_WOK"]
    first = v.limits.transform_amount - v.limits.transform_amount % ratio
    draft.add(0, "transforms", Transform(home, "POP_WOK", first))
    assert draft_risks(Planner(v, draft), 0) == []  # enough POP left to grow
    spend = fig.pop - first - 2
    spend -= spend % ratio
    left = fig.pop - first - spend
    assert v.rules.grown(left) == left  # too few to grow (rules data)
    risk = order_risks(Planner(v, draft), 0, "transforms", Transform(home, "POP_WOK", spend))
    assert risk == [f"{name} keeps {left} POP: it stops growing"]


def test_the_form_warns_and_ready_asks_first(artifacts: Path) -> None:
    for size in SIZES:
        match = WokMatch.new({"map": "trial"}, 4, [SeatPlan("Han"), SeatPlan("Kor", "robot")])
        tag = f"{size[0]}x{size[1]}"
        with Harness(size=size) as h:
            scene = GameScene(h.app, match, bot_delay=1e9)
            h.push(scene)
            close_reports(h)
            home = scene.view.colours[0].homes[0]
            target = scene.view.map.provinces[home].neighbours[0]
            h.key(pygame.K_1 + scene.form.phases.index("attacks"))
            h.click(scene.mapview.centre(home))
            h.click(scene.mapview.centre(target))
            h.key(pygame.K_m)
            careful = [t for t, _ in scene.form.message if t.startswith("Careful: ")]
            assert any("left without troops" in t for t in careful), scene.form.message
            h.screenshot(artifacts / f"wok_risk_form_{tag}.png")
            h.key(pygame.K_RETURN)
            h.key(pygame.K_r)
            assert isinstance(h.scene, TimedConfirm) and h.scene.question == "Risky orders"
            assert "left without troops" in h.scene.detail
            h.screenshot(artifacts / f"wok_risk_ready_{tag}.png")
            h.key(pygame.K_ESCAPE)  # back to the orders: nothing sent
            assert h.scene is scene and not scene.view.is_ready
            h.key(pygame.K_r)
            h.key(pygame.K_RETURN, frames=3)  # Ready anyway
            assert scene.view.is_ready or scene.view.turn == 2
