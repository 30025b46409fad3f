"""Issue 23 item 5 on screen: in WoK IV, 99 typed into a move's amount box means "all
that may move" (M:344-347): the box shows "all", the order is accepted and sent as 99."""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.ui.harness import Harness
from suite.wok.rules.orders import Attack, Move

from .test_wok_screen_parts import trial_against_a_robot  # noqa: TID252


def test_typing_99_moves_all(artifacts: Path) -> None:
    with Harness(size=(800, 560)) as h:
        scene = trial_against_a_robot(h, "wok4", 4)
        form = scene.form
        home = scene.view.colours[0].homes[0]
        target = scene.view.map.provinces[home].neighbours[0]
        form.draft.add(0, "attacks", Attack(home, target, 6))  # a province to move into
        h.key(pygame.K_1 + form.phases.index("moves"))
        h.click(scene.mapview.centre(home))
        h.click(scene.mapview.centre(target))
        h.click(form._amount_box.center)
        h.type_text("99")
        assert form.amount == 99 and form.can_add(), form.message
        assert any(
            t.endswith("stay in " + scene.view.map.provinces[home].name) for t, _ in form.message
        )
        h.screenshot(artifacts / "wok_iv_move_all_800x560.png")
        h.key(pygame.K_RETURN)  # ends typing
        h.key(pygame.K_RETURN)  # adds the order
        assert form.draft.of(0, "moves") == [Move(home, target, form.kind.value, 99)]  # type: ignore[arg-type]
        assert form.kind.value == "POP"  # the first kind: POP, all that may move
