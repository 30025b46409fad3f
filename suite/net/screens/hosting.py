"""Where to host a match set up in a game's own set-up screen (`HostOnlineScene`).

The set-up screen built a `suite.ui.hosting.HostPlan` with every setting it offers; this
screen shows what will be played, asks for the server (one started on this computer in
the background, or a running `suite serve` at the address typed) and whether the room is
public, then opens the room with that config, seats the plan's server bots and shows the
lobby. A server started here gets the files the plan names (a Domination map, a Tactics
pack) copied into its data folder first, so the config's names resolve there.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
from pygame_gui.elements import UITextEntryLine

from suite.core.match import registered_games
from suite.net.client.session import RemoteSession
from suite.net.screens.lobby import (
    LocalServer,
    connect_session,
    last_address,
    open_lobby,
    remember_address,
)
from suite.net.screens.panel import ButtonScene
from suite.ui import theme
from suite.ui.app import App
from suite.ui.hosting import HostPlan
from suite.ui.widgets import Button, Cycler, draw_text, fit_text

SUMMARY_LINES = 6


class HostOnlineScene(ButtonScene):
    """Host `plan` online: see the module docstring."""

    def __init__(self, app: App, plan: HostPlan) -> None:
        super().__init__(app)
        self.plan = plan
        self.local: LocalServer | None = None
        self.public = Cycler(
            "Public",
            pygame.Rect(0, 0, 0, 0),
            [(False, "no"), (True, "yes")],
            tooltip="A public room is listed on the server for anyone to join",
        )
        self.host_here = Button(
            "Host on this computer",
            pygame.Rect(0, 0, 0, 0),
            self.host_locally,
            primary=True,
            tooltip="Start a match server in the background and open the room on it",
        )
        self.host_there = Button(
            "Host on that server",
            pygame.Rect(0, 0, 0, 0),
            self.host_remote,
            tooltip="Open the room on the running `suite serve` at the address",
        )
        self.back_button = Button(
            "Back", pygame.Rect(0, 0, 0, 0), self.app.back, tooltip="Back to the set-up (Esc)"
        )
        self.address_entry: UITextEntryLine | None = None
        self._address = last_address()
        self.make_ui()
        self.on_resize(app.size)

    @property
    def buttons(self) -> list[Button]:
        return [self.public, self.host_here, self.host_there, self.back_button]

    @property
    def address(self) -> str:
        return self.address_entry.get_text().strip() if self.address_entry else self._address

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        pw, ph = min(720, w - 40), min(500, h - 40)
        self.panel = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        x, inner = self.panel.x + 30, pw - 60
        half = (inner - 16) // 2
        self.summary_top = self.panel.y + 78
        y = self.panel.bottom - 200
        self.address_rect = pygame.Rect(x, y, inner - 180 - 16, 42)
        self.public.rect = pygame.Rect(self.address_rect.right + 16, y, 180, 42)
        self.host_here.rect = pygame.Rect(x, y + 62, half, 48)
        self.host_there.rect = pygame.Rect(x + half + 16, y + 62, half, 48)
        self.back_button.rect = pygame.Rect(x, y + 126, 140, 44)
        assert self.ui is not None
        if self.address_entry is not None:
            self._address = self.address_entry.get_text()
            self.address_entry.kill()  # type: ignore[no-untyped-call]
        self.address_entry = UITextEntryLine(self.address_rect, self.ui, object_id="#address")
        self.address_entry.set_text(self._address)

    # -- hosting -----------------------------------------------------------------------------

    def host_locally(self) -> None:
        if self.local is None:
            try:
                self.local = LocalServer()
            except OSError as exc:
                self.app.notify(f"Could not start a server here: {exc}", 5.0)
                return
        try:
            provide(self.plan, self.local.server.data)
        except OSError as exc:
            self.app.notify(f"Could not give the server here the match's files: {exc}", 6.0)
            return
        self._host(self.local.url, self.local)

    def host_remote(self) -> None:
        remember_address(self.address)
        self._host(self.address, None)

    def _host(self, url: str, local: LocalServer | None) -> None:
        session = connect_session(self.app, url)
        if session is None:
            return
        plan, public = self.plan, self.public.value
        open_lobby(self.app, session, lambda: self._create(session, plan, public), local)

    @staticmethod
    def _create(session: RemoteSession, plan: HostPlan, public: bool) -> None:
        """Open the room, then ask for the plan's bots (the set-up offers the game's own
        bots, which every server of this suite has; a seat whose bot a server refused
        would show open in the lobby, where the host seats another)."""
        session.create(plan.game, plan.config, public=public)
        for seat, bot in sorted(plan.bots.items()):
            session.seat_bot(seat, bot)

    def on_exit(self) -> None:
        """Leaving this screen (not just covering it with the lobby) stops the background
        server it started."""
        if self.local is not None and self not in self.app.stack:
            self.local.stop()
            self.local = None

    # -- frame -------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        spec = registered_games().get(self.plan.game)
        title = f"HOST ONLINE: {(spec.title if spec else self.plan.game).upper()}"
        self.draw_panel_titled(surface, self.panel, title)
        width = self.panel.width - 60
        y = self.summary_top
        for line in self.plan.summary[:SUMMARY_LINES]:
            draw_text(surface, fit_text(line, 17, width), (self.panel.x + 30, y), size=17)
            y += 26
        draw_text(
            surface,
            'SERVER ADDRESS (FOR "HOST ON THAT SERVER")',
            (self.panel.x + 32, self.address_rect.top - 6),
            size=13,
            bold=True,
            colour=theme.TEXT_MUTED,
            anchor="bottomleft",
        )
        self.draw_buttons(surface)


def provide(plan: HostPlan, data: Path) -> None:
    """Copy the files `plan` names into the data folder `data` of a server started here
    (a map into `maps/<game>/`, a pack folder into `packs/`); OSError when one cannot be."""
    for source, target in plan.files.items():
        destination = data / target
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, destination, dirs_exist_ok=True)
        else:
            shutil.copy2(source, destination)
