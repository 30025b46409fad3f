"""The public rooms of a server: the Join side's list (`PublicRoomsScene`).

A host marks a room public when creating it; this screen asks the server at the Online
screen's address for its public lobbies with a free seat (`RemoteSession.list_rooms`,
optionally of one game) and shows each one's game, host, free seats and a summary of its
settings. Clicking a room joins it (the lobby opens above this list; leaving the lobby
comes back here and the list is asked for again). Every failure, unreachable server,
refusal, a room filled meanwhile, shows as a message, in the list and as a notice.

All the text shown comes from the server, so it is cut to a length before it is drawn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pygame

from suite.core.match import registered_games
from suite.net import protocol as P
from suite.net.client.client import ServerError
from suite.net.client.session import RemoteSession
from suite.net.screens.panel import ButtonScene
from suite.ui import theme
from suite.ui.app import App
from suite.ui.backdrop import backdrop
from suite.ui.widgets import Button, Cycler, draw_panel, draw_text, fit_text

MAX_TEXT = 80
"""Characters of any server text (title, host name, a setting) kept for display."""
MAX_SETTINGS = 8
"""Settings of a room's config shown in its summary."""
ROW_H = 66

Connect = Callable[[str], RemoteSession | None]
"""Connects to a server address (None after telling the player why it could not)."""
Enter = Callable[[str], bool]
"""Joins the room with that code (True when its lobby opened)."""


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def settings_summary(config: dict[str, Any]) -> str:
    """A room's settings as one line ("players 2 · clock 90 · map random"): unset values
    (null, empty) are left out, lists joined, at most `MAX_SETTINGS` settings."""
    parts: list[str] = []
    for key, value in config.items():
        if value is None or value == "" or value == [] or isinstance(value, dict):
            continue
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, list):
            shown = ", ".join(_short(v) for v in value[:MAX_SETTINGS])
        else:
            shown = _short(value)
        parts.append(f"{_short(key).replace('_', ' ')} {shown}")
        if len(parts) == MAX_SETTINGS:
            break
    return " \u00b7 ".join(parts) or "default settings"


class PublicRoomsScene(ButtonScene):
    """The public lobbies of the server at `address`; a click on one joins it."""

    def __init__(self, app: App, address: str, connect: Connect, enter: Enter) -> None:
        super().__init__(app)
        self.address = address
        self._connect = connect
        self._enter = enter
        self.rooms: tuple[P.PublicRoom, ...] = ()
        self.problem: str | None = None
        self.loaded = False
        self.first = 0
        """The index of the first room shown (the list scrolls by the wheel or by page)."""
        games = sorted(registered_games().values(), key=lambda s: s.title)
        choices: list[tuple[str | None, str]] = [(None, "all")]
        choices += [(spec.name, spec.title) for spec in games]
        self.game = Cycler(
            "Game",
            pygame.Rect(0, 0, 0, 0),
            choices,
            tooltip="Show the rooms of one game (right click goes back)",
            on_change=lambda _: self.refresh(),
        )
        self.back_button = Button("Back", pygame.Rect(0, 0, 0, 0), self.app.back)
        self.refresh_button = Button(
            "Refresh",
            pygame.Rect(0, 0, 0, 0),
            self.refresh,
            primary=True,
            tooltip="Ask the server for its public rooms again",
        )
        self.previous_button = Button("Previous", pygame.Rect(0, 0, 0, 0), self.page_up)
        self.next_button = Button("Next", pygame.Rect(0, 0, 0, 0), self.page_down)
        self.row_buttons: list[Button] = []
        self.on_resize(app.size)

    # -- the list --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Ask the server for its public rooms (a message says why when that fails)."""
        session = self._connect(self.address)
        self.loaded = True
        if session is None:
            self.rooms, self.problem = (), f"Could not reach {self.address}."
            self._layout_rows()
            return
        try:
            self.rooms, self.problem = session.list_rooms(self.game.value), None
        except ServerError as exc:
            self.rooms, self.problem = (), f"The server did not list its rooms: {exc.error.message}"
        except (OSError, TimeoutError) as exc:
            self.rooms, self.problem = (), f"The server did not answer: {exc!r}"
        finally:
            session.close()
        if self.problem is not None:
            self.app.notify(self.problem, 5.0)
        self.first = 0
        self._layout_rows()
        self.app.request_redraw()

    def join(self, code: str) -> None:
        """Join the room; when that fails (it filled or closed meanwhile), say so and ask
        for the list again."""
        if not self._enter(code):
            self.refresh()

    @property
    def per_page(self) -> int:
        return max(1, (self.list_panel.height - 56) // ROW_H)

    def page_up(self) -> None:
        self._scroll(-self.per_page)

    def page_down(self) -> None:
        self._scroll(self.per_page)

    def _scroll(self, by: int) -> None:
        last = max(0, len(self.rooms) - self.per_page)
        first = min(last, max(0, self.first + by))
        if first != self.first:
            self.first = first
            self._layout_rows()
            self.app.request_redraw()

    # -- layout ----------------------------------------------------------------------------

    def on_enter(self) -> None:
        """Shown (first, or back from a room's lobby): the list is asked for again."""
        self.refresh()

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        m = max(20, w // 40)
        self.header = pygame.Rect(m, 16, w - 2 * m, 70)
        self.list_panel = pygame.Rect(m, self.header.bottom + 12, w - 2 * m, h - 190)
        self.footer = pygame.Rect(m, h - 74, w - 2 * m, 58)
        y = self.footer.centery
        self.back_button.rect = pygame.Rect(0, 0, 110, 44)
        self.back_button.rect.midleft = (self.footer.x + 12, y)
        self.game.rect = pygame.Rect(0, 0, min(260, self.footer.width - 520), 44)
        self.game.rect.midleft = (self.back_button.rect.right + 12, y)
        self.refresh_button.rect = pygame.Rect(0, 0, 120, 44)
        self.refresh_button.rect.midright = (self.footer.right - 12, y)
        self.next_button.rect = pygame.Rect(0, 0, 100, 44)
        self.next_button.rect.midright = (self.refresh_button.rect.left - 12, y)
        self.previous_button.rect = pygame.Rect(0, 0, 100, 44)
        self.previous_button.rect.midright = (self.next_button.rect.left - 8, y)
        self._layout_rows()

    def _layout_rows(self) -> None:
        self.row_buttons = []
        shown = self.rooms[self.first : self.first + self.per_page]
        for i, room in enumerate(shown):
            rect = pygame.Rect(
                self.list_panel.x + 12,
                self.list_panel.y + 46 + i * ROW_H,
                self.list_panel.width - 24,
                ROW_H - 8,
            )
            self.row_buttons.append(
                Button("", rect, functools.partial(self.join, room.code), tooltip="Join this room")
            )

    # -- frame -----------------------------------------------------------------------------

    @property
    def buttons(self) -> list[Button]:
        out = [self.back_button, self.game, self.refresh_button, *self.row_buttons]
        if len(self.rooms) > self.per_page:
            out += [self.previous_button, self.next_button]
        return out

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL and self.list_panel.collidepoint(pygame.mouse.get_pos()):
            self._scroll(-event.y)
            return
        super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        draw_panel(surface, self.header, colour=theme.PANEL, radius=14, alpha=220)
        draw_text(
            surface,
            "PUBLIC ROOMS",
            (self.header.x + 20, self.header.centery),
            size=26,
            bold=True,
            colour=theme.ACCENT,
            anchor="midleft",
        )
        address = fit_text(self.address, 16, self.header.width // 2)
        draw_text(
            surface,
            address,
            (self.header.right - 20, self.header.centery),
            size=16,
            colour=theme.TEXT_MUTED,
            anchor="midright",
        )
        self._draw_list(surface)
        draw_panel(surface, self.footer, colour=theme.PANEL, radius=14, alpha=220)
        for button in self.buttons:
            if button not in self.row_buttons:
                button.draw(surface)
        for button in self.buttons:
            button.draw_tooltip(surface)

    def _draw_list(self, surface: pygame.Surface) -> None:
        panel = self.list_panel
        draw_panel(surface, panel, colour=theme.PANEL, radius=14, alpha=210)
        x, width = panel.x + 18, panel.width - 36
        count = len(self.rooms)
        heading = "ROOMS WAITING FOR PLAYERS (CLICK ONE TO JOIN)"
        if count > self.per_page:
            last = min(count, self.first + self.per_page)
            heading += f"  \u00b7  {self.first + 1}-{last} of {count}"
        draw_text(
            surface,
            fit_text(heading, 14, width, bold=True),
            (x, panel.y + 16),
            size=14,
            bold=True,
            colour=theme.TEXT_MUTED,
        )
        if self.problem is not None or not self.rooms:
            text = self.problem or (
                "No public rooms on this server now. Host one with Public: yes, or refresh."
                if self.loaded
                else "Asking the server..."
            )
            colour = theme.DANGER if self.problem else theme.TEXT_MUTED
            draw_text(surface, fit_text(text, 16, width), (x, panel.y + 52), size=16, colour=colour)
            return
        shown = self.rooms[self.first : self.first + self.per_page]
        for button, room in zip(self.row_buttons, shown, strict=False):
            button.draw(surface)
            self._draw_row(surface, button.rect, room)

    def _draw_row(self, surface: pygame.Surface, rect: pygame.Rect, room: P.PublicRoom) -> None:
        """Game and host, the settings below; free seats and the room code on the right."""
        right_w = 180
        left_w = rect.width - right_w - 48
        top, bottom = rect.y + rect.height * 32 // 100, rect.y + rect.height * 72 // 100
        lines = [
            (f"{_short(room.title)}  \u00b7  hosted by {_short(room.host)}", top, 17, True),
            (settings_summary(room.config), bottom, 14, False),
        ]
        for text, y, size, bold in lines:
            draw_text(
                surface,
                fit_text(text, size, left_w, bold=bold),
                (rect.x + 16, y),
                size=size,
                bold=bold,
                colour=theme.TEXT if bold else theme.TEXT_MUTED,
                anchor="midleft",
            )
        free = f"{room.seats_free} of {room.players} seats free"
        draw_text(
            surface,
            fit_text(free, 16, right_w, bold=True),
            (rect.right - 16, top),
            size=16,
            bold=True,
            colour=theme.ACCENT,
            anchor="midright",
        )
        draw_text(
            surface,
            fit_text(f"room {_short(room.code)}", 14, right_w),
            (rect.right - 16, bottom),
            size=14,
            colour=theme.TEXT_MUTED,
            anchor="midright",
        )
