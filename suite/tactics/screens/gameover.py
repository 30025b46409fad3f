"""Game over: places 1 to 4, rating changes and war points (RULINGS T9-T11: never from
bots), and the replay, saved and watchable.

A live battle is recorded in the ratings database once, when this screen opens, and its
replay saved; a watched replay is neither recorded nor saved again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from suite.tactics.ratings import BattleRecord
from suite.tactics.rules.view import TacticsView
from suite.tactics.screens import hud
from suite.tactics.screens.book import team_colour
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.match import save_replay
from suite.tactics.screens.ratings import Records
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.dialogs import veil
from suite.ui.scale import px, ui_factor
from suite.ui.widgets import Button, draw_panel, draw_text, fit_text

PLACES = ("1st", "2nd", "3rd", "4th")


class GameOverScene(Scene):
    """See the module docstring. `records` None: do not record (a replay)."""

    def __init__(
        self,
        app: App,
        battle: BattleScene,
        records: Records | None,
        *,
        on_watch: Callable[[Path], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.view: TacticsView = battle.view
        self.names = battle.names
        self.kinds = battle.kinds
        self.humans = battle.humans
        self.background = battle.canvas.copy() if battle.canvas is not None else None
        self.on_watch = on_watch
        self.record: BattleRecord | None = None
        self.problem: str | None = None
        self.replay_path: Path | None = None
        self.watched = records is None
        outcome = self.view.outcome
        session_replay = getattr(battle.session, "replay", None)
        if records is not None and outcome is not None:
            humans = [k == "human" for k in self.kinds]
            guilds = [""] * len(self.names)  # each player's guild as set in the ratings
            self.record, self.problem = records.record(
                self.view, self.names, humans, guilds, outcome
            )
            if session_replay is not None:
                self.replay_path = save_replay(session_replay, battle.seats)
                if self.replay_path is None:
                    self.problem = (
                        self.problem + "; " if self.problem else ""
                    ) + "the replay could not be saved"
        self.watch_button = Button(
            "Watch replay",
            pygame.Rect(0, 0, 200, 46),
            self.watch,
            tooltip="Play this battle again from the start",
        )
        self.watch_button.enabled = self.replay_path is not None and on_watch is not None
        if self.watched:
            self.watch_button.tooltip = "This was a replay"
        self.book_button = Button(
            "Book of Tactics",
            pygame.Rect(0, 0, 200, 46),
            self.close,
            primary=True,
            tooltip="Back to the set-up for another battle (Esc)",
        )
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.on_resize(app.size)

    def watch(self) -> None:
        if self.replay_path is not None and self.on_watch is not None:
            path = self.replay_path
            self.close()
            self.on_watch(path)

    def close(self) -> None:
        if self.app.stack and self.app.scene is self:
            self.app.pop()

    def title(self) -> str:
        outcome = self.view.outcome
        if outcome is None or self.watched:
            return "Battle over"
        if len(self.humans) > 1:  # hot-seat: name the winners
            names = [self.names[s] for s in outcome.winners if s < len(self.names)]
            return f"{' and '.join(names)} won" if names else "Battle over"
        if self.humans and set(outcome.winners) & self.humans:
            return "Victory!"
        return "Defeat" if self.humans else "Battle over"

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        k = self.k = ui_factor(size)
        self.rect = pygame.Rect(0, 0, min(w - 40, px(760, k)), min(h - 40, px(470, k)))
        self.rect.center = (w // 2, h // 2)
        for button in (self.book_button, self.watch_button):
            button.rect.size = (px(200, k), px(46, k))
            button.font_size = px(18, k)
        self.book_button.rect.bottomright = (self.rect.centerx - 10, self.rect.bottom - px(20, k))
        self.watch_button.rect.bottomleft = (self.rect.centerx + 10, self.rect.bottom - px(20, k))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.close()
            return
        for button in (self.book_button, self.watch_button):
            if button.handle_event(event):
                return

    def animating(self) -> bool:
        """Nothing here moves by itself: drawn after input only (the app keeps drawing a
        moment after each input for hover and tooltips)."""
        return False

    def update(self, dt: float) -> None:
        self.book_button.update(dt)
        self.watch_button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        if self.background is not None:
            if self.background.get_size() != surface.get_size():  # the window was resized
                self.background = pygame.transform.smoothscale(self.background, surface.get_size())
            surface.blit(self.background, (0, 0))
        else:
            surface.fill((12, 14, 22))
        veil(surface, 180)
        draw_panel(surface, self.rect, border=theme.ACCENT, alpha=250)
        r, k = self.rect, self.k
        draw_text(
            surface,
            self.title(),
            (r.centerx, r.y + px(16, k)),
            size=px(30, k),
            bold=True,
            anchor="midtop",
            colour=theme.ACCENT,
        )
        outcome = self.view.outcome
        reason = outcome.reason if outcome is not None else ""
        draw_text(
            surface,
            fit_text(
                f"{reason}  \u2022  {self.view.map.name}, {self.view.round} rounds",
                px(15, k),
                r.width - 40,
            ),
            (r.centerx, r.y + px(58, k)),
            size=px(15, k),
            colour=theme.TEXT_MUTED,
            anchor="midtop",
        )
        columns = (
            ("Place", 0.04),
            ("Player", 0.14),
            ("Pieces / HP", 0.50),
            ("Rating", 0.68),
            ("War pts", 0.84),
        )
        y = r.y + px(96, k)
        for title, at in columns:
            draw_text(
                surface,
                title,
                (r.x + round(r.width * at), y),
                size=px(14, k),
                bold=True,
                colour=theme.TEXT_MUTED,
            )
        y += px(26, k)
        lines = {line.seat: line for line in self.view.seats}
        places = outcome.places if outcome is not None else ()
        for place, group in enumerate(places):
            for seat in group:
                self._row(surface, y, place, seat, lines.get(seat))
                y += px(34, k)
        if self.replay_path is not None:
            draw_text(
                surface,
                fit_text(f"Replay saved: {self.replay_path}", px(13, k), r.width - 40),
                (r.x + 20, self.book_button.rect.y - px(48, k)),
                size=px(13, k),
                colour=theme.TEXT_MUTED,
            )
        if self.problem:
            draw_text(
                surface,
                fit_text(self.problem, px(13, k), r.width - 40),
                (r.x + 20, self.book_button.rect.y - px(28, k)),
                size=px(13, k),
                colour=theme.DANGER,
            )
        for button in (self.book_button, self.watch_button):
            button.draw(surface)
        for button in (self.book_button, self.watch_button):
            button.draw_tooltip(surface)

    def _row(self, surface: pygame.Surface, y: int, place: int, seat: int, line: object) -> None:
        r, k = self.rect, self.k
        name = self.names[seat] if seat < len(self.names) else f"Seat {seat + 1}"
        kind = self.kinds[seat] if seat < len(self.kinds) else ""
        army = hud.army_of(self.view, seat)
        ink = theme.ACCENT if seat in self.humans and not self.watched else theme.TEXT
        draw_text(
            surface,
            PLACES[min(place, 3)],
            (r.x + round(r.width * 0.04), y),
            size=px(17, k),
            bold=True,
            colour=ink,
        )
        pygame.draw.rect(
            surface,
            team_colour(army),
            (r.x + round(r.width * 0.14), y + px(3, k), px(12, k), px(18, k)),
            border_radius=3,
        )
        label = name + ("" if kind == "human" else f" ({kind} bot)")
        draw_text(
            surface,
            fit_text(label, px(17, k), round(r.width * 0.34)),
            (r.x + round(r.width * 0.14) + px(20, k), y),
            size=px(17, k),
            colour=ink,
        )
        pieces = getattr(line, "pieces_left", 0)
        hp = getattr(line, "total_hp", 0)
        draw_text(surface, f"{pieces} / {hp}", (r.x + round(r.width * 0.50), y), size=px(17, k))
        rating = "\u2014"
        points = "\u2014"
        if self.record is not None:
            delta = self.record.elo.get(name)
            if delta is not None:
                rated = len(self.record.elo) > 1  # T10: only between humans
                rating = f"{delta:+.1f}" if rated else "unrated"
            points = str(self.record.war_points.get(name, 0)) if kind == "human" else "\u2014"
        draw_text(surface, rating, (r.x + round(r.width * 0.68), y), size=px(17, k))
        draw_text(surface, points, (r.x + round(r.width * 0.84), y), size=px(17, k))
