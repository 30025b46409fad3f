"""The launcher card's picture of World War, drawn by the program at any size.

The picture is fixed (a local seeded random source lays it out), so screenshots are stable.
"""

from __future__ import annotations

import math
import random

import pygame

from suite.ui import card_art
from suite.ui.theme import darken, lighten
from suite.ui.widgets import vertical_gradient


def worldwar_art(size: tuple[int, int]) -> pygame.Surface:
    """World War: a globe of coloured continents, attack arrows and a pair of dice."""
    w, h = size
    art = vertical_gradient(size, (17, 47, 74), (6, 18, 33))
    rng = random.Random(7)
    radius = int(min(w * 0.36, h * 0.44))
    cx, cy = int(w * 0.4), int(h * 0.52)
    globe = pygame.Surface(size, pygame.SRCALPHA)
    for step in range(radius, 0, -3):
        shade = lighten((18, 70, 110), 0.35 * (1 - step / radius))
        pygame.draw.circle(
            globe, shade, (cx - radius // 5 + step // 5, cy - radius // 5 + step // 5), step
        )
    land = pygame.Surface(size, pygame.SRCALPHA)
    continents = [
        (-0.45, -0.35, 0),
        (0.3, -0.45, 1),
        (-0.2, 0.3, 2),
        (0.5, 0.25, 3),
        (0.05, -0.05, 5),
        (-0.7, 0.15, 6),
    ]
    for dx, dy, owner in continents:
        pts = card_art.blob(rng, (cx + dx * radius, cy + dy * radius), radius * 0.28)
        colour = darken(card_art.rgb(owner), 0.15)
        pygame.draw.polygon(land, colour, pts)
        pygame.draw.polygon(land, lighten(colour, 0.35), pts, 2)
    mask = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.circle(mask, (255, 255, 255, 255), (cx, cy), radius)
    land.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    globe.blit(land, (0, 0))
    for k in range(-2, 3):
        ry = abs(k) * radius // 3
        pygame.draw.ellipse(
            globe, (140, 200, 240, 60), pygame.Rect(cx - ry, cy - radius, 2 * ry + 1, 2 * radius), 1
        )
        y = cy + k * radius // 3
        half = int(math.sqrt(max(0, radius**2 - (y - cy) ** 2)))
        pygame.draw.line(globe, (140, 200, 240, 60), (cx - half, y), (cx + half, y), 1)
    pygame.draw.circle(globe, (150, 210, 245), (cx, cy), radius, 2)
    art.blit(globe, (0, 0))
    card_art.arrow(
        art,
        (cx - 0.45 * radius, cy - 0.35 * radius),
        (cx + 0.3 * radius, cy - 0.45 * radius),
        radius * 0.35,
        card_art.rgb(0),
        max(3, w // 90),
    )
    card_art.arrow(
        art,
        (cx - 0.2 * radius, cy + 0.3 * radius),
        (cx + 0.5 * radius, cy + 0.25 * radius),
        radius * 0.25,
        card_art.rgb(2),
        max(3, w // 90),
    )
    die = max(18, int(h * 0.2))
    card_art.draw_die(art, (w * 0.8, h * 0.36), die, 6, 14)
    card_art.draw_die(
        art, (w * 0.88, h * 0.62), die, 5, -10, colour=(214, 72, 48), pip=(250, 244, 236)
    )
    return art
