"""World War's screens (pygame): set-up, the map, cards, game over and replays.

The launcher opens the game with `open_setup(app)`, which returns the set-up scene.
"""

from __future__ import annotations

from suite.ui.app import App, Scene


def open_setup(app: App) -> Scene:
    """The World War set-up scene for `app` (the launcher pushes it)."""
    from suite.worldwar.screens.setup import SetupScene

    return SetupScene(app)


__all__ = ["open_setup"]
