"""World War screens that read well (issue 15 items 3, 4, 9, 14): nothing overlaps at
800x560, tooltips keep off the panel they explain, chart gridlines sit on their labels,
names and continents on the map, dice paired as compared, charts at any time."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from suite.ui.harness import Harness
from suite.worldwar.rules.engine import WorldWarState
from suite.worldwar.rules.maps import resolve_map
from suite.worldwar.rules.modes import current_mission
from suite.worldwar.screens.effects import BattleCard, DiceTray
from suite.worldwar.screens.game import GameScene
from suite.worldwar.screens.gameover import GameOverScene
from suite.worldwar.screens.hud import instruction_lines, legend_box, legend_header
from suite.worldwar.screens.mapview import MapView
from suite.worldwar.screens.match import Match, SeatInfo
from suite.worldwar.screens.stats import StatsScene, grid_steps, gridlines, series

SMALL = (800, 560)


def six_seats() -> list[SeatInfo]:
    kinds = ["human", "easy", "easy", "random", "random", "easy"]
    return [SeatInfo(f"Player number {i + 1}", i, k) for i, k in enumerate(kinds)]


def game(h: Harness, seats: list[SeatInfo], **config: object) -> GameScene:
    match = Match({"map": "classic", "cards": "increasing", **config}, 5, seats)
    scene = GameScene(h.app, match, speed=3)
    h.push(scene)
    return scene


def until_human(h: Harness, g: GameScene, phases: tuple[str, ...]) -> None:
    for _ in range(2000):
        if g.human_turn() is not None and g.v.phase in phases:
            return
        h.frames(1)
    raise AssertionError(f"the human never got to {phases}")


def check_side_panel(g: GameScene) -> None:
    """Every instruction line inside the action panel, clear of every button shown."""
    r = g.action_rect
    shown = [b.rect for b in g.controls() if r.colliderect(b.rect)]
    lines = instruction_lines(g)
    assert lines, "the step has instructions"
    for _, _, rect in lines:
        assert r.contains(rect), (rect, r)
        assert rect.collidelist(shown) < 0, f"{rect} under a button"
    for b in g.controls():
        assert pygame.Rect((0, 0), g.app.size).contains(b.rect)
    top = [b.rect for b in g.top_buttons]
    for i, a in enumerate(top):
        assert a.collidelist(top[i + 1 :]) < 0
    assert g.players_rect.bottom <= g.action_rect.top <= g.action_rect.bottom <= g.panel.bottom


def pick_attack(g: GameScene) -> tuple[int, int]:
    v = g.v
    seat = g.human_turn()
    for s in range(len(v.owner)):
        if v.owner[s] == seat and v.attack_dice(s) > 0:
            for t in v.map.neighbours[s]:
                if v.owner[t] != seat:
                    return s, t
    raise AssertionError("no attack")


def test_side_panel_fits_800x560_with_six_players(artifacts: Path) -> None:
    with Harness(size=SMALL) as h:
        g = game(h, six_seats(), auto_place=True)
        until_human(h, g, ("place",))
        check_side_panel(g)
        h.screenshot(artifacts / "ww_small_place.png")
        g.place(next(t for t, o in enumerate(g.v.owner) if o == g.human_turn()), 99)
        h.frames(2)
        until_human(h, g, ("attack",))
        check_side_panel(g)
        s, t = pick_attack(g)
        h.click(g.map.point_in(s) or (0, 0))
        h.click(g.map.point_in(t) or (0, 0))
        assert (g.selected, g.target) == (s, t)
        check_side_panel(g)  # the odds, the dice buttons, Cancel, Attack once, To the end
        h.screenshot(artifacts / "ww_small_odds.png")


def test_tooltips_of_the_step_buttons_leave_the_panel_readable(artifacts: Path) -> None:
    with Harness(size=SMALL) as h:
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")])
        until_human(h, g, ("setup",))
        h.move((5, g.app.size[1] - 5), frames=3)
        before = h.app.screen.subsurface(g.action_rect).copy()
        h.move(g.auto_button.rect.center, frames=40)  # past the tooltip delay
        assert g.auto_button.hover.tooltip_due
        h.app.draw()
        after = h.app.screen.subsurface(g.action_rect)
        panel_text = pygame.Rect(
            0, 0, g.action_rect.width, g.auto_button.rect.top - 8 - g.action_rect.y
        )
        changed = [
            (x, y)
            for x in range(0, panel_text.width, 3)
            for y in range(0, panel_text.height, 3)
            if before.get_at((x, y)) != after.get_at((x, y))
        ]
        assert not changed, f"the tooltip covered the panel at {changed[:3]}"
        h.screenshot(artifacts / "ww_small_tooltip.png")
        area, _ = g.tooltip_spot(g.auto_button)
        assert area == g.map.rect


def test_the_game_over_screen_drops_the_last_notices() -> None:
    seats = [SeatInfo("A", 0, "hard"), SeatInfo("B", 1, "easy")]
    match = Match({"map": "random:18:4"}, 3, seats)
    for _ in range(3000):
        if match.run_bot() is None:
            break
    assert match.over
    with Harness(size=SMALL) as h:
        h.app.toasts.add("B is out!", 3.0)
        h.push(GameOverScene(h.app, match, None))
        assert h.notices == []
        assert not h.scene.animating()


@pytest.mark.parametrize("highest", [0, 1, 3, 7, 14, 42, 99, 100, 1234, 17000])
def test_chart_gridlines_sit_on_the_values_they_name(highest: int) -> None:
    top, step = grid_steps(highest)
    assert top >= highest and step >= 1 and top % step == 0
    assert str(int(step)).rstrip("0") in ("1", "2", "5")  # round steps only
    plot = pygame.Rect(10, 20, 300, 200)
    lines = gridlines(plot, top, step)
    assert len(lines) <= 6
    for value, y in lines:
        assert value % step == 0
        # the same scale the chart's lines use for a point of that value
        assert y == round(plot.bottom - plot.height * value / top)
    assert lines[0] == (0, plot.bottom) and lines[-1] == (top, plot.top)


def test_stats_from_the_hud_at_any_time(artifacts: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")], auto_place=True)
        until_human(h, g, ("place",))
        h.click(g.stats_button)
        stats = h.scene
        assert isinstance(stats, StatsScene) and not stats.animating()
        cards = series(g.match, "cards")
        assert [row[-1] for row in cards] == list(g.v.hand_sizes)
        land = series(g.match, "territories")
        assert [row[-1] for row in land] == list(g.v.territory_counts)
        h.screenshot(artifacts / "ww_stats_overlay.png")
        h.key(pygame.K_ESCAPE)
        assert h.scene is g
        h.key(pygame.K_s)
        assert isinstance(h.scene, StatsScene)
        h.key(pygame.K_SPACE)
        assert h.scene is g


def test_dice_show_highest_first_paired_as_compared() -> None:
    tray = DiceTray((2, 6, 4), (5, 5), (200, 0, 0), (0, 0, 200), "x", 1, 1)
    assert tray.pairs() == [(6, 5), (4, 5), (2, None)]
    tray = DiceTray((3,), (1, 6), (200, 0, 0), (0, 0, 200), "x", 0, 1)
    assert tray.pairs() == [(3, 6), (None, 1)]


def test_battle_panels_keep_off_the_battle() -> None:
    area = pygame.Rect(0, 58, 900, 700)
    tray = DiceTray((6,), (1,), (200, 0, 0), (0, 0, 200), "x", 0, 1)
    free = tray.rect_in(area)
    assert free.top == area.top + 12
    under = [free.center]
    moved = tray.rect_in(area, under)
    assert not moved.inflate(20, 20).collidepoint(under[0]) and moved.bottom == area.bottom - 12
    card = BattleCard("x", 1, 2, True)
    assert not card.rect_in(area, under).collidepoint(under[0])


def test_names_are_drawn_on_the_map_without_overlapping() -> None:
    pygame.display.init()
    pygame.font.init()
    view = MapView(resolve_map("classic"), pygame.Rect(0, 58, 1500, 1000))
    view.draw(pygame.Surface((1600, 1100)), [1] * 42, [0] * 42)
    rects = [rect for _, rect, _, _ in view.names]
    assert len(rects) >= 36  # nearly every territory is named at this size
    for i, a in enumerate(rects):
        assert a.collidelist(rects[i + 1 :]) < 0
    small = MapView(resolve_map("classic"), pygame.Rect(0, 58, 500, 500))
    small.draw(pygame.Surface(SMALL), [1] * 42, [0] * 42)
    assert 10 <= len(small.names) < len(rects)  # fewer fit; zooming in shows more
    small.zoom_at(small.rect.center, 4)
    small.draw(pygame.Surface(SMALL), [1] * 42, [0] * 42)
    assert len(small.names) > 10


def test_legend_collapses_and_keeps_off_the_territories_acted_on() -> None:
    with Harness(size=(1280, 800)) as h:
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")])
        open_box = legend_box(g)
        h.click(legend_header(g))
        assert g.legend_collapsed and legend_box(g).height < open_box.height
        h.click(legend_header(g))
        assert not g.legend_collapsed
        # zoomed in, land fills every corner: a territory under the legend's corner, once
        # acted on, moves the legend away
        g.map.zoom_at(g.map.rect.center, 6)
        open_box = legend_box(g)
        # the territory nearest the legend (the legend covers no badge when it can)
        under = min(
            range(len(g.v.owner)),
            key=lambda t: pygame.Vector2(g.map.label_screen(t)).distance_to(open_box.center),
        )
        g.selected = under
        moved = legend_box(g)
        assert not moved.inflate(20, 20).collidepoint(g.map.label_screen(under))


def test_changing_the_bot_speed_in_game_is_saved() -> None:
    with Harness(size=SMALL) as h:
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")])
        before = g.speed.index
        h.click(g.speed)
        assert g.match.speed == g.speed.index != before


def test_idle_scenes_ask_for_no_frames() -> None:
    """Issue 15.11: set-up, map and game over draw nothing while nothing moves."""
    from suite.worldwar.screens import open_setup

    with Harness(size=SMALL) as h:
        setup = h.push(open_setup(h.app))
        h.frames(2)
        assert not setup.animating()
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")], auto_place=True)
        bots_first = g.match.actor in g.match.bot_seats
        assert g.animating() == bots_first  # bots to pace keep the screen drawing
        until_human(h, g, ("place",))
        h.frames(200)  # the last roll and rings fade out
        assert g.tray is None and not g.animating()
        h.frames(1)
        draws = h.app.draws
        h.app._awake_for = 0.0  # as if the input had settled
        h.frames(30)
        assert h.app.draws == draws  # idle: nothing is drawn
        h.key(pygame.K_s)
        assert not h.scene.animating()


@pytest.mark.parametrize(
    ("size", "setting", "factor"),
    [
        ((800, 560), 1.0, 1.0),
        ((800, 560), 2.0, 1.0),  # a big setting in a small window: what fits
        ((800, 560), 0.8, 0.8),
        ((1280, 800), 1.0, 1.0),
        ((1280, 800), 1.25, 1.176),
        ((1920, 1080), 1.0, 1.35),
        ((2560, 1440), 1.0, 1.8),
        ((2560, 1440), 2.0, 2.118),
    ],
)
def test_ui_factor_follows_window_and_setting(
    size: tuple[int, int], setting: float, factor: float
) -> None:
    from suite.ui.scale import ui_factor

    assert ui_factor(size, setting) == pytest.approx(factor, abs=0.002)


def test_ui_size_setting_is_kept_and_scales_the_screens(tmp_path: Path) -> None:
    from suite.ui.settings import SettingsWarning, load_settings, save_settings
    from suite.worldwar.screens import open_setup

    with Harness(size=(1920, 1080), settings_file=tmp_path / "settings.json") as h:
        setup = h.push(open_setup(h.app))
        k = setup.k
        title = setup.start_button.rect.height
        h.click(setup.size_choice)
        assert h.app.settings.ui_scale == 1.25
        assert setup.k > k and setup.start_button.rect.height > title
        assert load_settings(tmp_path / "settings.json").ui_scale == 1.25
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")])
        assert g.k == setup.k and g.top > 58
    broken = tmp_path / "broken.json"
    settings = load_settings(broken)
    save_settings(settings, broken)
    text = broken.read_text(encoding="utf-8").replace('"ui_scale": 1.0', '"ui_scale": "huge"')
    broken.write_text(text, encoding="utf-8")
    with pytest.warns(SettingsWarning, match="ui_scale"):
        again = load_settings(broken)
    assert again.ui_scale == 1.0 and again.name == settings.name


@pytest.mark.parametrize("size", [(800, 560), (1280, 800), (1920, 1080)])
def test_screens_at_three_window_sizes(size: tuple[int, int], artifacts: Path) -> None:
    """Issue 15.10: the map screen and the game-over screen at three sizes (screenshots
    looked at); the side panel never puts text under a button, fonts grow with the window."""
    seats = [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy"), SeatInfo("Cy", 2, "hard")]
    name = f"{size[0]}x{size[1]}"
    with Harness(size=size) as h:
        g = game(h, seats, auto_place=True)
        until_human(h, g, ("place",))
        g.place(next(t for t, o in enumerate(g.v.owner) if o == g.human_turn()), 99)
        until_human(h, g, ("attack",))
        s, t = pick_attack(g)
        h.click(g.map.point_in(s) or (0, 0))
        h.click(g.map.point_in(t) or (0, 0))
        check_side_panel(g)
        h.key(pygame.K_SPACE, frames=30)
        h.screenshot(artifacts / f"ww_size_game_{name}.png")
        assert g.k == (1.35 if size == (1920, 1080) else 1.0)
        bots = [SeatInfo("A", 0, "hard"), SeatInfo("B", 1, "easy"), SeatInfo("C", 2, "easy")]
        over = Match({"map": "classic"}, 4, bots)
        while over.run_bot() is not None:
            pass
        scene = GameOverScene(h.app, over, Path("game-0007.json"))
        h.push(scene)
        for button in scene.buttons:
            assert pygame.Rect((0, 0), size).contains(button.rect)
        h.screenshot(artifacts / f"ww_size_over_{name}.png")


@pytest.mark.parametrize("mode", ["capital", "mission"])
def test_modes_on_the_set_up_and_map_screens(mode: str, artifacts: Path) -> None:
    """Issue 15.12: the mode is chosen at set-up; capitals are starred on the map and the
    player sees its own mission (only its own)."""
    from suite.worldwar.screens import open_setup
    from suite.worldwar.screens.hud import goal_line
    from suite.worldwar.screens.setup import SetupScene

    with Harness(size=SMALL) as h:
        setup = h.push(open_setup(h.app))
        assert isinstance(setup, SetupScene)
        while setup.mode.value != mode:
            h.click(setup.mode)
        h.screenshot(artifacts / f"ww_setup_mode_{mode}.png")
        h.click(setup.start_button)
        g = h.scene
        assert isinstance(g, GameScene)
        v = g.v
        assert v.rules.mode == mode
        until_human(h, g, ("setup",))
        line = goal_line(g)
        if mode == "capital":
            assert len(v.capitals) == 2 and line.startswith("Win: hold every capital")
            h.move(g.map.point_in(v.capitals[0]) or (0, 0), frames=40)
        else:
            mission = g.v.mission
            state = g.match.local.state
            assert isinstance(state, WorldWarState) and g.viewer is not None
            assert mission == current_mission(state, g.viewer)
            assert line.startswith("Mission: ")
            assert g.match.view(None).mission is None
        check_side_panel(g)
        h.screenshot(artifacts / f"ww_map_mode_{mode}.png")


def test_a_small_window_starts_with_the_legend_folded() -> None:
    with Harness(size=SMALL) as h:
        g = game(h, [SeatInfo("Ann", 0), SeatInfo("Bo", 1, "easy")])
        assert g.legend_collapsed
        h.click(legend_header(g))
        assert not g.legend_collapsed
