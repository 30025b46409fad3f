"""The Bot contract and a random bot that works for every game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from suite.core.match import Action, ActionSpace, Legal
from suite.core.rng import Rng


class Bot(Protocol):
    """A bot sees only its seat's view and the legal actions, and draws chance from `rng`."""

    name: str

    def choose(self, view: Mapping[str, Any], legal: Legal, rng: Rng) -> Action: ...


class NoLegalAction(RuntimeError):
    """A bot was asked to act with nothing legal to do."""


class RandomBot:
    """Picks uniformly among the legal actions (or samples the action space)."""

    name = "random"

    def choose(self, view: Mapping[str, Any], legal: Legal, rng: Rng) -> Action:
        if isinstance(legal, ActionSpace):
            return legal.sample(rng)
        if not legal:
            raise NoLegalAction("no legal action to choose from")
        return rng.choice(legal)
