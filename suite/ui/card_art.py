"""Artwork for the launcher's game cards, drawn by the program at any size.

Each function returns a new opaque surface of `size`. The pictures are fixed (a local
seeded random source lays out continents, provinces and tiles), so screenshots are stable.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np
import pygame

from suite.ui import theme
from suite.ui.theme import PLAYER_COLOURS, Colour, darken, lighten
from suite.ui.widgets import vertical_gradient

Point = tuple[float, float]


def _rgb(index: int) -> Colour:
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


def _arrow(
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


def _blob(rng: random.Random, center: Point, radius: float, lumps: int = 11) -> list[Point]:
    cx, cy = center
    points = []
    for i in range(lumps):
        a = 2 * math.pi * i / lumps
        r = radius * rng.uniform(0.6, 1.15)
        points.append((cx + r * math.cos(a) * 1.25, cy + r * math.sin(a) * 0.85))
    return points


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
        pts = _blob(rng, (cx + dx * radius, cy + dy * radius), radius * 0.28)
        colour = darken(_rgb(owner), 0.15)
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
    _arrow(
        art,
        (cx - 0.45 * radius, cy - 0.35 * radius),
        (cx + 0.3 * radius, cy - 0.45 * radius),
        radius * 0.35,
        _rgb(0),
        max(3, w // 90),
    )
    _arrow(
        art,
        (cx - 0.2 * radius, cy + 0.3 * radius),
        (cx + 0.5 * radius, cy + 0.25 * radius),
        radius * 0.25,
        _rgb(2),
        max(3, w // 90),
    )
    die = max(18, int(h * 0.2))
    draw_die(art, (w * 0.8, h * 0.36), die, 6, 14)
    draw_die(art, (w * 0.88, h * 0.62), die, 5, -10, colour=(214, 72, 48), pip=(250, 244, 236))
    return art


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
        _rgb(5),
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
        [darken(_rgb(realm[i]), 0.45 + 0.1 * (i % 3)) for i in range(len(seeds))], dtype=np.uint8
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
                _piece(art, foot, th / 11, _rgb(pieces[i, j]))
    draw_text_badge(art, "+12", (w * 0.74, h * 0.2), int(h * 0.09))
    return art


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
