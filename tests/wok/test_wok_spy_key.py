"""Issue 23 item 6: WoK IV's spy key gives WoK IV's rule (one roll an order, next door or
farther) and outlines only the provinces the chosen operation may target."""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.ui.harness import Harness
from suite.wok.rules.draft import Draft, Planner

from .test_wok_screen_draft import view_of  # noqa: TID252
from .test_wok_screen_parts import SIZES, trial_against_a_robot  # noqa: TID252


def test_operations_that_need_a_neighbour_target_only_neighbours() -> None:
    v = view_of(ruleset="wok4")
    home = v.colours[0].homes[0]
    plan = Planner(v, Draft.from_view(v))
    near = v.map.provinces[home].neighbours[0]
    plan.owner[near] = 1  # an enemy next door (the start has none)
    enemy = [p for p, o in enumerate(plan.owner) if o >= 0 and o != 0]
    assert len(enemy) > 1
    cv = v.rules.covert
    assert cv is not None
    for name, op in cv.ops.items():
        targets = plan.targets(0, "spies", home, name)
        assert targets == (enemy if op.far else [near]), name
    assert not cv.ops["STEAL_POP"].far and not cv.ops["SABOTAGE_MIS"].far


def test_the_wok4_spy_key_and_outlines_follow_the_operation(artifacts: Path) -> None:
    with Harness(size=(800, 560)) as h:
        scene = trial_against_a_robot(h, "wok4", 4)
        h.key(pygame.K_1 + scene.form.phases.index("spies"))
        home = scene.view.colours[0].homes[0]
        h.click(scene.mapview.centre(home))
        kinds = scene.form.kind
        shot = 0
        for _ in range(len(kinds.choices)):
            op = scene.view.rules.covert.ops[kinds.value]  # type: ignore[union-attr]
            key = " / ".join(text for _, text in scene.overlay_key())
            strong, soft = scene.overlay()
            assert "each spy" not in key and "spies get there" not in key, key  # Standard's
            assert "one roll" in key
            near = set(scene.view.map.provinces[home].neighbours)
            assert set(strong) <= near
            if op.far:
                assert soft and "farther" in key, kinds.value
            else:
                assert soft == [] and "only neighbours" in key, kinds.value
                if not strong:  # no other player next door: the form says why
                    assert any("next to" in text for text, _ in scene.form.message)
            if kinds.value in ("SPY_PROVINCE", "STEAL_POP"):
                for size in SIZES:
                    h.resize(size)
                    shot += 1
                    h.screenshot(
                        artifacts / f"wok_iv_spy_key_{kinds.value}_{size[0]}x{size[1]}.png"
                    )
                h.resize((800, 560))
            h.click(kinds.right)
        assert shot == 4
