"""Short, non-blocking animations of the map screen: the dice tray and conquest rings.

They only read the events the engine returned; input keeps working while they play and a
new roll simply replaces the previous one.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import draw_panel, draw_star, draw_text

SHUFFLE = 0.35  # seconds of tumbling faces before the rolled ones show
SHOW = 2.2  # seconds the tray stays up
RING = 0.7

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def draw_die(
    surface: pygame.Surface, rect: pygame.Rect, face: int, colour: Colour, dim: bool = False
) -> None:
    """One die showing `face` pips in `colour` (dimmed when it lost its comparison)."""
    body = theme.darken(colour, 0.45) if dim else colour
    pygame.draw.rect(surface, theme.SHADOW, rect.move(0, 3), border_radius=rect.width // 5)
    pygame.draw.rect(surface, body, rect, border_radius=rect.width // 5)
    pygame.draw.rect(surface, theme.darken(colour, 0.6), rect, 2, border_radius=rect.width // 5)
    r = max(2, rect.width // 10)
    ink = (20, 20, 26) if sum(body) > 330 else (245, 245, 245)
    for fx, fy in PIPS.get(face, []):
        pygame.draw.circle(surface, ink, (rect.x + fx * rect.width, rect.y + fy * rect.height), r)


@dataclass
class DiceTray:
    """A roll on show: attacker and defender faces (highest first) and who lost what."""

    attacker: tuple[int, ...]
    defender: tuple[int, ...]
    attacker_colour: Colour
    defender_colour: Colour
    title: str
    attacker_loss: int
    defender_loss: int
    age: float = 0.0
    tumble: random.Random = field(default_factory=lambda: random.Random(7))

    @property
    def done(self) -> bool:
        return self.age >= SHOW

    def update(self, dt: float) -> None:
        self.age += dt

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        die = 46
        width = max(420, 2 * (3 * (die + 10)) + 120)
        rect = pygame.Rect(0, 0, width, 124)
        rect.midtop = (area.centerx, area.top + 12)
        fade = min(1.0, (SHOW - self.age) / 0.3)
        if fade <= 0:
            return
        draw_panel(surface, rect, colour=(14, 19, 30), border=theme.ACCENT, alpha=255, radius=12)
        draw_text(
            surface, self.title, (rect.centerx, rect.y + 10), size=16, bold=True, anchor="midtop"
        )
        settled = self.age >= SHUFFLE
        pairs = min(len(self.attacker), len(self.defender))
        for side, faces, colour, x0, step in (
            (0, self.attacker, self.attacker_colour, rect.centerx - 40 - die, -(die + 10)),
            (1, self.defender, self.defender_colour, rect.centerx + 40, die + 10),
        ):
            for i, face in enumerate(faces):
                shown = face if settled else self.tumble.randint(1, 6)
                x = x0 + step * i
                wobble = 0 if settled else round(6 * math.sin(self.age * 40 + i))
                lost = False
                if settled and i < pairs:
                    a, d = self.attacker[i], self.defender[i]
                    lost = (a <= d) if side == 0 else (a > d)
                draw_die(
                    surface, pygame.Rect(x, rect.y + 44 + wobble, die, die), shown, colour, dim=lost
                )
        if settled:
            draw_text(
                surface,
                "vs",
                (rect.centerx, rect.y + 67),
                size=18,
                bold=True,
                colour=theme.TEXT_MUTED,
                anchor="center",
            )
            summary = f"attacker -{self.attacker_loss}   defender -{self.defender_loss}"
            draw_text(
                surface,
                summary,
                (rect.centerx, rect.bottom - 10),
                size=14,
                colour=theme.TEXT_MUTED,
                anchor="midbottom",
            )


@dataclass
class BattleCard:
    """An attack to the end on show: total losses on both sides."""

    title: str
    attacker_loss: int
    defender_loss: int
    won: bool
    age: float = 0.0

    @property
    def done(self) -> bool:
        return self.age >= SHOW

    def update(self, dt: float) -> None:
        self.age += dt

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        rect = pygame.Rect(0, 0, 440, 96)
        rect.midtop = (area.centerx, area.top + 12)
        draw_panel(surface, rect, colour=(14, 19, 30), border=theme.ACCENT, alpha=255, radius=12)
        draw_text(
            surface, self.title, (rect.centerx, rect.y + 12), size=16, bold=True, anchor="midtop"
        )
        shown = min(1.0, self.age / SHUFFLE)
        a = round(self.attacker_loss * shown)
        d = round(self.defender_loss * shown)
        verdict = "Conquered!" if self.won else "Stopped"
        draw_text(
            surface,
            f"attacker -{a}   defender -{d}   {verdict if shown >= 1 else ''}",
            (rect.centerx, rect.y + 52),
            size=18,
            anchor="midtop",
            colour=theme.SUCCESS if self.won and shown >= 1 else theme.TEXT,
        )


@dataclass
class Ring:
    """An expanding ring over a conquered territory."""

    territory: int
    colour: Colour
    age: float = 0.0

    @property
    def done(self) -> bool:
        return self.age >= RING

    def update(self, dt: float) -> None:
        self.age += dt

    def draw_at(self, surface: pygame.Surface, centre: tuple[int, int]) -> None:
        k = self.age / RING
        radius = round(12 + 42 * k)
        layer = pygame.Surface((2 * radius + 8, 2 * radius + 8), pygame.SRCALPHA)
        alpha = round(255 * (1 - k))
        pygame.draw.circle(layer, (*self.colour, alpha), (radius + 4, radius + 4), radius, 4)
        surface.blit(layer, layer.get_rect(center=centre))


@dataclass
class CardFlight:
    """A drawn card flying from the map to the Cards button."""

    start: tuple[int, int]
    end: tuple[int, int]
    age: float = 0.0
    DURATION = 0.7

    @property
    def done(self) -> bool:
        return self.age >= self.DURATION

    def update(self, dt: float) -> None:
        self.age += dt

    def draw(self, surface: pygame.Surface) -> None:
        k = min(1.0, self.age / self.DURATION)
        ease = 1 - (1 - k) ** 3
        x = self.start[0] + (self.end[0] - self.start[0]) * ease
        y = self.start[1] + (self.end[1] - self.start[1]) * ease - 80 * math.sin(math.pi * k)
        scale = 1.0 - 0.5 * ease
        image = _card_back((round(60 * scale), round(86 * scale)))
        surface.blit(image, image.get_rect(center=(round(x), round(y))))


def _card_back(size: tuple[int, int]) -> pygame.Surface:
    image = pygame.Surface(size, pygame.SRCALPHA)
    rect = image.get_rect()
    pygame.draw.rect(image, theme.PANEL_LIGHT, rect, border_radius=6)
    pygame.draw.rect(image, theme.ACCENT, rect, 2, border_radius=6)
    pygame.draw.rect(image, theme.ACCENT_DARK, rect.inflate(-10, -10), 1, border_radius=4)
    draw_star(image, rect.center, min(size) / 4, theme.ACCENT)
    return image
