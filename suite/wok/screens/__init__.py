"""WoK's desktop screens (pygame): set-up, the map and order form, reports, replays.

The launcher loads `UI` (named by the spec's `ui`); `open_setup(app)` gives the set-up
scene. Screens talk to a match only through `suite.core.session` (views, legal, events).
"""

from __future__ import annotations

from suite.ui.app import App, Scene
from suite.ui.game_cards import GameUI
from suite.wok.rules.config import known_rulesets
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.screens.card_art import wok_art


def open_setup(app: App) -> Scene:
    """The WoK set-up scene for `app` (the launcher pushes it)."""
    from suite.wok.screens.setup import SetupScene

    return SetupScene(app)


def _tooltip() -> str:
    titles = ", ".join(load_ruleset(name).title for name in known_rulesets())
    return (
        f"Simultaneous orders on island maps ({titles}): Skirmish, Duel and Trinity, "
        "hot-seat or against bots."
    )


UI = GameUI(
    open_setup=open_setup,
    art=wok_art,
    tooltip=_tooltip(),
    tags=("2-10 players", "Simultaneous turns", "Bots"),
)

__all__ = ["UI", "open_setup"]
