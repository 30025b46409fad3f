"""The launcher card's picture of WoS Tactics, drawn by the program at any size.

The picture is fixed (a local seeded random source lays it out), so screenshots are stable.
"""

from __future__ import annotations

import math
import random

import pygame

from suite.ui import card_art
from suite.ui.card_art import Point
from suite.ui.theme import Colour, darken, lighten
from suite.ui.widgets import vertical_gradient


def _iso_block(
    surface: pygame.Surface, center: Point, tw: float, th: float, height: float, top: Colour
) -> None:
    """One isometric tile of top colour `top` raised by `height` pixels at `center`."""
    x, y = center
    y -= height
    n, e, s, wv = (x, y - th / 2), (x + tw / 2, y), (x, y + th / 2), (x - tw / 2, y)
    if height > 0:
        pygame.draw.polygon(
            surface, darken(top, 0.45), [wv, s, (s[0], s[1] + height), (wv[0], wv[1] + height)]
        )
        pygame.draw.polygon(
            surface, darken(top, 0.3), [s, e, (e[0], e[1] + height), (s[0], s[1] + height)]
        )
    pygame.draw.polygon(surface, top, [n, e, s, wv])
    pygame.draw.polygon(surface, lighten(top, 0.18), [n, e, s, wv], 1)


def _piece(surface: pygame.Surface, foot: Point, scale: float, colour: Colour) -> None:
    x, y = foot
    pygame.draw.ellipse(
        surface, (20, 22, 20), pygame.Rect(x - 5 * scale, y - 1.5 * scale, 10 * scale, 3.5 * scale)
    )
    body = [
        (x - 3.6 * scale, y),
        (x + 3.6 * scale, y),
        (x + 2.2 * scale, y - 8 * scale),
        (x - 2.2 * scale, y - 8 * scale),
    ]
    pygame.draw.polygon(surface, colour, body)
    pygame.draw.polygon(surface, darken(colour, 0.5), body, 1)
    pygame.draw.circle(surface, lighten(colour, 0.25), (x, y - 10.5 * scale), 3 * scale)
    pygame.draw.circle(surface, darken(colour, 0.5), (x, y - 10.5 * scale), 3 * scale, 1)


def tactics_art(size: tuple[int, int]) -> pygame.Surface:
    """WoS Tactics: an isometric hill of tiles with a few pieces and a highlighted move."""
    w, h = size
    art = vertical_gradient(size, (46, 38, 62), (14, 12, 22))
    rng = random.Random(5)
    n = 7
    tw = min(w / (n + 0.6), 2 * h / (n + 1.2))
    th = tw / 2
    origin = (w / 2, (h - n * th) / 2 + th * 0.9)
    heights = {}
    for i in range(n):
        for j in range(n):
            hill = max(0.0, 3.2 - 0.9 * math.hypot(i - 2.2, j - 3.0))
            heights[i, j] = round(hill + rng.choice((0, 0, 0, 0.5)))
    grass, dirt, water = (96, 150, 70), (150, 124, 82), (54, 110, 160)
    pieces = {(2, 3): 1, (4, 1): 5, (5, 4): 5, (1, 5): 1}  # tile -> palette index
    moves = {(3, 3), (3, 2), (2, 2), (3, 4)}
    for s in range(2 * n - 1):
        for i in range(n):
            j = s - i
            if not 0 <= j < n:
                continue
            height = heights[i, j]
            cx = origin[0] + (i - j) * tw / 2
            cy = origin[1] + (i + j) * th / 2
            if i >= 5 and j <= 1:
                top = water
                height = 0
            else:
                top = grass if height >= 1 or (i + j) % 3 else dirt
            if (i, j) in moves:
                top = lighten(top, 0.45)
            _iso_block(art, (cx, cy), tw, th, height * th * 0.45 + th * 0.3, top)
            if (i, j) in pieces:
                foot = (cx, cy - height * th * 0.45 - th * 0.3)
                _piece(art, foot, th / 11, card_art.rgb(pieces[i, j]))
    card_art.draw_text_badge(art, "+12", (w * 0.74, h * 0.2), int(h * 0.09))
    return art
