"""A headless harness that drives the real app the way a player does, for tests.

It starts the App with SDL's dummy video and audio drivers, posts real pygame events
(mouse moves and clicks, key presses with modifiers, text input), advances frames with a
fixed time step, and saves screenshots. Typical use::

    from suite.ui.harness import Harness

    def test_setup_screen(artifacts):
        with Harness(size=(1280, 800)) as h:
            h.push(MySetupScene(h.app))
            h.click_at(h.scene.start_button)      # anything with a .rect, or a pygame_gui element
            h.key(pygame.K_s, mod=pygame.KMOD_CTRL)
            h.type_text("Alice")
            h.frames(30)                           # half a second at 60 fps
            assert isinstance(h.scene, MyGameScene)
            h.screenshot(artifacts / "setup.png")

Every input helper runs `frames` frames afterwards (one by default, two for clicks so that
pygame_gui's follow-up events such as UI_BUTTON_PRESSED are handled too). Time advances
only when frames run, by exactly `dt` seconds each, so tests are deterministic.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import pygame

from suite.ui.app import App, Scene
from suite.ui.settings import Settings

FRAME = 1.0 / 60.0


class HasRect(Protocol):
    """Anything with a screen rectangle: suite widgets, pygame_gui elements, sprites."""

    @property
    def rect(self) -> pygame.Rect: ...


Target = tuple[int, int] | pygame.Rect | HasRect


def position_of(target: Target) -> tuple[int, int]:
    """The point to aim at: a position as is, else the centre of a rect or of `.rect`."""
    if isinstance(target, tuple):
        return (int(target[0]), int(target[1]))
    rect = target if isinstance(target, pygame.Rect) else pygame.Rect(target.rect)
    return rect.center


class Harness:
    """The app running headless at `size`, with helpers to drive it.

    `settings` are the player's settings (defaults when None); they are saved to
    `settings_file` when the app changes them (None: kept in memory only). `root`, when
    given, builds the first scene from the app: a Scene class such as LauncherScene, or a
    game's `open_setup`.
    """

    def __init__(
        self,
        size: tuple[int, int] = (1280, 800),
        *,
        settings: Settings | None = None,
        settings_file: Path | None = None,
        root: Callable[[App], Scene] | None = None,
    ) -> None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        if settings is None and settings_file is None:
            settings = Settings()
        self.app = App(size, settings=settings, settings_file=settings_file, fullscreen=False)
        self.frame_count = 0
        pygame.event.clear()
        if root is not None:
            self.push(root(self.app))

    # -- state -----------------------------------------------------------------------------

    @property
    def scene(self) -> Scene:
        """The scene on top of the stack."""
        return self.app.scene

    @property
    def running(self) -> bool:
        """False once the app has been asked to quit (window closed, Esc at the root...)."""
        return self.app.running

    @property
    def notices(self) -> list[str]:
        """The notices (toasts) on screen now, oldest first."""
        return self.app.toasts.texts

    def push(self, scene: Scene) -> Scene:
        """Push `scene` and run one frame so it is laid out and drawn."""
        self.app.push(scene)
        self.frames(1)
        return scene

    # -- time ------------------------------------------------------------------------------

    def frames(self, n: int = 1, dt: float = FRAME) -> None:
        """Run `n` frames of `dt` seconds each (stops early when the app quits)."""
        for _ in range(n):
            if not self.app.running:
                return
            self.app.frame(dt)
            self.frame_count += 1

    def seconds(self, seconds: float) -> None:
        """Run as many 60 fps frames as make up `seconds`."""
        self.frames(max(1, round(seconds / FRAME)))

    # -- input -----------------------------------------------------------------------------

    def post(self, event_type: int, **attributes: Any) -> None:
        """Post a raw pygame event (no frame is run)."""
        pygame.event.post(pygame.event.Event(event_type, attributes))

    def move(self, target: Target, *, frames: int = 1) -> tuple[int, int]:
        """Move the mouse to `target` (a MOUSEMOTION event and the real cursor position)."""
        pos = position_of(target)
        pygame.mouse.set_pos(pos)  # SDL emits the motion event and updates get_pos()
        if not pygame.event.peek(pygame.MOUSEMOTION):
            self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False)
        self.frames(frames)
        return pos

    def press(self, target: Target, button: int = 1, *, frames: int = 1) -> None:
        """Move there and press a mouse button without releasing it."""
        pos = self.move(target)
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, touch=False)
        self.frames(frames)

    def release(self, target: Target, button: int = 1, *, frames: int = 2) -> None:
        """Move there and release a mouse button."""
        pos = self.move(target, frames=0)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False)
        self.frames(frames)

    def click(self, target: Target, button: int = 1, *, frames: int = 2) -> None:
        """Move, press and release `button` on `target` (a point, a rect or a widget)."""
        self.press(target, button)
        self.release(target, button, frames=frames)

    click_at = click  # reads better with widgets: h.click_at(scene.quit_button)

    def wheel(self, target: Target, dy: int, *, frames: int = 1) -> None:
        """Scroll the mouse wheel by `dy` notches (positive: away from the player) at target."""
        self.move(target, frames=0)
        self.post(
            pygame.MOUSEWHEEL,
            x=0,
            y=dy,
            precise_x=0.0,
            precise_y=float(dy),
            flipped=False,
            touch=False,
        )
        self.frames(frames)

    def key(self, key: int, *, mod: int = 0, unicode: str = "", frames: int = 1) -> None:
        """Press and release `key` with modifier bits `mod` (e.g. pygame.KMOD_CTRL)."""
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            self.post(kind, key=key, mod=mod, unicode=unicode, scancode=0)
        self.frames(frames)

    def type_text(self, text: str, *, frames: int = 1) -> None:
        """Send `text` as TEXTINPUT events, one per character (what typing produces)."""
        for char in text:
            self.post(pygame.TEXTINPUT, text=char)
        self.frames(frames)

    def resize(self, size: tuple[int, int], *, frames: int = 1) -> None:
        """Resize the window as a player dragging its border would."""
        self.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
        self.frames(frames)

    def close_window(self, *, frames: int = 1) -> None:
        """Click the window's close button (a QUIT event)."""
        self.post(pygame.QUIT)
        self.frames(frames)

    # -- output ----------------------------------------------------------------------------

    def screenshot(self, path: str | Path) -> Path:
        """Save the last drawn frame as a PNG at `path` (folders are created); returns it."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.app.running:
            self.app.draw()
        pygame.image.save(self.app.screen, str(target))
        return target

    def close(self) -> None:
        """Close the app and its window."""
        self.app.close()

    def __enter__(self) -> Harness:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
