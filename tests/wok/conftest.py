"""Helpers for WoK tests: tiny boards, bare worlds and turn contexts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from suite.core.board import Board, Node, Region
from suite.core.rng import Rng
from suite.wok.rules.phases import TurnContext, TurnLog
from suite.wok.rules.ruleset import load_ruleset
from suite.wok.rules.world import Colour, World


def board_from_edges(n: int, edges: list[tuple[int, int]]) -> Board:
    nb: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in edges:
        nb[a].add(b)
        nb[b].add(a)
    nodes = [
        Node(f"p{i}", f"P{i}", "r", tuple(f"p{j}" for j in sorted(nb[i])), props={"POP": 80})
        for i in range(n)
    ]
    return Board(nodes, [Region("r", "R")], name="test")


class FixedRng(Rng):
    """An Rng whose percent checks all pass (or all fail) and that records the chances."""

    def __init__(self, hit: bool = True, seed: int = 7) -> None:
        super().__init__(seed)
        self.hit = hit
        self.chances: list[float] = []

    def percent(self, p: float) -> bool:
        self.chances.append(p)
        return self.hit


@pytest.fixture
def make_world() -> Callable[..., World]:
    """make_world(n, edges, colours=2, ruleset="standard"): every province neutral and
    empty, colours at EFF 99."""

    def build(
        n: int, edges: list[tuple[int, int]], colours: int = 2, ruleset: str = "standard"
    ) -> World:
        rules = load_ruleset(ruleset)
        cols = [Colour(name=f"C{i}", seat=i, eff=99, gold=0, tech=0) for i in range(colours)]
        w = World(board_from_edges(n, edges), rules, cols)
        for p in range(n):
            w.aim[p] = "DEF"
        return w

    return build


@pytest.fixture
def make_ctx() -> Callable[..., TurnContext]:
    """make_ctx(world, rng=None, turn=5, variant="skirmish")."""

    def build(w: World, rng: Rng | None = None, turn: int = 5, variant: str = "skirmish") -> Any:
        return TurnContext(
            turn=turn,
            rng=rng or Rng(1),
            variant=w.rules.variant(variant),
            start_owner=list(w.owner),
            log=TurnLog(turn=turn),
            province_intel={},
            player_intel={},
        )

    return build


@pytest.fixture
def line_edges() -> Callable[[int], list[tuple[int, int]]]:
    return lambda n: [(i, i + 1) for i in range(n - 1)]
