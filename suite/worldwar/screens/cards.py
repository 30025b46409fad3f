"""Card faces drawn by the program, and the hand panel.

Cards without a suit (increasing mode) show their value as stars; cards with a suit
(royalty and poker) show rank and suit like playing cards, suits drawn as shapes (so they
read without colour too).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pygame

from suite.ui import theme
from suite.ui.theme import Colour
from suite.ui.widgets import Button, draw_panel, draw_star, draw_text
from suite.worldwar.rules.views import Card, WorldWarView

PAPER: Colour = (244, 236, 214)
PAPER_EDGE: Colour = (150, 128, 92)
INK: Colour = (34, 38, 48)
RED: Colour = (196, 44, 40)
SUIT_RED = ("hearts", "diamonds")
FACE_RANKS = ("J", "Q", "K")


def _suit(surface: pygame.Surface, suit: str, centre: tuple[int, int], size: int) -> None:
    """A suit symbol `size` pixels tall centred on `centre`."""
    x, y = centre
    r = size / 4
    colour = RED if suit in SUIT_RED else INK
    if suit == "diamonds":
        pts = [(x, y - size / 2), (x + size * 0.36, y), (x, y + size / 2), (x - size * 0.36, y)]
        pygame.draw.polygon(surface, colour, pts)
    elif suit == "hearts":
        pygame.draw.circle(surface, colour, (round(x - r), round(y - r / 2)), round(r * 1.05))
        pygame.draw.circle(surface, colour, (round(x + r), round(y - r / 2)), round(r * 1.05))
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y - r / 4), (x + 2 * r, y - r / 4), (x, y + size / 2)]
        )
    elif suit == "spades":
        pygame.draw.circle(surface, colour, (round(x - r), round(y + r / 3)), round(r * 1.05))
        pygame.draw.circle(surface, colour, (round(x + r), round(y + r / 3)), round(r * 1.05))
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y + r / 8), (x + 2 * r, y + r / 8), (x, y - size / 2)]
        )
        pygame.draw.polygon(
            surface, colour, [(x, y + r / 2), (x - r, y + size / 2), (x + r, y + size / 2)]
        )
    else:  # clubs
        pygame.draw.circle(surface, colour, (round(x), round(y - r)), round(r * 0.95))
        pygame.draw.circle(surface, colour, (round(x - r), round(y + r / 3)), round(r * 0.95))
        pygame.draw.circle(surface, colour, (round(x + r), round(y + r / 3)), round(r * 0.95))
        pygame.draw.polygon(
            surface, colour, [(x, y), (x - r * 0.8, y + size / 2), (x + r * 0.8, y + size / 2)]
        )


@functools.lru_cache(maxsize=64)
def suit_image(suit: str, size: int) -> pygame.Surface:
    """A suit symbol `size` pixels square, drawn 4x larger and smoothed down (antialiased)."""
    big = pygame.Surface((4 * size, 4 * size), pygame.SRCALPHA)
    _suit(big, suit, (2 * size, 2 * size), round(3.6 * size))
    return pygame.transform.smoothscale(big, (size, size))


def _crown(surface: pygame.Surface, centre: tuple[int, int], w: int, colour: Colour) -> None:
    x, y = centre
    h = w * 0.6
    pts = [
        (x - w / 2, y + h / 2),
        (x - w / 2, y - h / 2),
        (x - w / 4, y),
        (x, y - h / 2),
        (x + w / 4, y),
        (x + w / 2, y - h / 2),
        (x + w / 2, y + h / 2),
    ]
    pygame.draw.polygon(surface, colour, pts)


@functools.lru_cache(maxsize=256)
def card_face(rank: str, suit: str, size: tuple[int, int]) -> pygame.Surface:
    """The face of one card, `size` pixels (cached)."""
    w, h = size
    image = pygame.Surface(size, pygame.SRCALPHA)
    body = image.get_rect()
    radius = max(4, w // 9)
    pygame.draw.rect(image, PAPER, body, border_radius=radius)
    pygame.draw.rect(image, PAPER_EDGE, body, 2, border_radius=radius)
    pygame.draw.rect(image, theme.lighten(PAPER_EDGE, 0.45), body.inflate(-10, -10), 1, radius)
    small = max(12, w // 5)
    if not suit:
        value = int(rank) if rank.isdigit() else 1
        draw_text(image, rank, (8, 4), size=small, colour=INK, bold=True)
        draw_text(
            image, rank, (w - 8, h - 4), size=small, colour=INK, bold=True, anchor="bottomright"
        )
        star = w * 0.16
        for k in range(value):
            cy = h / 2 + (k - (value - 1) / 2) * star * 2.3
            draw_star(image, (w / 2, cy), star, theme.ACCENT_DARK)
        return image
    colour = RED if suit in SUIT_RED else INK
    label = draw_text(image, rank, (8, 4), size=small, colour=colour, bold=True)
    if suit:
        corner = max(14, small * 5 // 6)
        image.blit(suit_image(suit, corner), (label.centerx - corner // 2, label.bottom))
        centre = suit_image(suit, w // 2)
        offset = h // 10 if rank in FACE_RANKS else 0
        image.blit(centre, centre.get_rect(center=(w // 2, h // 2 + offset)))
    if rank in FACE_RANKS:
        _crown(image, (w // 2, h // 2 - h // 5), w // 3, theme.ACCENT_DARK)
    draw_text(
        image, rank, (w - 8, h - 4), size=small, colour=colour, bold=True, anchor="bottomright"
    )
    return image


def face_for(card: Card, size: tuple[int, int]) -> pygame.Surface:
    return card_face(card.rank, card.suit, size)


SetCheck = Callable[[tuple[int, ...]], str | None]
CARD_SIZE = (92, 132)


class CardsPanel:
    """The viewer's hand as cards: click cards to pick a set; the best set is suggested;
    "Turn in" is enabled only for a set the engine accepts now (`check` gives the reason
    otherwise); "Skip" keeps the cards when a turn-in is optional after an elimination."""

    def __init__(
        self,
        on_turn_in: Callable[[tuple[int, ...]], None],
        on_skip: Callable[[], None],
    ) -> None:
        self.on_turn_in = on_turn_in
        self.on_skip = on_skip
        self.open = False
        self.selected: list[int] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.card_rects: list[tuple[int, pygame.Rect]] = []
        self.hand: tuple[Card, ...] = ()
        self.lines: list[str] = []
        self.reason: str | None = "pick cards"
        self.can_skip = False
        self.best: list[int] = []
        self.turn_in_button = Button(
            "Turn in (T)",
            pygame.Rect(0, 0, 150, 40),
            self.turn_in,
            primary=True,
            tooltip="Turn in the picked cards for armies to place this turn",
        )
        self.best_button = Button(
            "Best set (B)",
            pygame.Rect(0, 0, 150, 40),
            self.pick_best,
            tooltip="Pick the most valuable set in your hand",
        )
        self.skip_button = Button(
            "Keep cards",
            pygame.Rect(0, 0, 150, 40),
            self.on_skip,
            tooltip="Keep your cards for a later turn (only when not forced)",
        )
        self.close_button = Button(
            "Close (C)",
            pygame.Rect(0, 0, 120, 40),
            self.toggle,
            tooltip="Hide the cards (C shows them again)",
        )

    @property
    def buttons(self) -> list[Button]:
        shown = [self.turn_in_button, self.best_button, self.close_button]
        if self.can_skip:
            shown.insert(2, self.skip_button)
        return shown

    def toggle(self) -> None:
        self.open = not self.open

    def layout(self, area: pygame.Rect) -> None:
        w = min(area.width - 40, 760)
        self.rect = pygame.Rect(0, 0, w, 300)
        self.rect.midbottom = (area.centerx, area.bottom - 16)
        y = self.rect.bottom - 54
        x = self.rect.x + 20
        for button in (self.turn_in_button, self.best_button, self.skip_button):
            button.rect.topleft = (x, y)
            x = button.rect.right + 12
        self.close_button.rect.topright = (self.rect.right - 20, y)

    def sync(
        self,
        view: WorldWarView,
        lines: list[str],
        check: SetCheck,
        may_act: bool,
    ) -> None:
        """Take the hand and rules text from the viewer's `view`; `may_act` is False when
        it is not the viewer's moment to turn in."""
        hand = view.hand_cards
        if [c.id for c in hand] != [c.id for c in self.hand]:
            self.selected = [c for c in self.selected if c in {h.id for h in hand}]
        self.hand = hand
        self.lines = lines
        self.best = list(view.best_turn_in[0]) if view.best_turn_in else []
        chosen = tuple(sorted(self.selected))
        self.reason = check(chosen) if may_act else "you can turn in at the start of your turn"
        if not chosen and may_act:
            self.reason = "pick the cards of a set"
        self.turn_in_button.enabled = self.reason is None
        self.best_button.enabled = bool(self.best) and may_act
        self.can_skip = may_act and view.phase == "cards" and not view.must_turn_in
        self.skip_button.enabled = self.can_skip
        w, h = CARD_SIZE
        gap = 12
        total = len(hand) * (w + gap) - gap
        x = self.rect.centerx - total // 2
        self.card_rects = []
        for card in hand:
            lift = 14 if card.id in self.selected else 0
            self.card_rects.append((card.id, pygame.Rect(x, self.rect.y + 70 - lift, w, h)))
            x += w + gap

    def pick_best(self) -> None:
        self.selected = list(self.best)

    def turn_in(self) -> None:
        if self.reason is None and self.selected:
            cards = tuple(sorted(self.selected))
            self.selected = []
            self.on_turn_in(cards)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.open:
            return False
        for button in self.buttons:
            if button.handle_event(event):
                return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            for card, rect in self.card_rects:
                if rect.collidepoint(event.pos):
                    if card in self.selected:
                        self.selected.remove(card)
                    else:
                        self.selected.append(card)
                    return True
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return bool(self.rect.collidepoint(event.pos))
        return False

    def update(self, dt: float) -> None:
        for button in self.buttons:
            button.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.open:
            return
        draw_panel(
            surface, self.rect, colour=(16, 21, 32), border=theme.ACCENT, alpha=255, radius=12
        )
        draw_text(surface, "Your cards", (self.rect.x + 20, self.rect.y + 14), size=20, bold=True)
        for i, line in enumerate(self.lines[:3]):
            draw_text(
                surface,
                line,
                (self.rect.right - 20, self.rect.y + 8 + 19 * i),
                size=15,
                colour=theme.ACCENT if i == 0 else theme.TEXT_MUTED,
                anchor="topright",
            )
        if not self.hand:
            draw_text(
                surface,
                "No cards yet: conquer a territory this turn to draw one.",
                self.rect.center,
                size=17,
                colour=theme.TEXT_MUTED,
                anchor="center",
            )
        for card, rect in self.card_rects:
            desc = next(c for c in self.hand if c.id == card)
            surface.blit(face_for(desc, rect.size), rect)
            if card in self.best:
                pygame.draw.rect(surface, theme.SUCCESS, rect.inflate(6, 6), 3, border_radius=12)
            if card in self.selected:
                pygame.draw.rect(surface, theme.ACCENT, rect.inflate(10, 10), 3, border_radius=14)
        if self.reason and self.selected:
            draw_text(
                surface,
                self.reason.capitalize(),
                (self.rect.x + 20, self.rect.bottom - 80),
                size=14,
                colour=theme.TEXT_MUTED,
            )
        for button in self.buttons:
            button.draw(surface)

    def draw_tooltips(self, surface: pygame.Surface) -> None:
        if self.open:
            for button in self.buttons:
                button.draw_tooltip(surface)


def describe_set(kind: str) -> str:
    return kind.replace("_", " ")


def value_lines(view: WorldWarView) -> list[str]:
    """What sets are worth: the next set's value (a shared counter) or the value table."""
    if view.next_set_value is not None:
        return [
            f"Next set: {view.next_set_value} armies",
            f"Sets turned in so far: {view.sets_turned_in}",
        ]
    table = sorted(view.rules.set_values, key=lambda kv: kv[1])
    text = ", ".join(f"{describe_set(k)} {v}" for k, v in table)
    half = len(table) // 2
    if len(table) > 4:
        first = ", ".join(f"{describe_set(k)} {v}" for k, v in table[:half])
        second = ", ".join(f"{describe_set(k)} {v}" for k, v in table[half:])
        return [first, second]
    return [text]
