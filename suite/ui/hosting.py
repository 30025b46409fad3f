"""Hosting a match online from a game's own set-up screen ("Host online" beside "Start").

A set-up screen builds a `HostPlan` with every setting it offers (the same config its
local match is made from, in the form a server takes: maps and packs named, never given
as paths) and calls `host_online`; the Online screens (`suite.net.screens.hosting`) then
ask where to host it and open the room. The set-up screens never import `suite.net`: this
module is the one door, opened on demand as the launcher opens the Online screen.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from suite.ui.app import App

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HostPlan:
    """A match to host online.

    `config` is the room's config (names, not paths); `bots` the server bots to seat once
    the room is open (seat -> bot name; the other seats after the host's are open for
    players to join); `files` what a server started on this computer needs in its data
    folder for the config's names to resolve (source file or folder -> path inside the
    data folder, e.g. a Domination map into `maps/worldwar/`); `summary` lines that tell
    the host what will be played."""

    game: str
    config: dict[str, Any]
    bots: dict[int, str] = field(default_factory=dict)
    files: dict[Path, str] = field(default_factory=dict)
    summary: tuple[str, ...] = ()


def seat_bots(kinds: Sequence[str], human: str = "human") -> dict[int, str]:
    """The server bots of a set-up's seats: every seat after the host's (seat 0, which
    the host takes) that is not `human` gets the bot its kind names; human seats stay
    open for players to join."""
    return {seat: kind for seat, kind in enumerate(kinds) if seat > 0 and kind != human}


def seats_line(kinds: Sequence[str], human: str = "human") -> str:
    """One summary line: who takes which seat online."""
    bots = seat_bots(kinds, human)
    open_seats = len(kinds) - 1 - len(bots)
    parts = ["you take seat 1"]
    if open_seats:
        parts.append(f"{open_seats} seat{'s' if open_seats > 1 else ''} open for players")
    if bots:
        parts.append(", ".join(f"seat {s + 1}: {b} bot" for s, b in sorted(bots.items())))
    return f"{len(kinds)} players: " + "; ".join(parts)


def host_online(app: App, plan: HostPlan) -> bool:
    """Open the "where to host" screen for `plan`; False (and a notice saying why) when
    online play cannot start on this computer."""
    try:
        from suite.net.screens.hosting import HostOnlineScene

        scene = HostOnlineScene(app, plan)
    except Exception as exc:  # a missing network library must not take the set-up down
        log.exception("the host-online screen failed to open")
        app.notify(f"Online play cannot start: {exc}", 5.0)
        return False
    app.push(scene)
    return True
