"""The scene stack: push/pop/replace life cycle, Esc goes back, F11 toggles fullscreen."""

from __future__ import annotations

import pygame

from suite.ui.app import App, Scene
from suite.ui.harness import Harness
from suite.ui.settings import Settings, load_settings


class Logged(Scene):
    def __init__(self, app: App, name: str, log: list[str], *, keep_esc: bool = False) -> None:
        super().__init__(app)
        self.name = name
        self.log = log
        self.keep_esc = keep_esc
        self.drawn = 0

    def on_enter(self) -> None:
        self.log.append(f"enter {self.name}")

    def on_exit(self) -> None:
        self.log.append(f"exit {self.name}")

    def back(self) -> bool:
        self.log.append(f"back {self.name}")
        return self.keep_esc

    def draw(self, surface: pygame.Surface) -> None:
        self.drawn += 1
        surface.fill((10, 20, 30))


def test_push_pop_replace_call_enter_and_exit_in_order() -> None:
    log: list[str] = []
    with Harness((400, 300)) as h:
        a = Logged(h.app, "a", log)
        b = Logged(h.app, "b", log)
        c = Logged(h.app, "c", log)
        h.app.push(a)
        h.app.push(b)
        h.app.replace(c)
        assert h.app.pop() is c
        assert h.scene is a
        assert log == ["enter a", "exit a", "enter b", "exit b", "enter c", "exit c", "enter a"]


def test_escape_pops_and_quits_at_the_root() -> None:
    log: list[str] = []
    with Harness((400, 300)) as h:
        root = h.push(Logged(h.app, "root", log))
        h.push(Logged(h.app, "top", log))
        h.key(pygame.K_ESCAPE)
        assert h.scene is root and h.running
        h.key(pygame.K_ESCAPE)
        assert not h.running
        assert "back top" in log and "back root" in log


def test_a_scene_may_keep_escape_for_itself() -> None:
    log: list[str] = []
    with Harness((400, 300)) as h:
        h.push(Logged(h.app, "root", log))
        top = h.push(Logged(h.app, "dialog", log, keep_esc=True))
        h.key(pygame.K_ESCAPE)
        assert h.scene is top and log[-1] == "back dialog"


def test_only_the_top_scene_is_drawn_unless_it_is_transparent() -> None:
    class Overlay(Logged):
        transparent = True

    log: list[str] = []
    with Harness((400, 300)) as h:
        below = h.push(Logged(h.app, "below", log))
        assert isinstance(below, Logged)
        h.push(Logged(h.app, "opaque", log))
        drawn = below.drawn
        h.frames(3)
        assert below.drawn == drawn
        h.app.pop()
        h.push(Overlay(h.app, "overlay", log))
        h.frames(3)
        assert below.drawn >= drawn + 3


def test_f11_toggles_fullscreen_and_remembers_it(tmp_path) -> None:
    path = tmp_path / "settings.json"
    with Harness((800, 600), settings_file=path) as h:
        h.push(Logged(h.app, "root", []))
        assert not h.app.fullscreen
        h.key(pygame.K_F11)
        assert h.app.fullscreen
        assert load_settings(path).fullscreen is True
        h.key(pygame.K_F11)
        assert not h.app.fullscreen
        assert h.app.size == (800, 600)
        assert load_settings(path).fullscreen is False


def test_notify_shows_a_notice_that_expires() -> None:
    with Harness((400, 300), settings=Settings(volume=0)) as h:
        h.push(Logged(h.app, "root", []))
        h.app.notify("Hello", seconds=0.5)
        assert h.notices == ["Hello"]
        h.seconds(0.6)
        assert h.notices == []


def test_an_idle_launcher_draws_nothing_until_input(tmp_path) -> None:
    from suite.ui.app import SETTLE_SECONDS
    from suite.ui.launcher import LauncherScene

    with Harness((1000, 700), settings_file=tmp_path / "s.json", root=LauncherScene) as h:
        h.seconds(SETTLE_SECONDS + 0.5)
        assert h.app.idle
        drawn = h.app.draws
        h.seconds(2.0)
        assert h.app.draws == drawn, "an idle screen must not redraw"
        h.move((h.app.size[0] // 2, h.app.size[1] // 2))
        assert h.app.draws > drawn, "input wakes the screen"
        h.seconds(SETTLE_SECONDS + 1.0)
        assert h.app.idle


def test_a_covered_scene_does_not_keep_the_app_awake(tmp_path) -> None:
    from suite.ui.app import SETTLE_SECONDS
    from suite.ui.dialogs import ConfirmScene
    from suite.ui.launcher import LauncherScene

    with Harness((1000, 700), settings_file=tmp_path / "s.json", root=LauncherScene) as h:
        h.push(ConfirmScene(h.app, "Quit?", "Leave the suite.", "Quit", lambda: None))
        h.seconds(SETTLE_SECONDS + 0.5)
        assert h.app.idle
