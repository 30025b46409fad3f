"""The Bot contract and a random bot that works for every game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from suite.core.match import Action, ActionSpace, GameSpec, Legal, View
from suite.core.rng import Rng


class Bot(Protocol):
    """A bot sees only its seat's view and the legal actions, and draws chance from `rng`."""

    name: str

    def choose(self, view: View, legal: Legal, rng: Rng) -> Action: ...


class NoLegalAction(RuntimeError):
    """A bot was asked to act with nothing legal to do."""


class RandomBot:
    """Picks uniformly among the legal actions (or samples the action space)."""

    name = "random"

    def choose(self, view: View, legal: Legal, rng: Rng) -> Action:
        if isinstance(legal, ActionSpace):
            return legal.sample(rng)
        if not legal:
            raise NoLegalAction("no legal action to choose from")
        return rng.choice(legal)


def make_bot(spec: GameSpec, name: str) -> Bot:
    """A new bot of `spec`'s game by name ("random" always exists); ValueError names the
    bots there are when `name` is not one of them."""
    factories: dict[str, Callable[[], Bot]] = {"random": RandomBot, **spec.bots}
    if name not in factories:
        raise ValueError(f"unknown bot {name!r} for {spec.name} (have {', '.join(factories)})")
    return factories[name]()
