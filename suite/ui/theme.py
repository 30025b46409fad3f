"""The one place for the suite's look: colours, the player palette, fonts, the pygame_gui theme.

Screens import their colours and fonts from here so the three games look like one program.
Fonts are the shipped Noto Sans files (assets/fonts/); nothing is downloaded at run time.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, NamedTuple

import pygame
import pygame_gui

from suite.paths import asset

Colour = tuple[int, int, int]

# Interface colours (dark, slightly blue "war room" look with a brass accent).
BACKGROUND_TOP: Colour = (22, 30, 44)
BACKGROUND_BOTTOM: Colour = (9, 12, 20)
PATTERN: Colour = (36, 48, 68)
PANEL: Colour = (28, 36, 52)
PANEL_LIGHT: Colour = (40, 51, 72)
PANEL_BORDER: Colour = (64, 79, 106)
SHADOW: Colour = (3, 5, 10)
TEXT: Colour = (234, 238, 244)
TEXT_MUTED: Colour = (152, 165, 184)
ACCENT: Colour = (232, 176, 75)
ACCENT_DARK: Colour = (150, 106, 36)
HOVER: Colour = (246, 206, 120)
DISABLED: Colour = (94, 102, 116)
DANGER: Colour = (213, 94, 0)
SUCCESS: Colour = (0, 158, 115)


class PlayerColour(NamedTuple):
    """A named seat colour; `rgb` is safe for the common colour-vision deficiencies."""

    name: str
    rgb: Colour


# Okabe & Ito's colour-blind-safe palette (its black swapped for a light grey, which reads
# on the dark interface), in the order seats receive them.
PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    PlayerColour("orange", (230, 159, 0)),
    PlayerColour("sky blue", (86, 180, 233)),
    PlayerColour("bluish green", (0, 158, 115)),
    PlayerColour("yellow", (240, 228, 66)),
    PlayerColour("blue", (0, 114, 178)),
    PlayerColour("vermillion", (213, 94, 0)),
    PlayerColour("reddish purple", (204, 121, 167)),
    PlayerColour("grey", (187, 187, 187)),
)


def player_colour(seat: int) -> PlayerColour:
    """The colour of a seat (0-based); seats past the palette wrap around."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


FONT_REGULAR = ("fonts", "NotoSans-Regular.ttf")
FONT_BOLD = ("fonts", "NotoSans-Bold.ttf")
THEME_FILE = ("theme", "theme.json")


@functools.cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The suite's font at `size` pixels (cached; initialises pygame.font when needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(str(asset(*(FONT_BOLD if bold else FONT_REGULAR))), size)


def lighten(colour: Colour, amount: float) -> Colour:
    """Mix `colour` towards white by `amount` (0..1)."""
    r, g, b = colour
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def darken(colour: Colour, amount: float) -> Colour:
    """Mix `colour` towards black by `amount` (0..1)."""
    r, g, b = colour
    keep = 1.0 - amount
    return (round(r * keep), round(g * keep), round(b * keep))


def _absolute_font_paths(node: Any) -> Any:
    """Turn the theme file's asset-relative font paths into absolute paths."""
    if isinstance(node, dict):
        return {
            key: str(asset(*value.split("/")))
            if key.endswith("_path") and isinstance(value, str)
            else _absolute_font_paths(value)
            for key, value in node.items()
        }
    return node


@functools.cache
def _gui_theme_text() -> str:
    path: Path = asset(*THEME_FILE)
    data = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps(_absolute_font_paths(data))


def gui_theme() -> dict[str, Any]:
    """The pygame_gui theme (assets/theme/theme.json) with font paths made absolute."""
    theme: dict[str, Any] = json.loads(_gui_theme_text())
    return theme


def make_ui_manager(size: tuple[int, int]) -> pygame_gui.UIManager:
    """A pygame_gui manager for a window of `size` using the shared theme."""
    return pygame_gui.UIManager(size, gui_theme(), enable_live_theme_updates=False)
