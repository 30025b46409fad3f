"""What a seat believes the world to be, built from its `view` for bots.

Own provinces are exact; provinces with intel take what was seen; the rest are
estimated: a neutral from the rule set's start figures and its per-turn gains (W3: +2
armies a turn, its 16 workers' DEF), an enemy province as at least that strong with a
home's level and DEF. EFF of other colours comes from Spy Player intel, else the start EFF.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from suite.core.board import Board, Node, Region
from suite.wok.rules.ruleset import RuleSet, load_ruleset
from suite.wok.rules.world import NEUTRAL, Colour, World

_BOARDS: dict[tuple[tuple[int, ...], ...], Board] = {}


def _board(neighbours: list[list[int]]) -> Board:
    key = tuple(tuple(n) for n in neighbours)
    board = _BOARDS.get(key)
    if board is None:
        nodes = [
            Node(f"p{i}", f"p{i}", "r", tuple(f"p{j}" for j in nb))
            for i, nb in enumerate(neighbours)
        ]
        board = Board(nodes, [Region("r", "r")], name="belief", require_connected=False)
        if len(_BOARDS) > 16:
            _BOARDS.clear()
        _BOARDS[key] = board
    return board


def neutral_estimate(rules: RuleSet, turn: int) -> tuple[int, int]:
    """(armies, DEF tenths) of an untouched neutral at the start of `turn`."""
    n = rules.neutral
    arm = n.arm + rules.neutral_arm_per_turn * turn
    dfn = n.def_tenths + (n.wok // rules.def_per) * max(0, turn - 1)
    return min(rules.cap_arm, arm), min(rules.cap_def, dfn)


def believed_world(view: Mapping[str, Any]) -> World:
    """A `World` holding the seat's best knowledge (see the module docstring)."""
    rules = load_ruleset(str(view["rules"]))
    turn = int(view["turn"])
    mine = {int(c): v for c, v in view.get("colours", {}).items()}
    intel = {int(o): v for o, v in view.get("player_intel", {}).items()}
    colours = []
    for pl in view["players"]:
        c = int(pl["colour"])
        if c in mine:
            eff, gold, tech = mine[c]["eff"], mine[c]["gold"], mine[c]["tech"]
        elif c in intel:
            eff, gold, tech = intel[c]["eff"], intel[c]["gold"], intel[c]["tech"]
        else:
            eff, gold, tech = rules.start_eff, 0, 0
        colours.append(
            Colour(
                name=str(pl["name"]),
                seat=pl["seat"],
                eff=int(eff),
                gold=int(gold),
                tech=int(tech),
                letter=int(pl.get("letter", 0)),
                alive=bool(pl["alive"]),
            )
        )
    w = World(_board(view["neighbours"]), rules, colours)
    n_arm, n_def = neutral_estimate(rules, turn)
    home = rules.home
    for entry in view["provinces"]:
        p = int(entry["id"])
        w.owner[p] = int(entry["owner"])
        w.home[p] = int(view["homes"][p])
        if "arm" in entry:
            w.pop[p], w.wok[p], w.arm[p] = entry["pop"], entry["wok"], entry["arm"]
            w.lev[p], w.dfn[p] = float(entry["lev"]), round(float(entry["def"]) * 10)
            w.mis[p], w.spy[p], w.aim[p] = entry["mis"], entry["spy"], entry["aim"]
            w.false_orders[p] = bool(entry["false_orders"])
            if w.owner[p] == NEUTRAL and entry["seen"] < turn:
                gap = turn - int(entry["seen"])
                w.arm[p] = min(rules.cap_arm, w.arm[p] + rules.neutral_arm_per_turn * gap)
        elif w.owner[p] == NEUTRAL:
            w.pop[p], w.wok[p], w.arm[p], w.dfn[p] = (
                rules.default_pop,
                rules.neutral.wok,
                n_arm,
                n_def,
            )
        else:
            w.pop[p], w.wok[p] = rules.default_pop, home.wok
            w.arm[p], w.lev[p], w.dfn[p] = max(n_arm, home.arm), home.lev, home.def_tenths
            w.spy[p] = home.spy
    return w
