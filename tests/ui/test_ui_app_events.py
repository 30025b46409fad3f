"""No click is lost between the app loop and the scenes (issue 23 item 9).

The loop (`App.step`, what `App.run` repeats) is driven here, not just `App.frame`: the
clicks are posted at the moments a real window sees them: while the loop sleeps idle (a
touchpad tap brings press and release in the same pump), while a frame is being drawn,
split over frames, and during the settle time after input. Each must reach the scene's
button exactly once, press before release.
"""

from __future__ import annotations

import random

import pygame

from suite.ui.app import SETTLE_SECONDS, App, Scene
from suite.ui.harness import Harness
from suite.ui.widgets import Button

SPOT = (100, 80)


class Clicks(Scene):
    """An idle scene with one button; it logs the mouse buttons it receives and can post
    more events while it is being drawn (input arriving during the redraw)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.clicked = 0
        self.seen: list[str] = []
        self.during_draw: list[list[pygame.event.Event]] = []
        self.button = Button("Go", pygame.Rect(50, 50, 100, 60), self._click)

    def _click(self) -> None:
        self.clicked += 1

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.seen.append("down" if event.type == pygame.MOUSEBUTTONDOWN else "up")
        self.button.handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((0, 0, 0))
        self.button.draw(surface)
        if self.during_draw:
            for event in self.during_draw.pop(0):
                pygame.event.post(event)

    def animating(self) -> bool:
        return False


def _click_events(*, moved: bool = False, pos: tuple[int, int] = SPOT) -> list[pygame.event.Event]:
    """A press and a release at `pos`, after a motion there when `moved` (without one, the
    pointer was already resting on the button)."""
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0))
    return [
        *([motion] if moved else []),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    ]


def _post(events: list[pygame.event.Event]) -> None:
    for event in events:
        assert pygame.event.post(event)


def _idle(h: Harness) -> None:
    h.seconds(SETTLE_SECONDS + 0.2)
    assert h.app.idle


def test_a_click_that_wakes_an_idle_loop_arrives_press_first() -> None:
    with Harness((400, 300)) as h:
        scene = h.push(Clicks(h.app))
        assert isinstance(scene, Clicks)
        for n in range(1, 5):
            _idle(h)
            _post(_click_events(moved=n % 2 == 0))  # press and release in one pump (a tap)
            h.app.step()
            assert scene.seen[-2:] == ["down", "up"]
            assert scene.clicked == n


def test_clicks_posted_while_a_frame_is_drawn_are_delivered_next_frame() -> None:
    with Harness((400, 300)) as h:
        scene = h.push(Clicks(h.app))
        assert isinstance(scene, Clicks)
        scene.during_draw = [_click_events(), _click_events(moved=True)]
        h.app.request_redraw()
        h.app.step()  # draws, posting one click
        h.app.step()  # delivers it (the loop is awake), draws, posts the second
        h.app.step()
        assert scene.clicked == 2 and scene.seen == ["down", "up"] * 2


def test_a_click_split_over_frames_and_idle_sleeps_counts_once() -> None:
    with Harness((400, 300)) as h:
        scene = h.push(Clicks(h.app))
        assert isinstance(scene, Clicks)
        motion, down, up = _click_events(moved=True)
        _idle(h)
        _post([motion, down])
        h.app.step()
        _idle(h)  # the button is held while the app settles and sleeps again
        _post([up])
        h.app.step()
        assert scene.clicked == 1 and scene.seen == ["down", "up"]


def test_two_hundred_clicks_at_random_moments_all_arrive() -> None:
    rng = random.Random(23)
    with Harness((400, 300)) as h:
        scene = h.push(Clicks(h.app))
        assert isinstance(scene, Clicks)
        for i in range(200):
            moment = rng.choice(("idle", "awake", "drawing"))
            click = _click_events(moved=rng.random() < 0.5)
            if moment == "idle":
                h.app._awake_for = 0.0  # the settle time is over: the next step sleeps
                assert h.app.idle
            if moment == "drawing":
                scene.during_draw.append(click)
                h.app.request_redraw()
                h.app.step()  # the draw posts the click
            else:
                _post(click)
            h.app.step()
            assert scene.clicked == i + 1, f"click {i + 1} ({moment}) was lost"
        assert scene.seen == ["down", "up"] * 200
