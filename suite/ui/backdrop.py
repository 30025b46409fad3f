"""The suite's window background, shared by every scene so all screens look alike."""

from __future__ import annotations

import functools
import math

import numpy as np
import pygame

from suite.ui import theme


@functools.lru_cache(maxsize=4)
def backdrop(size: tuple[int, int]) -> pygame.Surface:
    """The suite's background at `size`: gradient, faint hex grid, vignette (cached and
    shared, so blit it and never draw on it)."""
    w, h = size
    surface = pygame.Surface(size)
    surface.blit(pygame.transform.smoothscale(_gradient_strip(), size), (0, 0))
    grid = pygame.Surface(size, pygame.SRCALPHA)
    r = 34.0
    dx, dy = r * math.sqrt(3), r * 1.5
    row = 0
    y = -r
    while y < h + r:
        x = -r + (dx / 2 if row % 2 else 0)
        while x < w + r:
            corners = [
                (
                    x + r * math.cos(math.radians(60 * k + 30)),
                    y + r * math.sin(math.radians(60 * k + 30)),
                )
                for k in range(6)
            ]
            pygame.draw.polygon(grid, (*theme.PATTERN, 60), corners, 1)
            x += dx
        y += dy
        row += 1
    surface.blit(grid, (0, 0))
    surface.blit(_vignette(size), (0, 0))
    return surface


def _vignette(size: tuple[int, int]) -> pygame.Surface:
    """Transparent in the middle, darkening towards the corners."""
    small_w, small_h = 64, 40
    xs = (np.arange(small_w)[:, None] + 0.5) / small_w * 2 - 1
    ys = (np.arange(small_h)[None, :] + 0.5) / small_h * 2 - 1
    distance = np.sqrt(xs**2 + ys**2) / math.sqrt(2)
    alpha = (np.clip((distance - 0.45) / 0.55, 0.0, 1.0) ** 1.5 * 170).astype(np.uint8)
    small = pygame.Surface((small_w, small_h), pygame.SRCALPHA)
    small.fill((0, 0, 0, 255))
    pygame.surfarray.pixels_alpha(small)[:] = alpha
    return pygame.transform.smoothscale(small, size)


def _gradient_strip() -> pygame.Surface:
    strip = pygame.Surface((2, 3))
    for x in range(2):
        strip.set_at((x, 0), theme.BACKGROUND_TOP)
        strip.set_at((x, 1), theme.lighten(theme.BACKGROUND_BOTTOM, 0.06))
        strip.set_at((x, 2), theme.BACKGROUND_BOTTOM)
    return strip
