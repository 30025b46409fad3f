"""Drawing pieces shared by the launcher cards' pictures (each game draws its own picture in
its screens package), the greyed look of a card that cannot open, and a placeholder picture
for a game without screens."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pygame

from suite.ui import theme
from suite.ui.theme import PLAYER_COLOURS, Colour, darken
from suite.ui.widgets import vertical_gradient

Point = tuple[float, float]


def rgb(index: int) -> Colour:
    return PLAYER_COLOURS[index].rgb


def draw_die(
    surface: pygame.Surface,
    center: Point,
    size: int,
    value: int,
    angle: float,
    colour: Colour = (244, 240, 230),
    pip: Colour = (30, 30, 36),
) -> None:
    """A die showing `value` (1-6), rotated by `angle` degrees, with a soft shadow."""
    face = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(face, colour, face.get_rect(), border_radius=size // 5)
    pygame.draw.rect(face, darken(colour, 0.25), face.get_rect(), 2, border_radius=size // 5)
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }[value]
    for sx, sy in spots:
        pygame.draw.circle(face, pip, (round(sx * size), round(sy * size)), max(2, size // 11))
    rotated = pygame.transform.rotozoom(face, angle, 1.0)
    shadow = pygame.Surface(rotated.get_size(), pygame.SRCALPHA)
    shadow.blit(rotated, (0, 0))
    shadow.fill((0, 0, 0, 110), special_flags=pygame.BLEND_RGBA_MIN)
    surface.blit(shadow, shadow.get_rect(center=(center[0] + 4, center[1] + 6)))
    surface.blit(rotated, rotated.get_rect(center=center))


def arrow(
    surface: pygame.Surface, start: Point, end: Point, bend: float, colour: Colour, width: int
) -> None:
    """A curved arrow from start to end; `bend` lifts the middle (pixels, + is up)."""
    mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2 - bend
    points = []
    for i in range(25):
        t = i / 24
        x = (1 - t) ** 2 * start[0] + 2 * (1 - t) * t * mx + t**2 * end[0]
        y = (1 - t) ** 2 * start[1] + 2 * (1 - t) * t * my + t**2 * end[1]
        points.append((x, y))
    pygame.draw.lines(
        surface, darken(colour, 0.5), False, [(x + 1, y + 2) for x, y in points], width + 2
    )
    pygame.draw.lines(surface, colour, False, points[:-2], width)
    (ax, ay), (bx, by) = points[-4], points[-1]
    ang = math.atan2(by - ay, bx - ax)
    head = width * 3.2
    tip = (bx, by)
    left = (bx - head * math.cos(ang - 0.5), by - head * math.sin(ang - 0.5))
    right = (bx - head * math.cos(ang + 0.5), by - head * math.sin(ang + 0.5))
    pygame.draw.polygon(surface, colour, [tip, left, right])


def blob(rng: random.Random, center: Point, radius: float, lumps: int = 11) -> list[Point]:
    cx, cy = center
    points = []
    for i in range(lumps):
        a = 2 * math.pi * i / lumps
        r = radius * rng.uniform(0.6, 1.15)
        points.append((cx + r * math.cos(a) * 1.25, cy + r * math.sin(a) * 0.85))
    return points


def draw_text_badge(surface: pygame.Surface, text: str, center: Point, size: int) -> None:
    """A floating combat number, as the game shows over a hit piece."""
    font = theme.font(max(10, size), True)
    for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2)):
        image = font.render(text, True, (30, 10, 10))
        surface.blit(image, image.get_rect(center=(center[0] + dx, center[1] + dy)))
    image = font.render(text, True, (255, 214, 90))
    surface.blit(image, image.get_rect(center=center))


def greyed(art: pygame.Surface) -> pygame.Surface:
    """The artwork greyed for a game that is not available yet (a cold, night-blue grey)."""
    grey = pygame.transform.grayscale(art)
    hint = art.copy()
    hint.set_alpha(45)  # keep a trace of the colours so the card still reads as its game
    grey.blit(hint, (0, 0))
    grey.fill((128, 146, 180), special_flags=pygame.BLEND_RGB_MULT)
    return grey


def placeholder_art(title: str) -> Callable[[tuple[int, int]], pygame.Surface]:
    """Card art for a game whose screens have not arrived: its initials on a dusk gradient."""

    def draw(size: tuple[int, int]) -> pygame.Surface:
        w, h = size
        surface = vertical_gradient(size, (34, 44, 70), (64, 64, 100))
        initials = "".join(word[0] for word in title.split()[:2]).upper()
        draw_text_badge(surface, initials, (w / 2, h / 2), max(24, h // 4))
        return surface

    return draw
