"""The launcher card's picture of WoK, drawn by the program at any size.

The picture is fixed (a local seeded random source lays it out), so screenshots are stable.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pygame

from suite.ui import card_art
from suite.ui.card_art import Point
from suite.ui.theme import darken
from suite.ui.widgets import vertical_gradient


def _voronoi_owner(size: tuple[int, int], seeds: np.ndarray) -> np.ndarray:
    """For each pixel (x, y), the index of the nearest seed."""
    w, h = size
    xs = np.arange(w)[:, None, None]
    ys = np.arange(h)[None, :, None]
    dist = (xs - seeds[None, None, :, 0]) ** 2 + (ys - seeds[None, None, :, 1]) ** 2
    owner: np.ndarray = np.argmin(dist, axis=2)
    return owner


def _castle(surface: pygame.Surface, base: Point, scale: float) -> None:
    bx, by = base
    stone, dark = (214, 206, 190), (120, 112, 100)

    def block(x: float, y: float, bw: float, bh: float) -> None:
        rect = pygame.Rect(
            round(bx + x * scale),
            round(by - (y + bh) * scale),
            round(bw * scale),
            round(bh * scale),
        )
        pygame.draw.rect(surface, stone, rect)
        pygame.draw.rect(surface, dark, rect, max(1, round(scale / 6)))
        merlon = bw / 5
        for i in range(0, 5, 2):
            m = pygame.Rect(
                round(bx + (x + i * merlon) * scale),
                round(by - (y + bh + 1.6) * scale),
                round(merlon * scale) + 1,
                round(1.6 * scale) + 1,
            )
            pygame.draw.rect(surface, stone, m)
            pygame.draw.rect(surface, dark, m, max(1, round(scale / 6)))

    block(-9, 0, 18, 9)
    block(-12, 0, 5, 15)
    block(7, 0, 5, 15)
    block(-3, 0, 6, 20)
    gate = pygame.Rect(
        round(bx - 2 * scale), round(by - 5 * scale), round(4 * scale), round(5 * scale)
    )
    pygame.draw.rect(
        surface,
        (40, 32, 28),
        gate,
        border_top_left_radius=round(2 * scale),
        border_top_right_radius=round(2 * scale),
    )
    flag_x, flag_y = bx, by - 20 * scale - 1.6 * scale
    pygame.draw.line(surface, dark, (flag_x, flag_y), (flag_x, flag_y - 7 * scale), 2)
    pygame.draw.polygon(
        surface,
        card_art.rgb(5),
        [
            (flag_x, flag_y - 7 * scale),
            (flag_x + 6 * scale, flag_y - 5.5 * scale),
            (flag_x, flag_y - 4 * scale),
        ],
    )


def wok_art(size: tuple[int, int]) -> pygame.Surface:
    """WoK: Voronoi provinces in three realms, a castle and a missile arcing over the map."""
    w, h = size
    rng = random.Random(11)
    seeds = np.array([(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(26)])
    owner = _voronoi_owner(size, seeds)
    realm = [rng.choice((1, 4, 6, 7, 7)) for _ in range(len(seeds))]
    palette = np.array(
        [darken(card_art.rgb(realm[i]), 0.45 + 0.1 * (i % 3)) for i in range(len(seeds))],
        dtype=np.uint8,
    )
    pixels = palette[owner]
    edge = np.zeros((w, h), dtype=bool)
    edge[1:, :] |= owner[1:, :] != owner[:-1, :]
    edge[:, 1:] |= owner[:, 1:] != owner[:, :-1]
    pixels[edge] = (18, 20, 26)
    art = pygame.surfarray.make_surface(pixels)
    glow = vertical_gradient(size, (26, 20, 8), (0, 0, 0))
    art.blit(glow, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    for sx, sy in seeds:
        pygame.draw.circle(art, (230, 226, 214), (round(sx), round(sy)), max(2, w // 160))
    scale = h / 70
    _castle(art, (w * 0.28, h * 0.86), scale)
    start, top, end = (w * 0.3, h * 0.5), (w * 0.62, -h * 0.05), (w * 0.8, h * 0.55)
    trail = []
    for i in range(30):
        t = i / 29
        x = (1 - t) ** 2 * start[0] + 2 * (1 - t) * t * top[0] + t**2 * end[0]
        y = (1 - t) ** 2 * start[1] + 2 * (1 - t) * t * top[1] + t**2 * end[1]
        trail.append((x, y))
    for i in range(0, 26, 2):
        pygame.draw.line(art, (250, 236, 200), trail[i], trail[i + 1], max(2, w // 150))
    ex, ey = end
    for r, colour in (
        (h * 0.13, (213, 94, 0)),
        (h * 0.08, (240, 180, 40)),
        (h * 0.04, (255, 244, 200)),
    ):
        spikes = []
        for k in range(16):
            a = k * math.pi / 8
            rr = r * (1.0 if k % 2 == 0 else 0.55)
            spikes.append((ex + rr * math.cos(a), ey + rr * math.sin(a)))
        pygame.draw.polygon(art, colour, spikes)
    return art
