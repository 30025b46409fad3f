"""Bots for the thinking tests, imported by name (`thinking_bots`) so that a worker
process can unpickle them: the tests put this folder on sys.path, which a spawned worker
inherits. Not a test module."""

from __future__ import annotations

import time

from suite.core.bots import RandomBot
from suite.core.match import Action, Legal, View
from suite.core.rng import Rng


class SleepyBot(RandomBot):
    """A random bot that first thinks for `seconds` (a long search, for interrupting)."""

    name = "sleepy"

    def __init__(self, seconds: float = 60.0) -> None:
        self.seconds = seconds

    def choose(self, view: View, legal: Legal, rng: Rng) -> Action:
        time.sleep(self.seconds)
        return super().choose(view, legal, rng)


class BrokenBot(RandomBot):
    """A bot whose every decision raises."""

    name = "broken"

    def choose(self, view: View, legal: Legal, rng: Rng) -> Action:
        raise ValueError("this bot cannot decide")


class CountingBot(RandomBot):
    """A random bot that remembers how many decisions it made (state kept between them)."""

    name = "counting"

    def __init__(self) -> None:
        self.decisions = 0

    def choose(self, view: View, legal: Legal, rng: Rng) -> Action:
        self.decisions += 1
        return super().choose(view, legal, rng)
