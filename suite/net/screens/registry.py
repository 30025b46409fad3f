"""Which games' own screens play an online match (`register_online_screen`).

A game that registers a factory here gets the lobby's `RemoteSession` when its match
begins; the lobby follows the match itself for a game that did not.
"""

from __future__ import annotations

from collections.abc import Callable

from suite.net.client.session import RemoteSession
from suite.ui.app import App, Scene

OnlineScreen = Callable[[App, RemoteSession], Scene]
_ONLINE_SCREENS: dict[str, OnlineScreen] = {}


def register_online_screen(game: str, factory: OnlineScreen) -> None:
    """Let `game`'s own screens take over a `RemoteSession` when its match begins."""
    _ONLINE_SCREENS[game] = factory


def online_screen(game: str) -> OnlineScreen | None:
    """The factory `game` registered, or None."""
    return _ONLINE_SCREENS.get(game)
