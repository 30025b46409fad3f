"""A finished (or saved) WoK game watched turn by turn.

The replay's actions are sent again, in order (`suite.wok.rules.history.turn_views`);
after each turn the public view and every seat's view are kept. The screen then steps
through those turns (Left/Right, Space plays) and shows the map as everyone saw it, or as
one seat saw it (V cycles), with the players, the Top Ten and the provinces that changed
hands in that turn (outlined). Once a game is over nothing is secret, so the public view
of a finished game's replay shows every province's armies at every turn.
"""

from __future__ import annotations

import pygame

from suite.core.match import Replay
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.widgets import Button, draw_panel
from suite.wok.rules.history import Frame, turn_views
from suite.wok.rules.views import WokSpectatorView
from suite.wok.screens.kit import ZButton, label, px, set_zoom
from suite.wok.screens.mapdraw import WokMapView, army_badge, colour_of

PLAY_SECONDS = 0.8


def replay_frames(replay: Replay) -> list[Frame]:
    """The views after turn 0 and after every turn that ran (key None: the public view,
    which shows every province's figures when the replay's game finished)."""
    return turn_views(replay)


class ReplayScene(Scene):
    """Steps through `replay` turn by turn (see the module docstring)."""

    def __init__(self, app: App, replay: Replay) -> None:
        super().__init__(app)
        self.frames = replay_frames(replay)
        self.index = 0
        self.playing = False
        self.timer = 0.0
        self.who: int | None = None
        first = self.frames[0][None]
        self.mapview = WokMapView(first.map, pygame.Rect(0, 0, 100, 100))
        self.prev_button = ZButton(
            "<", pygame.Rect(0, 0, 40, 32), lambda: self.step(-1), tooltip="Previous turn (Left)"
        )
        self.play_button = ZButton(
            "Play",
            pygame.Rect(0, 0, 80, 32),
            self.toggle,
            primary=True,
            tooltip="Play or pause (Space)",
        )
        self.next_button = ZButton(
            ">", pygame.Rect(0, 0, 40, 32), lambda: self.step(1), tooltip="Next turn (Right)"
        )
        self.who_button = ZButton(
            "View: everyone",
            pygame.Rect(0, 0, 170, 32),
            self.cycle_view,
            tooltip="Whose view to show (V)",
        )
        self.close_button = ZButton("Close", pygame.Rect(0, 0, 90, 32), self.close, tooltip="Esc")
        self.on_resize(app.size)
        self.show()

    def buttons(self) -> list[Button]:
        return [
            self.prev_button,
            self.play_button,
            self.next_button,
            self.who_button,
            self.close_button,
        ]

    def on_resize(self, size: tuple[int, int]) -> None:
        set_zoom(size)
        w, h = size
        side = max(220, min(px(320), w // 4))
        top = px(50)
        self.side = pygame.Rect(w - side, top, side, h - top)
        self.mapview.set_rect(pygame.Rect(0, top, w - side, h - top))
        x = 10
        for button, width in zip(self.buttons(), (40, 80, 40, 170, 90), strict=True):
            button.rect = pygame.Rect(x, px(9), px(width), px(32))
            x = button.rect.right + 8
        self.close_button.rect.topright = (w - 10, px(9))

    def show(self) -> None:
        frame = self.frames[self.index]
        view = frame[self.who]
        owners = [p.owner for p in view.provinces]
        armies = [army_badge(p, view.turn) for p in view.provinces]
        self.mapview.unknown_badges = self.who is not None  # the public view knows no armies
        self.mapview.set_state(owners, armies, [""] * len(owners))
        self.mapview.set_rect(self.mapview.rect)  # rebuild the layer with or without badges
        name = "everyone" if self.who is None else frame[None].variant.groups[self.who].name
        self.who_button.label = f"View: {name}"
        self.app.request_redraw()

    def changes(self) -> list[str]:
        """The provinces that changed hands in the turn shown (public: owners only)."""
        if self.index == 0:
            return []
        before, after = self.frames[self.index - 1][None], self.frames[self.index][None]
        names = {p.colour: p.name for p in after.players}
        out = []
        for old, new in zip(before.provinces, after.provinces, strict=True):
            if old.owner != new.owner:
                was = names.get(old.owner, "neutral")
                now = names.get(new.owner, "neutral")
                out.append(f"{new.id} {after.map.provinces[new.id].name}: {was} -> {now}")
        return out

    def changed_ids(self) -> list[int]:
        """The provinces of `changes()` (outlined on the map)."""
        if self.index == 0:
            return []
        before, after = self.frames[self.index - 1][None], self.frames[self.index][None]
        return [
            new.id
            for old, new in zip(before.provinces, after.provinces, strict=True)
            if old.owner != new.owner
        ]

    def step(self, by: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + by))
        if self.index == len(self.frames) - 1:
            self.playing = False
        self.show()

    def toggle(self) -> None:
        self.playing = not self.playing
        self.play_button.label = "Pause" if self.playing else "Play"
        self.timer = 0.0

    def cycle_view(self) -> None:
        keys = list(self.frames[0])
        self.who = keys[(keys.index(self.who) + 1) % len(keys)]
        self.show()

    def close(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def animating(self) -> bool:
        return self.playing

    def handle_event(self, event: pygame.event.Event) -> None:
        for button in self.buttons():
            if button.handle_event(event):
                return
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_LEFT:
                self.step(-1)
            elif event.key == pygame.K_RIGHT:
                self.step(1)
            elif event.key == pygame.K_SPACE:
                self.toggle()
            elif event.key == pygame.K_v:
                self.cycle_view()

    def update(self, dt: float) -> None:
        for button in self.buttons():
            button.update(dt)
        if self.playing:
            self.timer += dt
            if self.timer >= PLAY_SECONDS:
                self.timer = 0.0
                self.step(1)
                if not self.playing:
                    self.play_button.label = "Play"

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND_BOTTOM)
        self.mapview.draw(surface, tint=self.changed_ids(), tint_colour=theme.ACCENT)
        frame = self.frames[self.index]
        public = frame[None]
        assert isinstance(public, WokSpectatorView)
        draw_panel(surface, self.side, radius=0, shadow=0)
        x, y = self.side.x + 12, self.side.y + 10
        done = len(self.frames) - 1
        label(
            surface,
            f"After turn {self.index} of {done}",
            (x, y),
            size=18,
            bold=True,
            colour=theme.ACCENT,
        )
        y += px(30)
        for p in public.players:
            plural = "" if p.provinces == 1 else "s"
            state = f"{p.provinces} province{plural}" if p.alive else f"RIP turn {p.rip_turn}"
            pygame.draw.circle(surface, colour_of(p.colour), (x + px(5), y + px(9)), px(5))
            label(
                surface,
                f"{p.name}: {state}",
                (x + px(16), y),
                size=14,
                colour=theme.TEXT if p.alive else theme.DISABLED,
                width=self.side.width - 40,
            )
            y += px(19)
        y += 10
        label(surface, "Top Ten", (x, y), size=15, bold=True)
        y += px(22)
        for i, t in enumerate(public.top_ten, 1):
            label(surface, f"{i}. {t.name}  {t.score}", (x, y), size=13, width=self.side.width - 24)
            y += px(17)
            if y > self.side.bottom - 20:
                break
        changes = self.changes()
        if changes and y + px(40) < self.side.bottom:
            y += 10
            label(surface, "Changed hands", (x, y), size=15, bold=True)
            y += px(22)
            for text in changes:
                if y > self.side.bottom - px(44):
                    label(surface, "...", (x, y), size=13, colour=theme.TEXT_MUTED)
                    y += px(17)
                    break
                label(surface, text, (x, y), size=13, width=self.side.width - 24)
                y += px(17)
        if public.outcome is not None and self.index == done:
            label(
                surface,
                public.outcome.reason,
                (x, min(y + 10, self.side.bottom - px(24))),
                size=13,
                colour=theme.ACCENT,
                width=self.side.width - 24,
            )
        for button in self.buttons():
            button.draw(surface)
        for button in self.buttons():
            button.draw_tooltip(surface)
