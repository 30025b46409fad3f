"""World War's screens (pygame): set-up, the map, cards, game over and replays.

`UI` is the game's desktop face (named by the spec's `ui`): the launcher card's art, tags
and tooltip, and `open_setup(app)`, which returns the set-up scene. The screens talk to a
match only through `suite.core.session.Session` (see `match.Match`).
"""

from __future__ import annotations

from suite.ui.app import App, Scene
from suite.ui.game_cards import GameUI
from suite.worldwar.screens.card_art import worldwar_art


def open_setup(app: App) -> Scene:
    """The World War set-up scene for `app` (the launcher pushes it)."""
    from suite.worldwar.screens.setup import SetupScene

    return SetupScene(app)


UI = GameUI(
    open_setup=open_setup,
    art=worldwar_art,
    tooltip=(
        "Two to six generals. Hold whole regions for bonus armies, trade card sets for "
        "reinforcements, and roll for every border."
    ),
    tags=("Turn clock", "Card sets", "Dice battles"),  # the first fit beside PLAY
)

__all__ = ["UI", "open_setup"]
