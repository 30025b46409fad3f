"""How big a screen draws: one factor from the window size (and an optional UI-size
setting), shared by every game's screens.

Screens are laid out for 1280x800 at factor 1. Bigger windows grow the factor (up to
2560x1440, factor 1.8) so fonts and panels keep their share of the window; smaller windows
keep factor 1, which still fits 800x560. The setting multiplies the factor, bounded so
that panels always fit the window (a large setting in a small window gives what fits).
"""

from __future__ import annotations

BASE = (1280, 800)
"""The window size screens are drawn for at factor 1."""
FIT = (1024, 680)
"""A window this size still fits everything at factor 1 (the bound on the setting)."""
LOWEST = 0.8
HIGHEST = 2.2


def ui_factor(size: tuple[int, int], setting: float = 1.0) -> float:
    """The drawing factor for a window of `size` with the UI-size `setting`."""
    w, h = size
    grown = max(1.0, min(w / BASE[0], h / BASE[1]))
    fits = max(1.0, min(w / FIT[0], h / FIT[1]))
    return round(max(LOWEST, min(HIGHEST, grown * setting, fits)), 3)


def px(value: float, k: float) -> int:
    """`value` pixels (or a font size) at factor `k`, rounded."""
    return round(value * k)
