"""What the battlefield shows while events play out: the pieces as drawn (`Figure`) and
the beats that move them (hops, attacks, deaths, floating numbers).

The screen keeps one `Figure` per piece. When idle the figures equal the seat's view;
when events arrive they are queued as beats and played one after another, each changing
the figures as the original did: a walk hops tile by tile, an attacker toggles its stand
and attack frames while the target holds its pain pose flashing red, a number floats up
from the target, a dead piece fades out. Beats never touch the match.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from suite.tactics.skins import ALT_STAND, ATTACK, PAIN, STAND
from suite.ui.theme import Colour

HOP_SECONDS = 0.16  # one tile of a walk
HOP_HEIGHT = 0.22  # of a tile's width, at the top of a hop
STRIKE_SECONDS = 0.16  # one swing of an attack
STRIKES = 4  # swings per attack (stand, attack, stand, attack ...)
FADE_SECONDS = 0.7
FLOAT_SECONDS = 1.3
IDLE_MIN, IDLE_MAX = 0.9, 2.2  # seconds a piece keeps one standing frame

Sound = Callable[[str, int], None]
"""Plays a piece's sound: (event, piece uid), e.g. ("attack", 12); "hit", "miss" and
"crit" name its weapon's sounds."""


@dataclass
class Figure:
    """A piece as drawn: its cell (float while hopping), hop height, frame and effects."""

    uid: int
    kind: int
    owner: int
    army: int
    x: float
    y: float
    hp: int
    max_hp: int
    alive: bool
    hop: float = 0.0  # 0..1 of HOP_HEIGHT
    frame: str = STAND
    flash: bool = False
    alpha: int = 255
    idle_left: float = 1.0
    busy: bool = False  # an animation owns the frame

    @property
    def cell(self) -> tuple[int, int]:
        return round(self.x), round(self.y)

    def idle(self, dt: float, rng_fraction: float) -> bool:
        """Swap standing frames now and then; True when the frame changed."""
        if self.busy or not self.alive:
            return False
        self.idle_left -= dt
        if self.idle_left > 0:
            return False
        self.frame = ALT_STAND if self.frame == STAND else STAND
        self.idle_left = IDLE_MIN + (IDLE_MAX - IDLE_MIN) * rng_fraction
        return True


@dataclass
class Floater:
    """A number or word rising from a cell and fading."""

    text: str
    colour: Colour
    x: float
    y: float
    age: float = 0.0

    @property
    def done(self) -> bool:
        return self.age >= FLOAT_SECONDS

    @property
    def rise(self) -> float:
        """0..1: how far it has risen."""
        return min(1.0, self.age / FLOAT_SECONDS)


class Beat(ABC):
    """One step of the show; `update` returns True when it is over."""

    focus: tuple[float, float] | None = None  # the cell the camera follows

    def start(self, figures: dict[int, Figure], sound: Sound) -> None:  # noqa: B027 (an optional hook)
        """Called once before the first update."""

    @abstractmethod
    def update(self, dt: float, figures: dict[int, Figure], floaters: list[Floater]) -> bool:
        """Advance by `dt` seconds; True once this beat is over."""


@dataclass
class Hop(Beat):
    """A piece walks `path` (cells, first = where it stands) tile by tile."""

    uid: int
    path: Sequence[tuple[int, int]]
    t: float = 0.0

    def start(self, figures: dict[int, Figure], sound: Sound) -> None:  # noqa: B027 (an optional hook)
        sound("go", self.uid)
        if self.path:
            self.focus = (float(self.path[0][0]), float(self.path[0][1]))

    def update(self, dt: float, figures: dict[int, Figure], floaters: list[Floater]) -> bool:
        figure = figures.get(self.uid)
        steps = len(self.path) - 1
        if figure is None or steps <= 0:
            return True
        self.t += dt
        done = self.t >= steps * HOP_SECONDS
        progress = min(self.t / HOP_SECONDS, float(steps))
        i = min(int(progress), steps - 1)
        frac = progress - i
        (ax, ay), (bx, by) = self.path[i], self.path[i + 1]
        figure.x = ax + (bx - ax) * frac
        figure.y = ay + (by - ay) * frac
        figure.hop = 0.0 if done else math.sin(math.pi * frac)
        figure.busy = not done
        if done:
            figure.x, figure.y = float(self.path[-1][0]), float(self.path[-1][1])
            figure.frame = STAND
        self.focus = (figure.x, figure.y)
        return done


@dataclass
class Strike(Beat):
    """An attack: the attacker chops, the target holds its pain pose and flashes red on
    each blow (not on a miss), then the result floats up and the HP drops."""

    attacker: int
    target: int
    result: str
    damage: int
    target_hp: int
    t: float = 0.0

    def start(self, figures: dict[int, Figure], sound: Sound) -> None:  # noqa: B027 (an optional hook)
        sound("attack", self.attacker)
        sound(self.result, self.attacker)  # the weapon's hit, miss or crit
        if self.result != "miss":
            sound("pain", self.target)
        target = figures.get(self.target)
        if target is not None:
            self.focus = (target.x, target.y)

    def update(self, dt: float, figures: dict[int, Figure], floaters: list[Floater]) -> bool:
        attacker, target = figures.get(self.attacker), figures.get(self.target)
        self.t += dt
        swing = int(self.t / STRIKE_SECONDS)
        done = swing >= STRIKES
        if attacker is not None:
            attacker.busy = not done
            attacker.frame = STAND if done or swing % 2 == 0 else ATTACK
        if target is not None:
            target.busy = not done
            target.frame = STAND if done else PAIN
            target.flash = not done and self.result != "miss" and swing % 2 == 1
            if done:
                target.hp = self.target_hp
                floaters.append(Floater(*self._label(), target.x, target.y))
        return done

    def _label(self) -> tuple[str, Colour]:
        if self.result == "miss":
            return "miss", (220, 220, 230)
        if self.result == "crit":
            return f"-{self.damage}!", (255, 200, 60)
        return f"-{self.damage}", (255, 90, 80)


@dataclass
class Fade(Beat):
    """A piece dies and fades out."""

    uid: int
    t: float = 0.0

    def start(self, figures: dict[int, Figure], sound: Sound) -> None:  # noqa: B027 (an optional hook)
        sound("death", self.uid)
        figure = figures.get(self.uid)
        if figure is not None:
            self.focus = (figure.x, figure.y)

    def update(self, dt: float, figures: dict[int, Figure], floaters: list[Floater]) -> bool:
        figure = figures.get(self.uid)
        if figure is None:
            return True
        self.t += dt
        done = self.t >= FADE_SECONDS
        figure.busy = not done
        figure.frame = PAIN
        figure.alpha = 0 if done else round(255 * (1 - self.t / FADE_SECONDS))
        if done:
            figure.alive = False
        return done


@dataclass
class Note(Beat):
    """A word floating over a piece (a level up); takes no time of its own."""

    uid: int
    text: str
    colour: Colour

    def update(self, dt: float, figures: dict[int, Figure], floaters: list[Floater]) -> bool:
        figure = figures.get(self.uid)
        if figure is not None:
            floaters.append(Floater(self.text, self.colour, figure.x, figure.y))
        return True


class Show:
    """The queue of beats and the floating texts, played in order."""

    def __init__(self, sound: Sound) -> None:
        self.sound = sound
        self.queue: deque[Beat] = deque()
        self.current: Beat | None = None
        self.floaters: list[Floater] = []

    @property
    def busy(self) -> bool:
        """True while a beat plays or waits (floating texts do not count)."""
        return self.current is not None or bool(self.queue)

    @property
    def moving(self) -> bool:
        """True while anything changes on screen (beats or floating texts)."""
        return self.busy or bool(self.floaters)

    @property
    def focus(self) -> tuple[float, float] | None:
        return None if self.current is None else self.current.focus

    def add(self, beat: Beat) -> None:
        self.queue.append(beat)

    def update(self, dt: float, figures: dict[int, Figure]) -> None:
        """Advance the floating texts and the current beat; a beat that ends starts the
        next one (zero-time beats such as notes chain within one frame)."""
        for floater in self.floaters:
            floater.age += dt
        self.floaters[:] = [f for f in self.floaters if not f.done]
        while True:
            if self.current is None:
                if not self.queue:
                    return
                self.current = self.queue.popleft()
                self.current.start(figures, self.sound)
            if not self.current.update(dt, figures, self.floaters):
                return
            self.current = None
            dt = 0.0

    def skip(self, figures: dict[int, Figure]) -> None:
        """Finish every beat at once (used when the screen is left or fast-forwarded)."""
        while self.busy:
            self.update(60.0, figures)
