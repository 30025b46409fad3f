"""The headless harness posts real pygame events and the app delivers them to the scene."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextEntryLine

from suite.ui.app import App, Scene
from suite.ui.harness import Harness, position_of
from suite.ui.widgets import Button


class Recorder(Scene):
    """Remembers what reached it; has one suite Button and two pygame_gui widgets."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.events: list[pygame.event.Event] = []
        self.clicks = 0
        self.gui_clicks = 0
        self.sizes: list[tuple[int, int]] = []
        self.button = Button("Go", pygame.Rect(40, 40, 120, 40), self._clicked, tooltip="Go!")
        ui = self.make_ui()
        self.entry = UITextEntryLine(pygame.Rect(40, 120, 240, 40), ui)
        self.gui_button = UIButton(pygame.Rect(40, 200, 120, 40), "GUI", ui)

    def _clicked(self) -> None:
        self.clicks += 1

    def handle_event(self, event: pygame.event.Event) -> None:
        self.events.append(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.gui_button:
            self.gui_clicks += 1
        self.button.handle_event(event)

    def update(self, dt: float) -> None:
        self.button.update(dt)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.sizes.append(size)

    def kinds(self, kind: int) -> list[pygame.event.Event]:
        return [e for e in self.events if e.type == kind]


def test_position_of_accepts_points_rects_and_widgets() -> None:
    rect = pygame.Rect(10, 20, 30, 40)
    assert position_of((3, 4)) == (3, 4)
    assert position_of(rect) == (25, 40)

    class Thing:
        rect = pygame.Rect(0, 0, 10, 10)

    assert position_of(Thing()) == (5, 5)


def test_click_on_a_suite_widget_reaches_the_scene_and_the_button() -> None:
    with Harness((640, 480)) as h:
        scene = h.push(Recorder(h.app))
        assert isinstance(scene, Recorder)
        h.click(scene.button)
        downs = scene.kinds(pygame.MOUSEBUTTONDOWN)
        assert [e.pos for e in downs] == [scene.button.rect.center]
        assert scene.clicks == 1
        assert pygame.mouse.get_pos() == scene.button.rect.center
        h.seconds(1.0)
        assert scene.button.hover.tooltip_due


def test_drag_off_a_button_cancels_the_click() -> None:
    with Harness((640, 480)) as h:
        scene = h.push(Recorder(h.app))
        assert isinstance(scene, Recorder)
        h.press(scene.button)
        h.release((600, 400))
        assert scene.clicks == 0


def test_pygame_gui_button_and_text_entry_work_through_the_harness() -> None:
    with Harness((640, 480)) as h:
        scene = h.push(Recorder(h.app))
        assert isinstance(scene, Recorder)
        h.click_at(scene.gui_button)
        assert scene.gui_clicks == 1
        h.click_at(scene.entry)
        h.type_text("Ada")
        assert scene.entry.get_text() == "Ada"


def test_keys_carry_modifiers_and_frames_advance() -> None:
    with Harness((640, 480)) as h:
        scene = h.push(Recorder(h.app))
        assert isinstance(scene, Recorder)
        before = h.frame_count
        h.key(pygame.K_s, mod=pygame.KMOD_CTRL, unicode="\x13")
        (down,) = scene.kinds(pygame.KEYDOWN)
        assert down.key == pygame.K_s and down.mod & pygame.KMOD_CTRL
        assert len(scene.kinds(pygame.KEYUP)) == 1
        h.frames(5)
        assert h.frame_count == before + 6


def test_screenshot_is_a_png_of_the_window(tmp_path, artifacts) -> None:
    with Harness((500, 300)) as h:
        h.push(Recorder(h.app))
        path = h.screenshot(tmp_path / "sub" / "shot.png")
        h.screenshot(artifacts / "ui_harness_recorder.png")
        image = pygame.image.load(str(path))
        assert image.get_size() == (500, 300)
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_resize_reaches_every_scene_and_the_window() -> None:
    with Harness((900, 600)) as h:
        first = h.push(Recorder(h.app))
        second = h.push(Recorder(h.app))
        assert isinstance(first, Recorder) and isinstance(second, Recorder)
        h.resize((1000, 700))
        assert h.app.size == (1000, 700)
        assert first.sizes[-1] == second.sizes[-1] == (1000, 700)
        assert second.ui is not None
        assert second.ui.window_resolution == (1000, 700)


def test_closing_the_window_stops_the_app() -> None:
    with Harness((640, 480)) as h:
        h.push(Recorder(h.app))
        h.close_window()
        assert not h.running


def test_root_may_be_a_scene_class_or_a_factory() -> None:
    with Harness((320, 240), root=Recorder) as h:
        assert isinstance(h.scene, Recorder)
    with Harness((320, 240), root=lambda app: Recorder(app)) as h:
        assert isinstance(h.scene, Recorder) and h.frame_count == 1


def test_a_disabled_button_ignores_clicks_but_keeps_its_tooltip() -> None:
    with Harness((640, 480)) as h:
        scene = h.push(Recorder(h.app))
        assert isinstance(scene, Recorder)
        scene.button.enabled = False
        h.click(scene.button)
        h.seconds(0.6)
        assert scene.clicks == 0 and scene.button.hover.tooltip_due


def test_wheel_scrolls_at_a_position() -> None:
    with Harness((640, 480)) as h:
        scene = h.push(Recorder(h.app))
        assert isinstance(scene, Recorder)
        h.wheel((300, 200), -2)
        (wheel,) = scene.kinds(pygame.MOUSEWHEEL)
        assert wheel.y == -2 and pygame.mouse.get_pos() == (300, 200)
