"""Issue 23 item 2: Intermediate's terrains are learnable: the F1 help, the Troops panel
and the province box say which aim and troop each terrain favours, with the rule data's
+50 % and 0.05 (a changed rules record changes the words)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pygame

from suite.ui.harness import Harness
from suite.wok.rules.draft import troop_note
from suite.wok.rules.helptext import help_sections, terrain_note
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch
from suite.wok.screens.overlays import HelpScene

from .test_wok_screen_parts import SIZES, close_reports  # noqa: TID252


def test_the_help_has_the_terrains_from_the_rules_data() -> None:
    r = load_ruleset("intermediate")
    sections = dict(help_sections(r))
    text = " ".join(sections["Terrains"])
    for kind, home in {
        "KNI": "Plains",
        "ARC": "Forest",
        "PIK": "Hills",
        "CAT": "Mountains",
    }.items():
        assert f"{kind} in {home}" in text
    assert "+50%" in text and "0.05 x the share" in text and "Hills DEF" in text
    assert "Terrains" not in dict(help_sections(load_ruleset("standard")))
    assert r.terrain is not None
    other = msgspec.structs.replace(
        r, terrain=msgspec.structs.replace(r.terrain, bonus_level=0.07, aim_bonus=0.25)
    )
    text = " ".join(dict(help_sections(other))["Terrains"])
    assert "+25%" in text and "0.07 x the share" in text
    assert terrain_note(r, "Hills") == "Hills: DEF work +50%; PIK fight at +0.05 LEV"
    assert terrain_note(r, "Coast") == "Coast: MIS work +50%"
    assert troop_note(r, "CAT") == "CAT: +0.05 LEV in Mountains" and troop_note(r, "ARM") == ""


def test_the_troops_panel_and_the_province_box_name_the_terrain(artifacts: Path) -> None:
    match = WokMatch.new(
        {"ruleset": "intermediate", "map": "trial"}, 6, [SeatPlan("Han"), SeatPlan("Kor", "robot")]
    )
    for size in SIZES:
        with Harness(size=size) as h:
            scene = GameScene(h.app, match, bot_delay=1e9)
            h.push(scene)
            close_reports(h)
            home = scene.view.colours[0].homes[0]
            terrain = scene.view.map.provinces[home].terrain
            h.key(pygame.K_1 + scene.form.phases.index("troops"))
            texts = [t for t, _ in scene.form.message]
            assert "PIK: +0.05 LEV in Hills" in texts  # before a province is picked
            h.click(scene.mapview.centre(home))
            h.move(scene.mapview.centre(home))
            h.seconds(0.6)
            name = scene.view.map.provinces[home].name
            now = [t for t, _ in scene.form.message]
            assert f"PIK: +0.05 LEV in Hills; {name} is {terrain}" in now
            assert scene.info_rect is not None  # the province box names the terrain too
            tag = f"{size[0]}x{size[1]}"
            h.screenshot(artifacts / f"wok_intermediate_terrain_troops_{tag}.png")
            box = scene.info_rect
            assert box is not None and not box.colliderect(scene.mapview.bounds(home))
            h.key(pygame.K_F1)
            assert isinstance(h.scene, HelpScene)
            for page in range(3):
                h.screenshot(artifacts / f"wok_intermediate_help_{page + 1}_{tag}.png")
                h.key(pygame.K_RIGHT)
