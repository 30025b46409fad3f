"""WoS Tactics' desktop screens (pygame): the Book of Tactics (set-up, army, stats, pack),
the isometric battle, game over and replays.

The screens see a battle only through a core `Session` (the seat's `TacticsView`, its
legal actions and the events), so the same screens can later run online; art and sounds
come from the pack the view names. The launcher opens the game through `UI`.
"""

from __future__ import annotations

from suite.tactics.screens.card_art import tactics_art
from suite.ui.app import App, Scene
from suite.ui.game_cards import GameUI


def open_setup(app: App) -> Scene:
    """The Book of Tactics set-up scene for `app` (the launcher pushes it)."""
    from suite.tactics.screens.setup import SetupScene

    return SetupScene(app)


UI = GameUI(
    open_setup=open_setup,
    art=tactics_art,
    tooltip="Isometric battles of up to four armies on WoS Tactics packs: pick your nine "
    "pieces, walk, strike and outlast humans and bots.",
    tags=("2-4 armies", "bots", "any pack", "replays"),
)

__all__ = ["UI", "open_setup"]
