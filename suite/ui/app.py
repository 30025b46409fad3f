"""The app loop: one window, a stack of scenes, at most 60 frames a second.

The App owns the window, the player's settings, the audio and a queue of short notices.
Only the top scene receives input and updates; it is drawn over the scene below when it is
`transparent`. The app itself handles three things before any scene sees them:

- the window's close button quits;
- F11 toggles fullscreen (and remembers it in the settings);
- Esc goes back: the top scene may use it first (`Scene.back()` returns True, e.g. to close a
  dialog); otherwise the scene is popped, and at the root the app quits.

Scenes turn input into game actions and animate the returned events; engines are never
touched from `draw`.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pygame
import pygame_gui

from suite.core.store import SaveError
from suite.ui import theme
from suite.ui.audio import Audio
from suite.ui.backdrop import backdrop
from suite.ui.settings import Settings, SettingsWarning, load_settings, save_settings
from suite.ui.widgets import Toasts, draw_emblem

MAX_FPS = 60
SETTLE_SECONDS = 1.5
"""After any input the app keeps drawing this long (hover easing, tooltips' delays)."""
IDLE_WAKE_MS = 1000
"""While idle the loop sleeps in the event queue and wakes this often to let the top scene
poll (a remote session's news), drawing only if that changed something."""
TICK_MS = 100
"""How often an idle but ticking scene (`Scene.ticking`) is updated."""
INSTANT_BOT_SECONDS = 0.008
"""Of each frame, how long bots playing at "instant" speed are waited for (their decisions
are made in a worker process, `suite.core.thinking`): the frame stays short."""
TITLE = "War Suite"
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (800, 560)


class Scene:
    """One screen of the suite. Subclass it and override what you need.

    Life cycle: `on_enter()` when the scene becomes the top of the stack (pushed, or the
    scene above it popped); `on_exit()` when it stops being the top (covered or removed);
    `on_resize(size)` whenever the window changes size, for every scene on the stack.
    Each frame the top scene gets `handle_event(event)` for each event, `update(dt)` with
    the seconds since the last frame, then `draw(surface)`.

    A scene that wants pygame_gui widgets calls `self.make_ui()` (usually in `__init__`) and
    builds them on `self.ui`; the app feeds that manager events first, updates it and draws
    it above `draw()`, and keeps its resolution in step with the window.
    """

    transparent = False  # True: the scene below is drawn first (dialogs, pause menus)

    def __init__(self, app: App) -> None:
        self.app = app
        self.ui: pygame_gui.UIManager | None = None

    def make_ui(self) -> pygame_gui.UIManager:
        """Create this scene's pygame_gui manager with the shared theme."""
        self.ui = theme.make_ui_manager(self.app.size)
        return self.ui

    def handle_event(self, event: pygame.event.Event) -> None:
        """Input that neither the app nor this scene's pygame_gui manager consumed (mouse
        motion always arrives, so hover effects stay right over pygame_gui widgets)."""

    def update(self, dt: float) -> None:
        """Advance animations and timers by `dt` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene; the default is the suite's background (`backdrop`)."""
        surface.blit(backdrop(surface.get_size()), (0, 0))

    def on_enter(self) -> None:
        """The scene became the top of the stack."""

    def on_exit(self) -> None:
        """The scene stopped being the top of the stack (covered or removed)."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window is now `size` pixels; lay widgets out again."""

    def back(self) -> bool:
        """Esc was pressed: return True when the scene handled it itself (closed a dialog)."""
        return False

    def animating(self) -> bool:
        """Whether the scene must be drawn every frame even with no input (an animation, a
        timer, bots thinking). A scene that returns False is drawn only after input, a
        resize, a notice or `App.request_redraw()`, so an idle screen costs nothing.
        The default is True: a scene opts into idling by overriding this."""
        return True

    def ticking(self) -> bool:
        """Whether the idle scene must still be updated (a turn clock counting down):
        the loop then wakes every TICK_MS, with the time slept counted, and draws only
        when the scene calls `App.request_redraw()` (when what it shows changes)."""
        return False


class App:
    """The window, the scene stack and the shared services (settings, audio, notices).

    `settings_file` is where settings changes are saved (None: keep them in memory only).
    When `settings` is None they are read from `settings_file` (a broken file gives the
    defaults and a notice on screen) or are the defaults. `fullscreen` overrides the
    setting for this run.
    """

    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        *,
        settings: Settings | None = None,
        settings_file: Path | None = None,
        fullscreen: bool | None = None,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        self.settings_file = settings_file
        self.toasts = Toasts()
        if settings is None:
            settings = self._read_settings(settings_file)
        self.settings = settings
        self.audio = Audio(settings.volume)
        self.stack: list[Scene] = []
        self.running = True
        self.draws = 0  # frames drawn so far (the idle benchmark counts them)
        self._dirty = True
        self._awake_for = SETTLE_SECONDS
        self.clock = pygame.time.Clock()
        self._windowed_size = self._fit_to_desktop(size)
        pygame.display.set_caption(TITLE)
        pygame.display.set_icon(_icon())
        self.screen = self._open_window(settings.fullscreen if fullscreen is None else fullscreen)

    def _read_settings(self, path: Path | None) -> Settings:
        if path is None:
            return Settings()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SettingsWarning)
            settings = load_settings(path)
        if caught:
            aside = path.with_name(f"{path.name}.broken")
            kept = f" (the old file is kept as {aside.name})" if aside.exists() else ""
            self.toasts.add(f"Your settings file was unreadable: defaults restored{kept}", 6.0)
        return settings

    @staticmethod
    def _fit_to_desktop(size: tuple[int, int]) -> tuple[int, int]:
        if pygame.display.get_driver() == "dummy":
            return size
        desktop = pygame.display.get_desktop_sizes()[0]
        return (min(size[0], desktop[0] - 40), min(size[1], desktop[1] - 80))

    def _open_window(self, fullscreen: bool) -> pygame.Surface:
        if fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)

    # -- the stack -------------------------------------------------------------------------

    @property
    def scene(self) -> Scene:
        """The top scene (raises IndexError when the stack is empty)."""
        return self.stack[-1]

    def push(self, scene: Scene) -> Scene:
        """Put `scene` on top; the scene below gets on_exit, the new one on_enter."""
        if self.stack:
            self.stack[-1].on_exit()
        self.stack.append(scene)
        scene.on_enter()
        self._dirty = True
        return scene

    def pop(self) -> Scene:
        """Remove the top scene; the uncovered one gets on_enter. Quits when none is left."""
        scene = self.stack.pop()
        scene.on_exit()
        self._dirty = True
        if self.stack:
            self.stack[-1].on_enter()
        else:
            self.quit()
        return scene

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for `scene` (the one below is not disturbed)."""
        if self.stack:
            self.stack.pop().on_exit()
        self.stack.append(scene)
        scene.on_enter()
        self._dirty = True
        return scene

    def back(self) -> None:
        """What Esc does: let the top scene handle it, else pop it (at the root: quit)."""
        if not self.stack:
            self.quit()
        elif not self.scene.back():
            self.pop()

    def quit(self) -> None:
        """Stop the loop after this frame."""
        self.running = False

    # -- window ----------------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        w, h = self.screen.get_size()
        return (w, h)

    @property
    def fullscreen(self) -> bool:
        return bool(self.screen.get_flags() & pygame.FULLSCREEN)

    def set_fullscreen(self, on: bool) -> None:
        """Switch fullscreen on or off, remember it in the settings, re-lay out every scene."""
        if on != self.fullscreen:
            if on:
                self._windowed_size = self.size
            self.screen = self._open_window(on)
            self._resized()
        if self.settings.fullscreen != on:
            self.settings.fullscreen = on
            self.save_settings()

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def _window_resized(self, size: tuple[int, int]) -> None:
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        if self.fullscreen:
            return
        if self.screen.get_size() != size:
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self._windowed_size = size
        self._resized()

    def _resized(self) -> None:
        self._dirty = True
        surface = pygame.display.get_surface()
        if surface is not None:
            self.screen = surface
        for scene in self.stack:
            if scene.ui is not None:
                scene.ui.set_window_resolution(self.size)
            scene.on_resize(self.size)

    # -- services --------------------------------------------------------------------------

    def request_redraw(self) -> None:
        """Draw the next frame even if nothing else asks for it."""
        self._dirty = True

    def notify(self, text: str, seconds: float = 2.8) -> None:
        """Show a short notice at the bottom of the window (and play the notice sound)."""
        self.toasts.add(text, seconds)
        self.audio.play("ui/notice")

    def save_settings(self) -> None:
        """Write the settings to `settings_file` (if any); a failure becomes a notice."""
        if self.settings_file is None:
            return
        try:
            save_settings(self.settings, self.settings_file)
        except (SaveError, OSError) as exc:
            self.toasts.add(f"Could not save settings: {exc}", 5.0)

    # -- the loop --------------------------------------------------------------------------

    def _dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE:
            self._window_resized((event.w, event.h))
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return
        if not self.stack:
            return
        scene = self.scene
        used = scene.ui is not None and scene.ui.process_events(event)
        if not used or event.type == pygame.MOUSEMOTION:
            scene.handle_event(event)

    def frame(self, dt: float, first: tuple[pygame.event.Event, ...] = ()) -> None:
        """One iteration: dispatch `first` (the event that woke an idle loop) and the pending
        events in the order they came, update the top scene, then draw and flip unless
        nothing can have changed (see `Scene.animating`)."""
        events = [*first, *pygame.event.get()]
        if events:
            self._awake_for = SETTLE_SECONDS
        for event in events:
            self._dispatch(event)
            if not self.running:
                return
        if not self.stack:
            return
        scene = self.scene
        if scene.ui is not None:
            scene.ui.update(dt)
        scene.update(dt)
        self.toasts.update(dt)
        self._awake_for = max(0.0, self._awake_for - dt)
        if self._dirty or not self.idle:
            self._dirty = False
            self.draw()

    @property
    def idle(self) -> bool:
        """True when the top scene has nothing to show until the next input."""
        if self._awake_for > 0 or self.toasts.items or not self.stack:
            return not self.stack
        return not any(scene.animating() for scene in self._visible())

    def _visible(self) -> list[Scene]:
        """The top scene and the scenes it shows through (transparent ones)."""
        first = len(self.stack) - 1
        while first > 0 and self.stack[first].transparent:
            first -= 1
        return self.stack[first:]

    def draw(self) -> None:
        """Paint the visible scenes, their widgets and the notices, then show the frame."""
        for scene in self._visible():
            scene.draw(self.screen)
            if scene.ui is not None:
                scene.ui.draw_ui(self.screen)
        self.toasts.draw(self.screen)
        pygame.display.flip()
        self.draws += 1

    def run(self) -> int:
        """Loop at up to MAX_FPS until quit; saves the settings and returns the exit code 0.

        While idle the loop sleeps in pygame's event queue instead of ticking.
        """
        while self.running:
            self.step()
        self.save_settings()
        return 0

    def step(self) -> None:
        """One pass of `run`: while idle, sleep until an event (or IDLE_WAKE_MS); then one
        frame. The event that ends the sleep is handled first: posting it back would queue
        it behind the events that came with it (a click's release before its press, and
        the click lost)."""
        first: tuple[pygame.event.Event, ...] = ()
        if self.idle and not self._dirty:
            ticking = bool(self.stack) and self.scene.ticking()
            event = pygame.event.wait(TICK_MS if ticking else IDLE_WAKE_MS)
            if event.type != pygame.NOEVENT:
                first = (event,)
            if not ticking:
                self.clock.tick()  # the time slept is no animation time
        dt = self.clock.tick(MAX_FPS) / 1000.0
        self.frame(min(dt, 0.1), first)

    def close(self) -> None:
        """Empty the stack (each scene gets on_exit) and close the window."""
        while self.stack:
            self.stack.pop().on_exit()
        pygame.display.quit()


def _icon() -> pygame.Surface:
    """The window icon: the suite's emblem."""
    icon = pygame.Surface((32, 32), pygame.SRCALPHA)
    draw_emblem(icon, icon.get_rect())
    return icon
