"""The live turn clock of a local game runs in real time, whichever WoK scene is on top.

A fake time source stands in for the wall clock; everything else is posted events. Time
spent on the report, the help, a menu or the hot-seat pass screen counts, and when time is
up the drafts are sent (and the bots' orders taken) even while the map is covered.
"""

from __future__ import annotations

import pygame

from suite.ui.harness import Harness
from suite.wok.screens.game import GameScene
from suite.wok.screens.match import SeatPlan, WokMatch
from suite.wok.screens.overlays import HelpScene, MenuScene, PassScene
from suite.wok.screens.report import ReportScene


class FakeTime:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def live_game(h: Harness, seats: list[SeatPlan], time: FakeTime) -> GameScene:
    match = WokMatch.new({"map": "trial", "clock": "live"}, 2, seats, clock="live")
    scene = GameScene(h.app, match, bot_delay=0.0, now=time)
    h.push(scene)
    h.frames(3)
    return scene


def test_the_clock_counts_behind_the_report_help_menu_and_pass_screens() -> None:
    time = FakeTime()
    with Harness(size=(1280, 800)) as h:
        scene = live_game(h, [SeatPlan("Han"), SeatPlan("Kor")], time)
        deadline = scene.view.clock.deadline
        assert isinstance(h.scene, PassScene)  # hot-seat: the screen goes to Han first
        time.advance(60)
        h.frames(2)
        assert scene.clock_left() == deadline - 60
        h.key(pygame.K_RETURN, frames=2)
        assert isinstance(h.scene, ReportScene)  # then Han's turn-0 report
        time.advance(40)
        h.frames(2)
        assert scene.clock_left() == deadline - 100
        h.key(pygame.K_RETURN, frames=2)
        assert h.scene is scene
        h.key(pygame.K_F1)
        assert isinstance(h.scene, HelpScene)
        time.advance(50)
        h.frames(2)
        assert scene.clock_left() == deadline - 150
        h.key(pygame.K_SPACE)
        h.key(pygame.K_ESCAPE)
        assert isinstance(h.scene, MenuScene)
        time.advance(20)
        h.frames(2)
        assert scene.clock_left() == deadline - 170
        h.click(h.scene.buttons[0])  # Resume
        assert h.scene is scene
        # Han sets an aim and is ready: the pass screen for Kor covers the map
        h.key(pygame.K_5)
        home = scene.view.colours[0].homes[0]
        h.click(scene.mapview.centre(home))
        h.key(pygame.K_RETURN)
        h.key(pygame.K_r, frames=2)
        assert isinstance(h.scene, PassScene)
        time.advance(deadline - 170 - 1)
        h.frames(2)
        assert scene.clock_left() == 1 and scene.view.turn == 1
        time.advance(2)
        h.frames(2)
        assert scene.view.turn == 2  # time ran out behind the pass screen: the turn ran
        han = [s for s in scene.match.session.replay.actions if s.seat == 0][-1].action
        kor = [s for s in scene.match.session.replay.actions if s.seat == 1][-1].action
        assert han["ready"] is True and len(han["sets"][0]["aims"]) == 1
        assert kor["ready"] is True  # Kor entered nothing: an empty draft went
        assert not any(orders for os in kor["sets"] for k, orders in os.items() if k != "colour")
        assert scene.clock_left() == deadline  # a new turn, a new deadline
        assert isinstance(h.scene, PassScene)  # nothing of Han's shows before Kor confirms
        h.key(pygame.K_RETURN, frames=2)
        assert isinstance(h.scene, ReportScene)
        assert h.scene.view.seat == 1 and h.scene.view.reports[0].turn == 1


def test_time_up_behind_the_report_takes_the_bots_orders_and_reports_once() -> None:
    time = FakeTime()
    with Harness(size=(1280, 800)) as h:
        scene = live_game(h, [SeatPlan("Han"), SeatPlan("Kor", "robot")], time)
        scene.bot_delay = 10**6  # the robot would wait for the map; time up must not
        assert isinstance(h.scene, ReportScene)
        time.advance(scene.view.clock.deadline + 1)
        h.frames(2)
        assert scene.view.turn == 2
        assert sum(isinstance(s, ReportScene) for s in h.app.stack) == 1  # no report over it
        h.key(pygame.K_RETURN, frames=2)  # back to the map: turn 1's report comes now
        assert isinstance(h.scene, ReportScene) and h.scene.view.reports[0].turn == 1
        h.key(pygame.K_RETURN, frames=2)
        assert h.scene is scene
