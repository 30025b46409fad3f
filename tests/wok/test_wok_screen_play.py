"""WoK through its screens, driven by posted pygame events (clicks on the map, keys).

The tests read the seat's view to decide where a player would click (as a player reads the
screen); every input of the human is a real event. One test enters a whole turn of orders
and checks the orders the engine received are exactly the intended ones; another plays a
2-player Skirmish to the end against a bot and watches its replay.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from suite.core.match import decode_action
from suite.ui.harness import Harness
from suite.wok.rules.orders import (
    Attack,
    OrderSet,
    SetAim,
    SetReady,
    SubmitOrders,
    Transform,
    Upgrade,
)
from suite.wok.screens import open_setup
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch
from suite.wok.screens.replay import ReplayScene
from suite.wok.screens.report import PAGES, GameOverScene, ReportScene
from suite.wok.screens.setup import SetupScene
from suite.wok.screens.timer import TimedConfirm

MAX_TURNS = 40


def new_game(h: Harness, seed: int = 4, bot: str = "general", delay: float = 0.0) -> GameScene:
    match = WokMatch.new({"map": "trial"}, seed, [SeatPlan("Han"), SeatPlan("Kor", bot)])
    scene = GameScene(h.app, match, bot_delay=delay)
    h.push(scene)
    h.frames(3)
    return scene


def close_report(h: Harness) -> None:
    for _ in range(4):
        if isinstance(h.scene, ReportScene):
            h.key(pygame.K_RETURN, frames=2)
    assert not isinstance(h.scene, ReportScene)


def assert_idle(h: Harness) -> None:
    """Once the notices are gone and the hover easing has settled, the screen on top draws
    nothing until input."""
    for _ in range(20):
        if not h.notices:
            break
        h.seconds(0.5)
    h.seconds(2.0)
    drawn = h.app.draws
    h.frames(120)
    assert h.app.draws == drawn, f"{type(h.scene).__name__} kept drawing while idle"


def click_province(h: Harness, scene: GameScene, p: int) -> None:
    h.click(scene.mapview.centre(p))


def last_orders(scene: GameScene, seat: int) -> SubmitOrders:
    steps = [s for s in scene.match.session.replay.actions if s.seat == seat]
    action = decode_action("wok", steps[-1].action)
    assert isinstance(action, SubmitOrders)
    return action


def test_a_full_turn_of_orders_is_sent_exactly(artifacts: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        scene = new_game(h)
        assert isinstance(h.scene, ReportScene)  # the turn-0 report comes first
        close_report(h)
        view = scene.view
        home = view.colours[0].homes[0]
        fig = view.provinces[home].figures
        assert fig is not None
        target = min(view.map.provinces[home].neighbours)
        # attacks: 2, click home then a neighbour, Max then two fewer
        h.key(pygame.K_2)
        click_province(h, scene, home)
        click_province(h, scene, target)
        h.key(pygame.K_m)
        assert scene.form.amount == fig.arm
        h.key(pygame.K_DOWN)
        h.key(pygame.K_DOWN)
        h.key(pygame.K_RETURN)
        # an attack on the enemy's protected home is refused with the reason
        enemy_home = next(p.id for p in view.provinces if p.home == 1)
        h.key(pygame.K_2)
        click_province(h, scene, home)
        click_province(h, scene, enemy_home)
        assert not scene.form.can_add()
        h.key(pygame.K_RETURN)
        h.click(scene.form.clear_button)
        # transformations: 3, POP->ARM (first kind) at home, 20 POP typed with the buttons
        h.key(pygame.K_3)
        assert scene.form.kind.value == "POP_ARM"
        click_province(h, scene, home)
        h.key(pygame.K_m)
        top = scene.form.amount
        assert top == min(50, fig.pop) - min(50, fig.pop) % 4
        for button in ("-10", "-10", "+1"):
            h.click(next(b for b in scene.form.steps if b.label == button))
        typed = scene.form.amount
        h.click(scene.form._amount_box)  # typing into the box: 1 and 2 do not switch panels
        h.type_text("12")
        h.key(pygame.K_1)
        assert scene.form.amount == 12 and scene.form.phase == "transforms"
        h.key(pygame.K_BACKSPACE)
        h.key(pygame.K_BACKSPACE)
        h.type_text(str(typed))
        h.key(pygame.K_ESCAPE)  # typing ends, the form keeps its fields
        assert not scene.form.typing and scene.form.amount == typed
        h.key(pygame.K_RETURN)
        # workers' aim: 5, home, step the kind to MIN
        h.key(pygame.K_5)
        click_province(h, scene, home)
        for _ in range(scene.form.kind.choices.index("MIN")):
            h.click(scene.form.kind.right)
        assert scene.form.kind.value == "MIN"
        h.key(pygame.K_RETURN)
        # upgrades: 6, TECH (warned: not enough gold now, may still be entered)
        h.key(pygame.K_6)
        assert scene.form.kind.value == "TECH"
        assert any("gold" in text for text, _ in scene.form.message)
        h.click(scene.form.add_button)
        # bombing: no missiles, nothing can be entered
        h.key(pygame.K_1)
        click_province(h, scene, home)
        assert scene.form.amount == 0 and not scene.form.can_add()
        # one attack too many, then deleted again with its x button
        h.key(pygame.K_2)
        click_province(h, scene, home)
        click_province(h, scene, max(view.map.provinces[home].neighbours))
        h.click(next(b for b in scene.form.steps if b.label == "+1"))
        h.key(pygame.K_RETURN)
        assert len(scene.form.draft.of(0, "attacks")) == 2
        h.screenshot(artifacts / "wok_turn_entered.png")
        h.click(scene.form.rows[1][2])
        assert len(scene.form.draft.of(0, "attacks")) == 1
        h.key(pygame.K_r)
        sent = last_orders(scene, 0)
        expected = OrderSet(
            colour=0,
            attacks=(Attack(home, target, fig.arm - 2),),
            transforms=(Transform(home, "POP_ARM", top - 19),),
            aims=(SetAim(home, "MIN"),),
            upgrades=(Upgrade("TECH"),),
        )
        assert sent == SubmitOrders(sets=(expected,), ready=True)


def test_ready_locks_orders_until_unready(artifacts: Path) -> None:
    with Harness(size=(1280, 800)) as h:
        scene = new_game(h, bot="robot", delay=1e9)  # the bot waits: the turn cannot run
        close_report(h)
        home = scene.view.colours[0].homes[0]
        h.key(pygame.K_5)
        click_province(h, scene, home)
        h.key(pygame.K_RETURN)
        h.key(pygame.K_r)
        assert scene.view.is_ready and scene.form.locked
        for size in ((800, 560), (1920, 1080), (1280, 800)):
            h.resize(size)
            h.screenshot(artifacts / f"wok_ready_locked_{size[0]}x{size[1]}.png")
        h.key(pygame.K_5)
        click_province(h, scene, home)
        h.key(pygame.K_RETURN)  # locked: nothing is added
        assert len(scene.form.draft.of(0, "aims")) == 1
        h.key(pygame.K_u)
        assert not scene.view.is_ready
        assert decode_action("wok", scene.match.session.replay.actions[-1].action) == SetReady(
            False
        )
        h.key(pygame.K_1)  # the draft is editable again: remove the aim, add another
        h.key(pygame.K_5)
        h.click(scene.form.rows[0][2])
        assert scene.form.draft.of(0, "aims") == []


def test_a_two_player_skirmish_to_the_end_against_a_bot(artifacts: Path) -> None:
    with Harness(size=(1280, 800), root=open_setup) as h:
        setup = h.scene
        assert isinstance(setup, SetupScene)
        assert_idle(h)
        assert setup.map.value == "trial" and setup.players.value == "2"
        assert [s.value for s in setup.seat_kinds] == ["human", "general"]
        for _ in range(10):
            h.key(pygame.K_BACKSPACE)
        h.type_text("42")
        assert setup.seed == 42
        h.key(pygame.K_RETURN, frames=2)
        scene = h.scene if isinstance(h.scene, GameScene) else h.app.stack[-2]
        assert isinstance(scene, GameScene)
        scene.bot_delay = 0.0
        assert isinstance(h.scene, ReportScene)  # the turn-0 report, on its Top Ten
        assert PAGES[h.scene.page] == "Top Ten"
        assert_idle(h)
        turns = 0
        while not isinstance(h.scene, GameOverScene) and turns < MAX_TURNS:
            close_report(h)
            if isinstance(h.scene, GameOverScene):
                break
            view = scene.view
            own = [p for p in view.provinces if p.owner == 0 and p.figures]
            strongest = max(own, key=lambda p: p.figures.arm if p.figures else 0)
            targets = (
                scene.form.planner.targets(0, "attacks", strongest.id) if scene.form.planner else []
            )
            h.key(pygame.K_3)
            click_province(h, scene, strongest.id)
            h.key(pygame.K_m)
            h.key(pygame.K_RETURN)
            if targets and strongest.figures and strongest.figures.arm:
                h.key(pygame.K_2)
                click_province(h, scene, strongest.id)
                click_province(h, scene, targets[0])
                h.key(pygame.K_m)
                h.key(pygame.K_RETURN)
            h.key(pygame.K_r, frames=4)
            if isinstance(h.scene, TimedConfirm):  # everything sent out: "Risky orders"
                assert h.scene.question == "Risky orders"
                h.key(pygame.K_RETURN, frames=4)  # Ready anyway
            turns += 1
        assert isinstance(h.scene, GameOverScene), f"no end after {turns} turns"
        outcome = scene.match.session.outcome()
        assert outcome is not None and outcome.winners
        assert scene.match.history[0][-1].turn == scene.view.turn
        assert_idle(h)
        h.screenshot(artifacts / "wok_game_over.png")
        for size in ((800, 560), (1920, 1080)):
            h.resize(size)
            h.screenshot(artifacts / f"wok_game_over_{size[0]}x{size[1]}.png")
        h.click(h.scene.watch_button)
        replay = h.scene
        assert isinstance(replay, ReplayScene)
        assert len(replay.frames) == turns + 1
        assert replay.who is None  # everyone's view of a finished game: every army shows
        assert all(badge is not None for badge in replay.mapview.armies)
        h.key(pygame.K_RIGHT)
        h.key(pygame.K_RIGHT)
        assert replay.index == 2
        changed = replay.changes()
        assert changed and all(" -> " in c for c in changed)  # turn 2 changed hands
        assert_idle(h)  # paused
        for size in ((800, 560), (1920, 1080)):
            h.resize(size)
            h.screenshot(artifacts / f"wok_replay_{size[0]}x{size[1]}.png")


def test_chained_attacks_from_provinces_you_plan_to_take() -> None:
    with Harness(size=(1280, 800)) as h:
        scene = new_game(h, delay=1e9)
        close_report(h)
        view = scene.view
        home = view.colours[0].homes[0]
        first = min(view.map.provinces[home].neighbours)
        onward = next(p for p in view.map.provinces[first].neighbours if p != home)
        h.key(pygame.K_2)
        click_province(h, scene, home)
        click_province(h, scene, first)
        h.key(pygame.K_m)
        h.key(pygame.K_RETURN)
        sent = scene.form.draft.of(0, "attacks")[0]
        assert isinstance(sent, Attack)
        click_province(h, scene, first)  # a planned capture is a source now
        click_province(h, scene, onward)
        h.key(pygame.K_m)
        assert scene.form.amount == sent.armies  # at most what was sent there
        assert any("runs only if you take" in text for text, _ in scene.form.message)
        h.key(pygame.K_RETURN)
        assert scene.form.draft.of(0, "attacks")[1] == Attack(first, onward, sent.armies)
        arrows = scene.form.arrows()
        assert [a.dashed for a in arrows] == [False, True]


def test_an_idle_game_screen_draws_nothing() -> None:
    with Harness(size=(1280, 800)) as h:
        scene = new_game(h)
        close_report(h)
        h.move(scene.mapview.centre(scene.view.colours[0].homes[0]))
        h.seconds(2.0)  # hover settles, bots have acted
        drawn = h.app.draws
        h.frames(120)
        assert h.app.draws == drawn
        h.move((5, 300))  # input wakes it up again
        assert h.app.draws > drawn
        h.key(pygame.K_F1)  # the help over the map idles too
        assert_idle(h)


def test_the_map_zooms_at_the_mouse_and_pans_by_dragging(artifacts: Path) -> None:
    with Harness(size=(800, 560)) as h:
        scene = new_game(h, delay=1e9)
        close_report(h)
        home = scene.view.colours[0].homes[0]
        spot = scene.mapview.centre(home)
        h.wheel(spot, 3)
        assert scene.mapview.zoom > 1.5
        assert scene.mapview.province_at(spot) == home  # the point under the mouse stays
        h.screenshot(artifacts / "wok_zoomed_800x560.png")
        h.key(pygame.K_2)
        h.press(spot)
        h.move((spot[0] + 40, spot[1] + 30), frames=1)
        h.release((spot[0] + 40, spot[1] + 30))
        assert scene.form.source is None  # a drag is not a pick
        assert scene.mapview.province_at((spot[0] + 40, spot[1] + 30)) == home
        h.key(pygame.K_0)
        assert scene.mapview.zoom == 1.0


def test_the_figures_box_never_covers_the_province_it_describes() -> None:
    with Harness(size=(1280, 800)) as h:
        scene = new_game(h, delay=1e9)
        close_report(h)
        rect = scene.map_rect
        top = min(range(len(scene.view.provinces)), key=lambda p: scene.mapview.centre(p)[1])
        h.move(scene.mapview.centre(top))
        box = scene.info_rect
        assert box is not None and box.left == rect.left + 6
        under = [
            p
            for p in range(len(scene.view.provinces))
            if box.colliderect(scene.mapview.bounds(p))
            and scene.mapview.province_at(scene.mapview.centre(p)) == p
        ]
        assert under, "no province under the box's usual place"
        h.move(scene.mapview.centre(under[0]))
        assert scene.hover == under[0] and scene.info_rect is not None
        assert scene.info_rect.right == rect.right - 6  # moved to the other corner
        assert not scene.info_rect.collidepoint(scene.mapview.centre(under[0]))
