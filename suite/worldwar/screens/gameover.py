"""The end of a match: the winner, charts of territories, armies and cards over the turns, dice
luck (armies lost against the average the dice would give) and the saved replay, which
`ReplayScene` plays back on the map."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec
import pygame

from suite.core.match import Replay
from suite.core.store import SaveError
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.scale import px, ui_factor
from suite.ui.theme import Colour
from suite.ui.widgets import Button, Cycler, draw_panel, draw_text, fit_text
from suite.worldwar.rules import actions as A
from suite.worldwar.screens.mapview import MapView, capital_marks
from suite.worldwar.screens.match import Match, SeatInfo
from suite.worldwar.screens.stats import draw_charts


class GameOverScene(Scene):
    """Winner, charts and luck; buttons to watch the replay or go back to the set-up."""

    def __init__(self, app: App, match: Match, replay_path: Path | None) -> None:
        super().__init__(app)
        self.match = match
        self.replay_path = replay_path
        self.replay_button = Button(
            "Watch replay",
            pygame.Rect(0, 0, 200, 48),
            self.watch,
            tooltip="Play the whole game back on the map",
        )
        self.done_button = Button(
            "Back to room" if match.online else "New game",
            pygame.Rect(0, 0, 200, 48),
            self.done,
            primary=True,
            tooltip="Back to the room's lobby" if match.online else "Back to the set-up screen",
        )
        if match.online:
            self.replay_button.tooltip = "Fetch the whole game from the server and play it back"
        self.on_resize(app.size)

    @property
    def buttons(self) -> list[Button]:
        return [self.replay_button, self.done_button]

    def on_enter(self) -> None:
        # The game's last notices ("X is out!") would sit over the charts: the title and
        # the log already say who won and who fell.
        self.app.toasts.items.clear()

    def animating(self) -> bool:
        return False  # nothing moves here; hover feedback follows input

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        k = self.k = ui_factor(size, self.app.settings.ui_scale)
        for button in self.buttons:
            button.rect.size = (px(200, k), px(48, k))
            button.font_size = px(18, k)
        self.done_button.rect.bottomright = (w - 30, h - 24)
        self.replay_button.rect.bottomright = (self.done_button.rect.left - 16, h - 24)

    def colour(self, seat: int) -> Colour:
        return theme.player_colour(self.match.seats[seat].colour).rgb

    def watch(self) -> None:
        """Play the match back (an online match's replay comes from its server)."""
        try:
            replay = self.match.replay_to_watch()
        except SaveError as exc:
            self.app.notify(f"No replay: {exc.problem}", 5.0)
            return
        self.app.push(ReplayScene(self.app, replay, self.match.seats))

    def done(self) -> None:
        self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.done()
            return
        for button in self.buttons:
            if button.handle_event(event):
                return

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        w, h = surface.get_size()
        k = self.k
        s = self.match
        view = s.view(None)
        outcome = view.outcome
        winners = outcome.winners if outcome is not None else ()
        title = " and ".join(s.name(x) for x in winners) + " wins!" if winners else "Game over"
        if winners:
            pygame.draw.circle(surface, self.colour(winners[0]), (w // 2, px(44, k)), px(16, k))
        draw_text(surface, title, (w // 2, px(68, k)), size=px(38, k), bold=True, anchor="midtop")
        reason = s.named(outcome.reason) if outcome is not None else ""
        draw_text(
            surface,
            f"{reason} on turn {view.turn}",
            (w // 2, px(118, k)),
            size=px(17, k),
            colour=theme.TEXT_MUTED,
            anchor="midtop",
        )
        luck_h = px(34 + 28 * len(s.seats), k)
        top = px(150, k)
        chart_h = max(150, h - top - luck_h - 16 - 42 - self.done_button.rect.height)
        draw_charts(surface, pygame.Rect(30, top, w - 60, chart_h), s)
        self._draw_luck(surface, pygame.Rect(30, top + 16 + chart_h, w - 60, luck_h))
        if self.replay_path is not None:
            draw_text(
                surface,
                fit_text(
                    f"Replay saved: {self.replay_path.name}",
                    14,
                    self.replay_button.rect.left - 60,
                ),
                (30, self.done_button.rect.centery),
                size=14,
                colour=theme.TEXT_MUTED,
                anchor="midleft",
            )
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)

    def _draw_luck(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        draw_panel(surface, rect, radius=12)
        luck = self.match.luck
        k = self.k
        draw_text(surface, "Dice luck", (rect.x + 16, rect.y + px(8, k)), size=px(16, k), bold=True)
        draw_text(
            surface,
            "armies lost in battle  /  expected from the dice  /  luck",
            (rect.right - 16, rect.y + 10),
            size=px(13, k),
            colour=theme.TEXT_MUTED,
            anchor="topright",
        )
        for i, seat in enumerate(self.match.seats):
            y = rect.y + px(38 + 28 * i, k)
            centre = (rect.x + px(24, k), y + px(10, k))
            pygame.draw.circle(surface, self.colour(i), centre, px(7, k))
            draw_text(surface, seat.name, (rect.x + px(40, k), y), size=px(15, k))
            actual, expected = luck.actual[i], luck.expected[i]
            diff = expected - actual
            word = "lucky" if diff > 0.5 else "unlucky" if diff < -0.5 else "even"
            colour = theme.SUCCESS if diff > 0.5 else theme.DANGER if diff < -0.5 else theme.TEXT
            draw_text(
                surface,
                f"{actual:.0f}  /  {expected:.1f}  /  {diff:+.1f} ({word})",
                (rect.right - 16, y),
                size=px(15, k),
                colour=colour,
                anchor="topright",
            )


class ReplayScene(Scene):
    """Plays a saved match back on the map: Space pauses, Right steps, the speed button
    (or Up/Down) changes the pace, Esc leaves."""

    SPEEDS = [(0.5, "slow"), (0.15, "normal"), (0.03, "fast"), (0.0, "turbo")]

    def __init__(self, app: App, replay: Replay, seats: Sequence[SeatInfo]) -> None:
        super().__init__(app)
        self.replay = replay
        self.seats = list(seats)
        # Every seat acts as the replay says: all are driven from here.
        drivers = [SeatInfo(s.name, s.colour) for s in self.seats]
        self.match = Match(replay.config, replay.seed, drivers)
        self.step = 0
        self.wait = 0.0
        self.playing = True
        self.map = MapView(self.match.board, pygame.Rect(0, 60, 800, 600))
        self.speed = Cycler(
            "Speed",
            pygame.Rect(0, 0, 170, 38),
            self.SPEEDS,
            index=1,
            tooltip="Replay pace (click: faster, right click: slower)",
            font_size=15,
        )
        self.pause_button = Button(
            "Pause",
            pygame.Rect(0, 0, 110, 38),
            self.toggle,
            tooltip="Pause or play (Space)",
            font_size=15,
        )
        self.step_button = Button(
            "Step",
            pygame.Rect(0, 0, 100, 38),
            self.step_once,
            tooltip="One action forward (Right)",
            font_size=15,
        )
        self.close_button = Button(
            "Close",
            pygame.Rect(0, 0, 100, 38),
            self.close,
            tooltip="Back to the results (Esc)",
            font_size=15,
        )
        self.on_resize(app.size)

    @property
    def buttons(self) -> list[Button]:
        return [self.pause_button, self.step_button, self.speed, self.close_button]

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self.map.set_rect(pygame.Rect(0, 60, w, h - 60))
        x = w - 12
        for button in reversed(self.buttons):
            button.rect.topright = (x, 11)
            x = button.rect.left - 8

    def animating(self) -> bool:
        """Drawn every frame while it plays; a paused or finished replay costs nothing."""
        return self.playing and self.step < len(self.replay.actions)

    def toggle(self) -> None:
        self.playing = not self.playing
        self.pause_button.label = "Pause" if self.playing else "Play"

    def step_once(self) -> None:
        self.advance()

    def close(self) -> None:
        self.app.pop()

    def advance(self) -> bool:
        if self.step >= len(self.replay.actions):
            return False
        item = self.replay.actions[self.step]
        action = msgspec.convert(item.action, type=A.WorldWarAction)
        self.match.act(item.seat, action)
        self.step += 1
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_SPACE:
                self.toggle()
            elif event.key == pygame.K_RIGHT:
                self.advance()
            elif event.key == pygame.K_UP:
                self.speed.step(1)
            elif event.key == pygame.K_DOWN:
                self.speed.step(-1)
            return
        for button in self.buttons:
            if button.handle_event(event):
                return

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)
        if not self.playing:
            return
        delay = self.speed.value
        if delay <= 0:
            for _ in range(40):
                if not self.advance():
                    break
            return
        self.wait -= dt
        while self.wait <= 0:
            if not self.advance():
                break
            self.wait += delay

    def draw(self, surface: pygame.Surface) -> None:
        v = self.match.view(None)
        surface.fill(theme.PANEL, pygame.Rect(0, 0, surface.get_width(), 60))
        colours = [theme.player_colour(self.seats[o].colour).rgb for o in v.owner]
        self.map.set_colours(colours)
        marks = capital_marks(v.capitals, lambda s: theme.player_colour(self.seats[s].colour).rgb)
        self.map.draw(surface, v.armies, v.owner, marks=marks)
        total = len(self.replay.actions)
        draw_text(
            surface,
            f"Replay  -  turn {v.turn}  -  action {self.step} of {total}",
            (18, 30),
            size=19,
            bold=True,
            anchor="midleft",
        )
        if self.match.log:
            line = self.match.log[-1].text
            rect = pygame.Rect(0, 0, min(900, surface.get_width() - 40), 40)
            rect.midbottom = (self.map.rect.centerx, surface.get_height() - 14)
            draw_panel(surface, rect, colour=(14, 19, 30), alpha=230, radius=12)
            draw_text(surface, line, rect.center, size=15, anchor="center")
        for button in self.buttons:
            button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)
