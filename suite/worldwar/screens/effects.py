"""Short, non-blocking animations of the map screen: the dice tray and conquest rings.

They only read the events the engine returned; input keeps working while they play and a
new roll simply replaces the previous one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import draw_panel, draw_star, draw_text, fit_text

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
    scale: float = 1.0
    """The screen's UI factor (`scale.ui_factor`)."""

    @property
    def done(self) -> bool:
        return self.age >= SHOW

    def update(self, dt: float) -> None:
        self.age += dt

    def pairs(self) -> list[tuple[int | None, int | None]]:
        """The dice as they are compared: (attacker, defender) faces, highest first; a die
        with no counterpart is paired with None (it is not compared)."""
        att = sorted(self.attacker, reverse=True)
        dfn = sorted(self.defender, reverse=True)
        n = max(len(att), len(dfn))
        return [
            (att[i] if i < len(att) else None, dfn[i] if i < len(dfn) else None) for i in range(n)
        ]

    def rect_in(self, area: pygame.Rect, avoid: Sequence[tuple[int, int]] = ()) -> pygame.Rect:
        """Where the tray goes: the top of `area`, or its bottom when the top would cover a
        point of `avoid` (the battle's territories)."""
        k = self.scale
        size = (min(round(380 * k), area.width - 24), round(172 * k))
        return _clear_spot(pygame.Rect((0, 0), size), area, avoid)

    def draw(
        self, surface: pygame.Surface, area: pygame.Rect, avoid: Sequence[tuple[int, int]] = ()
    ) -> None:
        """Attacker dice on the upper row, defender dice under them, one column per
        comparison (highest first); the loser of each comparison is dimmed."""
        fade = min(1.0, (SHOW - self.age) / 0.3)
        if fade <= 0:
            return
        k = self.scale

        def px(v: float) -> int:
            return round(v * k)

        die = px(40)
        rect = self.rect_in(area, avoid)
        draw_panel(surface, rect, colour=(14, 19, 30), border=theme.ACCENT, alpha=255, radius=12)
        title = fit_text(self.title, px(16), rect.width - px(24), True)
        top = (rect.centerx, rect.y + px(10))
        draw_text(surface, title, top, size=px(16), bold=True, anchor="midtop")
        settled = self.age >= SHUFFLE
        x0 = rect.x + px(110)
        rows = (rect.y + px(40), rect.y + px(90))
        for y, label in zip(rows, ("attacker", "defender"), strict=True):
            draw_text(
                surface,
                label,
                (x0 - px(14), y + die // 2),
                size=px(14),
                colour=theme.TEXT_MUTED,
                anchor="midright",
            )
        for i, (a, d) in enumerate(self.pairs()):
            x = x0 + i * (die + px(14))
            compared = a is not None and d is not None
            for face, y, colour, beaten in (
                (a, rows[0], self.attacker_colour, compared and (a or 0) <= (d or 0)),
                (d, rows[1], self.defender_colour, compared and (a or 0) > (d or 0)),
            ):
                if face is None:
                    continue
                shown = face if settled else self.tumble.randint(1, 6)
                wobble = 0 if settled else round(6 * k * math.sin(self.age * 40 + i))
                draw_die(
                    surface,
                    pygame.Rect(x, y + wobble, die, die),
                    shown,
                    colour,
                    dim=settled and (beaten or not compared),
                )
        if settled:
            summary = f"attacker -{self.attacker_loss}   defender -{self.defender_loss}"
            draw_text(
                surface,
                summary,
                (rect.centerx, rect.bottom - px(8)),
                size=px(14),
                colour=theme.TEXT_MUTED,
                anchor="midbottom",
            )


def _clear_spot(
    rect: pygame.Rect, area: pygame.Rect, avoid: Sequence[tuple[int, int]]
) -> pygame.Rect:
    """`rect` centred at the top of `area` (12 px in), or at its bottom when the top covers
    a point of `avoid` and the bottom does not."""
    out = pygame.Rect(rect)
    out.midtop = (area.centerx, area.top + 12)
    near = out.inflate(36, 36)
    if any(near.collidepoint(p) for p in avoid):
        low = pygame.Rect(out)
        low.midbottom = (area.centerx, area.bottom - 12)
        if not any(low.inflate(36, 36).collidepoint(p) for p in avoid):
            return low
    return out


@dataclass
class BattleCard:
    """An attack to the end on show: total losses on both sides."""

    title: str
    attacker_loss: int
    defender_loss: int
    won: bool
    age: float = 0.0
    scale: float = 1.0

    @property
    def done(self) -> bool:
        return self.age >= SHOW

    def update(self, dt: float) -> None:
        self.age += dt

    def rect_in(self, area: pygame.Rect, avoid: Sequence[tuple[int, int]] = ()) -> pygame.Rect:
        """Where the card goes (as `DiceTray.rect_in`)."""
        k = self.scale
        size = (min(round(440 * k), area.width - 24), round(96 * k))
        return _clear_spot(pygame.Rect((0, 0), size), area, avoid)

    def draw(
        self, surface: pygame.Surface, area: pygame.Rect, avoid: Sequence[tuple[int, int]] = ()
    ) -> None:
        rect = self.rect_in(area, avoid)
        draw_panel(surface, rect, colour=(14, 19, 30), border=theme.ACCENT, alpha=255, radius=12)
        k = self.scale
        title = fit_text(self.title, round(16 * k), rect.width - round(24 * k), True)
        top = (rect.centerx, rect.y + round(12 * k))
        draw_text(surface, title, top, size=round(16 * k), bold=True, anchor="midtop")
        shown = min(1.0, self.age / SHUFFLE)
        a = round(self.attacker_loss * shown)
        d = round(self.defender_loss * shown)
        verdict = "Conquered!" if self.won else "Stopped"
        draw_text(
            surface,
            f"attacker -{a}   defender -{d}   {verdict if shown >= 1 else ''}",
            (rect.centerx, rect.y + round(52 * k)),
            size=round(18 * k),
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
