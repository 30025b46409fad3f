"""Online play in the suite: the Host/Join screen and the lobby.

`OnlineScene` joins a room by its code, watches one, lists the public ones, and hosts
through the chosen game's own set-up screen (its "Host online" opens
`suite.net.screens.hosting.HostOnlineScene`: on a server started on this computer in the
background, or on a running `suite serve` at the address given).
`LobbyScene` shows the room: the seats (who is connected, who is ready), the host's bot
seats, the ready button, the chat, and a "reconnecting" banner while the session rejoins
after a drop. When the match begins, the lobby hands the `RemoteSession` to the game's
own screens when the game registered them (`register_online_screen`); until then, and for
games that did not, the lobby follows the match itself: whose turn it is, the latest
events, the clock and the result.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import msgspec
import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from suite.core.match import GAME_OVER, registered_games
from suite.net import protocol as P
from suite.net.client.client import ServerError
from suite.net.client.packs import client_cache_dir
from suite.net.client.session import RemoteSession
from suite.net.packsync import PackSyncError
from suite.net.screens import games as game_screens
from suite.net.screens.panel import ButtonScene
from suite.net.screens.public import PublicRoomsScene
from suite.net.screens.registry import online_screen
from suite.net.server.app import MatchServer, Settings
from suite.net.server.datalock import DataFolderBusy
from suite.ui import theme
from suite.ui.app import App, Scene
from suite.ui.backdrop import backdrop
from suite.ui.game_cards import load_ui
from suite.ui.widgets import Button, Cycler, draw_panel, draw_text, fit_lines, fit_text

NEWS = pygame.event.custom_type()
"""Posted by a session's thread when a message arrived (wakes the app loop)."""
DEFAULT_ADDRESS = "ws://127.0.0.1:8765"
CHAT_LINES = 8
EVENT_LINES = 6


class LocalServer:
    """A match server run by this process on a background thread (the "Host" button)."""

    def __init__(self, data: Path | None = None, port: int = 0) -> None:
        """`data` defaults to its own folder, apart from a `suite serve` on this machine."""
        if data is None:
            from suite.paths import user_data_dir

            data = user_data_dir() / "server-local"
        self.server = self._claim(data, port)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self.server.start(), self._loop).result(15)
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _claim(data: Path, port: int) -> MatchServer:
        """A server on `data`, or on `data-2`, `data-3`... when another copy of the suite
        on this machine hosts from it (one server per data folder)."""
        for n in range(1, 10):
            folder = data if n == 1 else data.with_name(f"{data.name}-{n}")
            try:
                return MatchServer(Settings(host="127.0.0.1", port=port, data=folder))
            except DataFolderBusy:
                continue
        raise OSError(f"every local server folder beside {data} is in use")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self.server.stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


_last_address = [DEFAULT_ADDRESS]


def last_address() -> str:
    """The server address typed last on the Online screens (this run of the suite)."""
    return _last_address[0]


def remember_address(address: str) -> None:
    if address.strip():
        _last_address[0] = address.strip()


def connect_session(app: App, url: str) -> RemoteSession | None:
    """A session with the server at `url` (None, and a notice, when it cannot be had)."""
    try:
        return RemoteSession.connect(url, app.settings.name or "Commander", timeout=5)
    except (OSError, TimeoutError, ServerError) as exc:
        app.notify(f"Could not reach {url}: {exc}", 5.0)
        return None


def open_lobby(
    app: App, session: RemoteSession, run: Callable[[], None], local: LocalServer | None
) -> bool:
    """Run the request that seats `session` (create, join, spectate), then open its
    lobby; False, the session closed and a notice saying why, when it was refused."""
    try:
        run()
    except ServerError as exc:
        session.close()
        app.notify(exc.error.message, 5.0)
        return False
    except (OSError, TimeoutError) as exc:
        session.close()
        app.notify(f"The server did not answer: {exc}", 5.0)
        return False
    app.push(LobbyScene(app, session, local=local))
    return True


def _wake() -> None:
    with contextlib.suppress(pygame.error):
        pygame.event.post(pygame.event.Event(NEWS))


class OnlineScene(ButtonScene):
    """Host (through a game's own set-up), join or watch a room."""

    def __init__(self, app: App, *, address: str | None = None) -> None:
        super().__init__(app)
        game_screens.register()  # the games whose own screens play over a connection
        games = sorted(registered_games().values(), key=lambda s: s.title)
        self.game = Cycler(
            "Game",
            pygame.Rect(0, 0, 0, 0),
            [(spec.name, spec.title) for spec in games],
            tooltip="The game to host (right click goes back)",
        )
        self.set_up = Button(
            "Set up and host...",
            pygame.Rect(0, 0, 0, 0),
            self.set_up_and_host,
            primary=True,
            tooltip="The game's own set-up, every setting of it: then Host online there",
        )
        self.join_button = Button(
            "Join", pygame.Rect(0, 0, 0, 0), self.join, tooltip="Take a seat in the room"
        )
        self.watch_button = Button(
            "Watch", pygame.Rect(0, 0, 0, 0), self.watch, tooltip="Spectate the room"
        )
        self.browse_button = Button(
            "Public rooms...",
            pygame.Rect(0, 0, 0, 0),
            self.browse,
            tooltip="The rooms the server at the address lists for anyone to join",
        )
        self.address_entry: UITextEntryLine | None = None
        self.code_entry: UITextEntryLine | None = None
        self._address = address or last_address()
        self._code = ""
        self.make_ui()
        self.on_resize(app.size)

    @property
    def buttons(self) -> list[Button]:
        return [self.game, self.set_up, self.join_button, self.watch_button, self.browse_button]

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        pw, ph = min(720, w - 40), min(470, h - 40)
        self.panel = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        x, y = self.panel.x + 30, self.panel.y + 110
        inner = pw - 60
        half = (inner - 16) // 2
        self.address_rect = pygame.Rect(x, y, inner, 40)
        self.game.rect = pygame.Rect(x, y + 80, half, 46)
        self.set_up.rect = pygame.Rect(x + half + 16, y + 80, half, 46)
        code_w = inner - 2 * 140 - 32
        self.code_rect = pygame.Rect(x, y + 186, code_w, 44)
        self.join_button.rect = pygame.Rect(self.code_rect.right + 16, y + 186, 140, 44)
        self.watch_button.rect = pygame.Rect(self.join_button.rect.right + 16, y + 186, 140, 44)
        self.browse_button.rect = pygame.Rect(x, y + 242, half, 44)
        self._build_widgets()

    def _build_widgets(self) -> None:
        assert self.ui is not None
        if self.address_entry is not None:
            self._address = self.address_entry.get_text()
            self.address_entry.kill()  # type: ignore[no-untyped-call]
        if self.code_entry is not None:
            self._code = self.code_entry.get_text()
            self.code_entry.kill()  # type: ignore[no-untyped-call]
        self.address_entry = UITextEntryLine(self.address_rect, self.ui, object_id="#address")
        self.address_entry.set_text(self._address)
        self.code_entry = UITextEntryLine(self.code_rect, self.ui, object_id="#room_code")
        self.code_entry.set_text_length_limit(8)
        self.code_entry.set_text(self._code)

    @property
    def address(self) -> str:
        return self.address_entry.get_text().strip() if self.address_entry else self._address

    @property
    def code(self) -> str:
        return self.code_entry.get_text().strip().upper() if self.code_entry else self._code

    # -- actions ---------------------------------------------------------------------------

    def _session(self, url: str) -> RemoteSession | None:
        remember_address(self.address)
        return connect_session(self.app, url)

    def set_up_and_host(self) -> None:
        """The chosen game's own set-up screen: its "Host online" hosts with every
        setting there (at the address typed here, or on this computer)."""
        remember_address(self.address)
        spec = registered_games()[self.game.value]
        ui, problem = load_ui(spec)
        if ui is None:
            self.app.notify(f"{spec.title} cannot be set up here: {problem or 'no screens'}", 5.0)
            return
        self.app.push(ui.open_setup(self.app))

    def join(self) -> None:
        self._enter_room(watch=False)

    def watch(self) -> None:
        self._enter_room(watch=True)

    def browse(self) -> None:
        """The public rooms of the server at the address (clicking one joins it)."""
        self.app.push(PublicRoomsScene(self.app, self.address, self._session, self.enter))

    def _enter_room(self, *, watch: bool) -> None:
        """Join (or, with `watch`, spectate) the room whose code was typed."""
        code = self.code
        if not code:
            self.app.notify("Type the room code first.")
            return
        self.enter(code, watch=watch)

    def enter(self, code: str, *, watch: bool = False) -> bool:
        """Join (or spectate) room `code` on the server at the address; True when its
        lobby opened (else a notice said why)."""
        session = self._session(self.address)
        if session is None:
            return False
        enter = session.spectate if watch else session.join
        return open_lobby(self.app, session, lambda: enter(code), None)

    # -- frame -----------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_panel_titled(surface, self.panel, "PLAY ONLINE")
        labels = [
            ("SERVER ADDRESS", self.address_rect.top),
            ("HOST A ROOM WITH EVERY SETTING OF THE GAME'S SET-UP", self.game.rect.top),
            ("JOIN OR WATCH A ROOM BY ITS CODE, OR PICK A PUBLIC ONE", self.code_rect.top),
        ]
        for text, top in labels:
            draw_text(
                surface,
                text,
                (self.panel.x + 32, top - 6),
                size=13,
                bold=True,
                colour=theme.TEXT_MUTED,
                anchor="bottomleft",
            )
        self.draw_buttons(surface)


class LobbyScene(Scene):
    """A room: seats, ready, bots (host), chat; then the match (see the module docstring)."""

    def __init__(self, app: App, session: RemoteSession, *, local: LocalServer | None = None):
        super().__init__(app)
        self.session = session
        self.local = local
        session.on_news = _wake
        self.seen = -1
        self.events: list[str] = []
        self.ready_button = Button(
            "Ready", pygame.Rect(0, 0, 0, 0), self.toggle_ready, primary=True
        )
        self.leave_button = Button("Leave", pygame.Rect(0, 0, 0, 0), self.app.back)
        room = session.room
        bots = ["random"]
        if room is not None:
            bots = sorted({"random", *registered_games()[room.game].bots})
        self.bot = Cycler(
            "Bot",
            pygame.Rect(0, 0, 0, 0),
            [(b, b) for b in bots],
            tooltip="The bot an open seat gets (right click goes back)",
        )
        self.seat_buttons: list[Button] = []
        self.chat_entry: UITextEntryLine | None = None
        self.handed_over = False
        self.pack_sync: Future[Path | None] | None = None
        """The download of the host's Tactics pack (started once this client holds a
        seat in a room with a pack; the game's screen opens only when it succeeded)."""
        self.pack_problem: str | None = None
        self.pack_progress = (0, 0)
        self._pack_noted = False
        self.make_ui()
        self.on_resize(app.size)

    @property
    def host(self) -> bool:
        room = self.session.room
        return room is not None and self.session.seat == room.host_seat

    def toggle_ready(self) -> None:
        room, seat = self.session.room, self.session.seat
        if room is None or seat is None:
            return
        if self.pack_problem is not None and not room.seats[seat].ready:
            self.app.notify("Fetching the host's pack again: Ready once it is here.", 5.0)
            self.pack_sync, self.pack_problem, self._pack_noted = None, None, False
            return
        try:
            self.session.ready(not room.seats[seat].ready)
        except ServerError as exc:
            self.app.notify(exc.error.message, 4.0)

    def add_bot(self, seat: int) -> None:
        try:
            self.session.seat_bot(seat, self.bot.value)
        except ServerError as exc:
            self.app.notify(exc.error.message, 4.0)

    def send_chat(self, text: str) -> None:
        if text.strip():
            self.session.chat(text.strip()[: P.MAX_CHAT])

    # -- layout ----------------------------------------------------------------------------

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        m = max(20, w // 40)
        self.header = pygame.Rect(m, 16, w - 2 * m, 70)
        body_top = self.header.bottom + 12
        left_w = min(560, (w - 3 * m) * 11 // 20)
        self.seats_panel = pygame.Rect(m, body_top, left_w, h - body_top - 90)
        self.side_panel = pygame.Rect(
            self.seats_panel.right + m, body_top, w - left_w - 3 * m, h - body_top - 90
        )
        self.footer = pygame.Rect(m, h - 74, w - 2 * m, 58)
        self.ready_button.rect = pygame.Rect(0, 0, 170, 44)
        self.ready_button.rect.midright = (self.footer.right - 12, self.footer.centery)
        self.leave_button.rect = pygame.Rect(0, 0, 130, 44)
        self.leave_button.rect.midleft = (self.footer.x + 12, self.footer.centery)
        self.bot.rect = pygame.Rect(0, 0, 200, 44)
        self.bot.rect.midleft = (self.leave_button.rect.right + 16, self.footer.centery)
        self.chat_rect = pygame.Rect(
            self.side_panel.x + 14, self.side_panel.bottom - 52, self.side_panel.width - 28, 40
        )
        self._layout_seats()
        assert self.ui is not None
        text = ""
        if self.chat_entry is not None:
            text = self.chat_entry.get_text()
            self.chat_entry.kill()  # type: ignore[no-untyped-call]
        self.chat_entry = UITextEntryLine(self.chat_rect, self.ui, object_id="#chat")
        self.chat_entry.set_text_length_limit(P.MAX_CHAT)
        self.chat_entry.set_text(text)

    def _layout_seats(self) -> None:
        room = self.session.room
        count = len(room.seats) if room is not None else 0
        self.row_h = max(46, min(60, (self.seats_panel.height - 60) // max(1, count)))
        self.seat_buttons = []
        for i in range(count):
            top = self.seats_panel.y + 50 + i * self.row_h
            rect = pygame.Rect(0, 0, 120, self.row_h - 12)
            rect.midright = (self.seats_panel.right - 14, top + self.row_h // 2)
            self.seat_buttons.append(
                Button("Add bot", rect, functools.partial(self.add_bot, i), font_size=15)
            )

    # -- frame -----------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == NEWS:
            return
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat_entry:
            self.send_chat(event.text)
            if self.chat_entry is not None:
                self.chat_entry.set_text("")
            return
        for button in self._active_buttons():
            if button.handle_event(event):
                return

    def _active_buttons(self) -> list[Button]:
        out = [self.leave_button]
        room = self.session.room
        if room is None:
            return out
        if self.session.seat is not None and room.phase == "lobby":
            out.append(self.ready_button)
        if self.host and room.phase in ("lobby", "playing", "paused"):
            out.append(self.bot)
            out += [
                b for b, s in zip(self.seat_buttons, room.seats, strict=False) if s.kind == "open"
            ]
        return out

    def animating(self) -> bool:
        return self.session.status == "reconnecting"

    def update(self, dt: float) -> None:
        for button in self._active_buttons():
            button.update(dt)
        room = self.session.room
        if room is not None and len(self.seat_buttons) != len(room.seats):
            self._layout_seats()
        self._sync_pack(room)
        if room is not None and room.phase != "lobby" and not self.handed_over:
            factory = online_screen(room.game)
            if (
                factory is not None
                and room.phase == "playing"
                and self.session.seats
                and self.pack_state(room) in ("none", "ready")
            ):
                self.handed_over = True
                try:
                    screen = factory(self.app, self.session)
                except (ValueError, ServerError, OSError) as exc:  # e.g. a map it cannot draw
                    self.app.notify(f"The game's screen cannot open: {exc}; followed here", 6.0)
                else:
                    self.app.push(screen)
                    return
            self._follow()
        if self.session.revision != self.seen:
            self.seen = self.session.revision
            if room is not None:
                self.ready_button.label = (
                    "Not ready"
                    if self.session.seat is not None and room.seats[self.session.seat].ready
                    else "Ready"
                )
            self.app.request_redraw()

    def pack_state(self, room: P.Room | None) -> str:
        """The host's pack here: "none" (the room has none, or this client holds no
        seat), "syncing", "ready" or "failed" (`pack_problem` says why)."""
        if room is None or room.pack is None or self.session.seat is None:
            return "none"
        future = self.pack_sync
        if self.pack_problem is not None:
            return "failed"
        if future is None or not future.done():
            return "syncing"
        if future.cancelled() or future.exception() is not None:
            return "failed"  # `_sync_pack` tells why on the next frame
        return "ready"

    def _sync_pack(self, room: P.Room | None) -> None:
        """Start downloading the host's pack as soon as this client holds a seat; once the
        download ends in a failure, say why (a notice, and in the lobby's side panel)."""
        if room is None or room.pack is None or self.session.seat is None:
            return
        if self.pack_sync is None:
            from suite.tactics.rules.packs import default_pack_dir

            self.pack_sync = self.session.sync_pack_later(
                client_cache_dir(), own=default_pack_dir(), progress=self._pack_progressed
            )
            return
        if self._pack_noted or not self.pack_sync.done():
            return
        self._pack_noted = True
        self.app.request_redraw()
        if self.pack_sync.cancelled():
            problem: BaseException | None = PackSyncError("the download was stopped")
        else:
            problem = self.pack_sync.exception()
        if problem is None:
            return
        reason = str(problem) if isinstance(problem, PackSyncError) else repr(problem)
        self.pack_problem = f"The host's pack could not be loaded: {reason}"
        self.app.notify("The host's pack could not be loaded: the lobby says why.", 6.0)

    def _pack_progressed(self, done: int, total: int) -> None:
        """On the session's thread, as chunks arrive (their messages wake the loop)."""
        self.pack_progress = (done, total)

    def _follow(self) -> None:
        """Without the game's own screens: keep the latest events as readable lines."""
        for notice in self.session.poll():
            seat = getattr(notice, "seat", None)
            for event in getattr(notice, "events", ()):
                if isinstance(event, dict):
                    kind = str(event.get("kind"))
                elif isinstance(event, msgspec.Struct):
                    kind = str(event.__struct_config__.tag)
                else:
                    kind = type(event).__name__
                text = f"{self._name(seat)}: {kind.replace('_', ' ')}"
                if kind == GAME_OVER:
                    text = "Game over"
                self.events.append(text)
            reason = getattr(notice, "reason", None)
            if reason:
                self.events.append(f"Refused: {reason}")
        del self.events[:-EVENT_LINES]

    def _name(self, seat: int | None) -> str:
        room = self.session.room
        if room is None or seat is None or not 0 <= seat < len(room.seats):
            return "?"
        return room.seats[seat].name or f"Seat {seat + 1}"

    def on_exit(self) -> None:
        """Leaving the lobby closes the session (the seat stays held on the server);
        being covered by the game's screens keeps it."""
        if self in self.app.stack:
            return
        if self.pack_sync is not None:
            self.pack_sync.cancel()  # a download in progress stops; its staging goes
        self.session.on_news = None
        self.session.close()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        room = self.session.room
        self._draw_header(surface, room)
        self._draw_seats(surface, room)
        self._draw_side(surface, room)
        draw_panel(surface, self.footer, colour=theme.PANEL, radius=14, alpha=220)
        for button in self._active_buttons():
            button.draw(surface)
        if self.session.status != "connected":
            self._draw_banner(surface)
        for button in self._active_buttons():
            button.draw_tooltip(surface)

    def _draw_header(self, surface: pygame.Surface, room: P.Room | None) -> None:
        draw_panel(surface, self.header, colour=theme.PANEL, radius=14, alpha=220)
        title = f"{room.title}  \u00b7  room {room.code}" if room else "Connecting..."
        draw_text(
            surface,
            title,
            (self.header.x + 20, self.header.centery),
            size=26,
            bold=True,
            colour=theme.ACCENT,
            anchor="midleft",
        )
        if room is not None:
            phase = {
                "lobby": "waiting for players",
                "playing": "in play",
                "paused": "paused",
                "over": "over",
            }[room.phase]
            watchers = f"  \u00b7  {room.spectators} watching" if room.spectators else ""
            draw_text(
                surface,
                f"{phase}{watchers}",
                (self.header.right - 20, self.header.centery),
                size=17,
                colour=theme.TEXT_MUTED,
                anchor="midright",
            )

    def _draw_seats(self, surface: pygame.Surface, room: P.Room | None) -> None:
        draw_panel(surface, self.seats_panel, colour=theme.PANEL, radius=14, alpha=210)
        draw_text(
            surface,
            "SEATS",
            (self.seats_panel.x + 18, self.seats_panel.y + 16),
            size=14,
            bold=True,
            colour=theme.TEXT_MUTED,
        )
        if room is None:
            return
        for i, seat in enumerate(room.seats):
            top = self.seats_panel.y + 50 + i * self.row_h
            row = pygame.Rect(
                self.seats_panel.x + 10, top, self.seats_panel.width - 20, self.row_h - 6
            )
            mine = i == self.session.seat
            draw_panel(
                surface,
                row,
                colour=theme.PANEL_LIGHT if mine else theme.PANEL,
                radius=10,
                alpha=200,
            )
            colour = theme.player_colour(i)
            pygame.draw.circle(surface, colour.rgb, (row.x + 20, row.centery), 9)
            if seat.kind == "open":
                name, status = "Open seat", "waiting for a player"
            else:
                name = seat.name + (" (you)" if mine else "")
                if i == room.host_seat:
                    name += " · host"
                if seat.kind == "bot":
                    status = f"server bot: {seat.bot}"
                elif not seat.connected:
                    status = "disconnected"
                else:
                    status = "ready" if seat.ready else "not ready"
            button = self.host and seat.kind == "open"
            text_w = row.width - 52 - (134 if button else 10)
            small = self.row_h < 50
            draw_text(
                surface,
                fit_text(name, 16 if small else 18, text_w, bold=True),
                (row.x + 40, row.y + row.height * 36 // 100),
                size=16 if small else 18,
                bold=True,
                anchor="midleft",
            )
            status_colour = theme.DANGER if status == "disconnected" else theme.TEXT_MUTED
            draw_text(
                surface,
                fit_text(status, 13, text_w),
                (row.x + 40, row.y + row.height * 76 // 100),
                size=13,
                colour=status_colour,
                anchor="midleft",
            )

    def _draw_side(self, surface: pygame.Surface, room: P.Room | None) -> None:
        panel = self.side_panel
        draw_panel(surface, panel, colour=theme.PANEL, radius=14, alpha=210)
        x, y = panel.x + 16, panel.y + 16
        width = panel.width - 32
        if room is not None and room.phase != "lobby":
            y = self._draw_match(surface, room, x, y, width)
        if self.pack_state(room) != "none":
            y = self._draw_pack(surface, room, x, y, width)
        draw_text(surface, "CHAT", (x, y), size=14, bold=True, colour=theme.TEXT_MUTED)
        y += 24
        room_for = min(CHAT_LINES, (self.chat_rect.top - 6 - y) // 22)  # above the entry
        lines = self.session.chat_lines[-room_for:] if room_for > 0 else []
        if not self.session.chat_lines:
            draw_text(
                surface, "Say hello below (Enter sends).", (x, y), size=15, colour=theme.TEXT_MUTED
            )
        for line in lines:
            text = fit_text(f"{line.name}: {line.text}", 15, width)
            draw_text(surface, text, (x, y), size=15)
            y += 22

    def _draw_pack(
        self, surface: pygame.Surface, room: P.Room | None, x: int, y: int, w: int
    ) -> int:
        """The host's pack: the download's progress, ready, or why it failed."""
        draw_text(surface, "HOST'S PACK", (x, y), size=14, bold=True, colour=theme.TEXT_MUTED)
        y += 24
        state = self.pack_state(room)
        colour = theme.TEXT
        if state == "failed":
            text, colour = self.pack_problem or "", theme.DANGER
        elif state == "ready":
            text = "Ready on this computer."
        else:
            done, total = self.pack_progress
            mb = 1024 * 1024
            text = (
                f"Downloading: {done / mb:.1f} of {total / mb:.1f} MB"
                if total
                else "Checking the host's pack..."
            )
        for line in fit_lines(text, 15, w, 4):
            draw_text(surface, line, (x, y), size=15, colour=colour)
            y += 21
        return y + 14

    def _draw_match(self, surface: pygame.Surface, room: P.Room, x: int, y: int, w: int) -> int:
        draw_text(surface, "MATCH", (x, y), size=14, bold=True, colour=theme.TEXT_MUTED)
        y += 24
        ended = self.session.ended
        if ended is not None:
            text = f"Over: {ended.reason}"
        else:
            waiting = ", ".join(self._name(s) for s in sorted(self.session.awaiting()))
            text = f"Waiting for {waiting}" if waiting else "Waiting"
        draw_text(surface, fit_text(text, 17, w, bold=True), (x, y), size=17, bold=True)
        y += 28
        clock = self.session.clock
        if clock is not None and clock.deadline is not None and ended is None:
            left = max(0, int(clock.deadline - clock.now))
            draw_text(
                surface,
                f"Turn clock: {left // 60}:{left % 60:02d} left at last news",
                (x, y),
                size=15,
                colour=theme.TEXT_MUTED,
            )
            y += 22
        for line in self.events:
            draw_text(surface, fit_text(line, 15, w), (x, y), size=15, colour=theme.TEXT_MUTED)
            y += 21
        return y + 14

    def _draw_banner(self, surface: pygame.Surface) -> None:
        text = (
            "Connection lost: reconnecting..."
            if self.session.status == "reconnecting"
            else "Disconnected from the server"
        )
        rect = pygame.Rect(0, 0, min(520, surface.get_width() - 40), 54)
        rect.midtop = (surface.get_width() // 2, self.header.bottom + 10)
        draw_panel(
            surface, rect, colour=theme.PANEL_LIGHT, border=theme.ACCENT, radius=12, alpha=240
        )
        draw_text(
            surface, text, rect.center, size=19, bold=True, colour=theme.ACCENT, anchor="center"
        )
