"""The mutable WoK world: provinces as parallel lists keyed by province index, and colours.

A colour is one empire on the map (a player slot: "HanA", a robot, ...). Seats (the
people or bots giving orders) control one or more colours; robots control none.
DEF is kept in tenths (0..99) and LEV as a float rounded to 3 decimals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from suite.core.board import Board
from suite.core.units import mix_levels
from suite.wok.rules.ruleset import RuleSet

NEUTRAL = -1


@dataclass
class Colour:
    """One empire: its name, who controls it and its player-wide figures."""

    name: str
    seat: int | None  # None: an automatic robot
    eff: int
    gold: int
    tech: int
    letter: int = 0  # A=0, B=1, C=2 inside its seat (Duel NAPs)
    alive: bool = True
    rip_turn: int | None = None
    ripped_by: int | None = None
    rips: list[int] = field(default_factory=list)  # colours this one RIPed
    quit: bool = False
    missed: int = 0
    ally: int | None = None
    wood: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seat": self.seat,
            "eff": self.eff,
            "gold": self.gold,
            "tech": self.tech,
            "letter": self.letter,
            "alive": self.alive,
            "rip_turn": self.rip_turn,
            "ripped_by": self.ripped_by,
            "rips": list(self.rips),
            "quit": self.quit,
            "missed": self.missed,
            "ally": self.ally,
            "wood": self.wood,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Colour:
        return cls(**{**d, "rips": list(d["rips"])})


PROVINCE_FIELDS = (
    "owner",
    "pop",
    "wok",
    "arm",
    "pik",
    "arc",
    "kni",
    "cat",
    "lev",
    "dfn",
    "mis",
    "spy",
    "aim",
    "false_orders",
    "terrain",
    "carry",
)
TROOPS = ("ARM", "PIK", "ARC", "KNI", "CAT")
"""Troop types; Standard uses ARM only, Intermediate's upgraded types share its LEV."""


def _long_range(
    board: Board, rules: RuleSet, ids: list[str], index: dict[str, int], adj: list[frozenset[int]]
) -> list[frozenset[int]]:
    """Each province's long-range bombing targets: the neighbours' neighbours (S2) or,
    WoK IV, the provinces numbered within `number_reach` of it that are not neighbours
    (numbers follow the board order)."""
    b = rules.bombing
    if b.range_model == "number":
        k = b.number_reach
        n = len(ids)
        return [
            frozenset(t for t in range(max(0, p - k), min(n, p + k + 1)) if t != p) - adj[p]
            for p in range(n)
        ]
    return [frozenset(index[o] for o in board.ring2(pid)) for pid in ids]


_CARRY = re.compile(r"\d{1,18}(/\d{1,18}|\.\d{1,18})?")


def read_carry(value: Any, province: int) -> Fraction:
    """A saved carried fraction: "p/q" text (or a number, from saves before exact
    fractions); ValueError names the province when it is not a fraction in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"province {province}: carried fraction {value!r} is not a number")
    # Older saves kept floats rounded to a millionth.
    text = value if isinstance(value, str) else format(value, ".6f")
    if not _CARRY.fullmatch(text):  # no exponents: "1e99999999" would take forever
        raise ValueError(f"province {province}: carried fraction {text[:40]!r} is not p/q")
    try:
        carry = Fraction(text)
    except ZeroDivisionError as exc:
        raise ValueError(f"province {province}: carried fraction {text!r}: {exc}") from exc
    if not 0 <= carry < 1:
        raise ValueError(f"province {province}: carried fraction {text} is not in [0, 1)")
    return carry


class World:
    """Provinces and colours of one match plus the board's adjacency by index.

    Contract: every list has one entry per province; counts stay within the rule set's
    caps (W1); `owner[p]` is a colour index or NEUTRAL.
    """

    def __init__(self, board: Board, rules: RuleSet, colours: list[Colour]) -> None:
        self.board = board
        self.rules = rules
        ids = board.ids()
        index = {pid: i for i, pid in enumerate(ids)}
        self.ids = ids
        self.names = [board[pid].name for pid in ids]
        self.adj: list[tuple[int, ...]] = [
            tuple(sorted(index[o] for o in board.neighbours(pid))) for pid in ids
        ]
        self.adj_sets: list[frozenset[int]] = [frozenset(a) for a in self.adj]
        n = len(ids)
        self.far = _long_range(board, rules, ids, index, self.adj_sets)
        self.n = n
        self.colours = colours
        self.owner = [NEUTRAL] * n
        self.pop = [0] * n
        self.wok = [0] * n
        self.arm = [0] * n
        self.pik = [0] * n
        self.arc = [0] * n
        self.kni = [0] * n
        self.cat = [0] * n
        self.terrain = [""] * n  # Intermediate terrains (I2); "" without terrains
        self.carry = [Fraction(0)] * n  # exact fraction of a unit the workers made (I4)
        self.lev = [1.0] * n
        self.dfn = [0] * n
        self.mis = [0] * n
        self.spy = [0] * n
        self.aim = ["DEF"] * n
        self.false_orders = [False] * n
        self.home = [NEUTRAL] * n  # colour whose start province this is

    # -- queries ------------------------------------------------------------
    def owned(self, colour: int) -> list[int]:
        """Provinces of `colour` in index order."""
        return [p for p in range(self.n) if self.owner[p] == colour]

    def eff_of(self, p: int) -> int:
        """EFF that the owner of province p fights and works with (neutrals: W3)."""
        o = self.owner[p]
        return self.rules.start.neutral.eff if o == NEUTRAL else self.colours[o].eff

    def troops(self, p: int) -> int:
        """All troops in p (ARM and the upgraded types); the W1 ARM cap applies to it."""
        return self.arm[p] + self.pik[p] + self.arc[p] + self.kni[p] + self.cat[p]

    def contents(self, p: int) -> dict[str, Any]:
        """The full contents of province p as shown in reports and intel."""
        return {
            "owner": self.owner[p],
            "pop": self.pop[p],
            "wok": self.wok[p],
            "arm": self.arm[p],
            "pik": self.pik[p],
            "arc": self.arc[p],
            "kni": self.kni[p],
            "cat": self.cat[p],
            "lev": self.lev[p],
            "def": self.dfn[p] / 10,
            "mis": self.mis[p],
            "spy": self.spy[p],
            "aim": self.aim[p],
            "false_orders": self.false_orders[p],
        }

    def component(self, colour: int, start: int) -> set[int]:
        """The connected part of `colour`'s empire that holds `start`."""
        seen = {start}
        stack = [start]
        while stack:
            cur = stack.pop()
            for nxt in self.adj[cur]:
                if nxt not in seen and self.owner[nxt] == colour:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def totals(self, colour: int) -> dict[str, Any]:
        """Empire-wide totals (the Spy Player operation's result)."""
        own = self.owned(colour)
        arm = sum(self.troops(p) for p in own)
        c = self.colours[colour]
        return {
            "provinces": len(own),
            "pop": sum(self.pop[p] for p in own),
            "wok": sum(self.wok[p] for p in own),
            "arm": arm,
            "mis": sum(self.mis[p] for p in own),
            "spy": sum(self.spy[p] for p in own),
            "lev": round(sum(self.troops(p) * self.lev[p] for p in own) / arm, 3) if arm else 0.0,
            "def": round(sum(self.dfn[p] for p in own) / len(own) / 10, 2) if own else 0.0,
            "eff": c.eff,
            "gold": c.gold,
            "tech": c.tech,
        }

    def score(self, colour: int) -> int:
        """W11: provinces*100 + POP + 2*WOK + ARM*LEV*4 + DEF*10 + 3*MIS + 2*SPY + GOLD/10
        + tech*50, rounded down."""
        s = self.rules.score
        total = 0.0
        count = 0
        for p in range(self.n):
            if self.owner[p] != colour:
                continue
            count += 1
            total += (
                s.pop * self.pop[p]
                + s.wok * self.wok[p]
                + s.arm_lev * self.troops(p) * self.lev[p]
                + s.def_per_point * self.dfn[p] / 10
                + s.mis * self.mis[p]
                + s.spy * self.spy[p]
            )
        c = self.colours[colour]
        total += s.province * count + c.gold / s.gold_divisor + s.tech * c.tech
        return int(total + 1e-9)

    # -- caps ---------------------------------------------------------------
    def add_arm(self, p: int, count: int, level: float, planned: bool = False) -> int:
        """Join `count` armies at `level` into p (W9 mixing); returns what the cap lost.

        With `planned` (WoK IV) the level is mixed as if all `count` had joined, even
        those the cap loses."""
        room = self.rules.caps.arm - self.troops(p)
        added = max(0, min(count, room))
        mixed = count if planned else added
        if added:
            self.lev[p] = self.bound_lev(mix_levels(self.troops(p), self.lev[p], mixed, level))
            self.arm[p] += added
        return count - added

    def bound_lev(self, lev: float) -> float:
        r = self.rules
        return round(min(r.caps.lev_max, max(r.caps.lev_min, lev)), 3)

    def bound_eff(self, eff: int) -> int:
        return min(self.rules.caps.eff_max, max(self.rules.caps.eff_min, eff))

    def cap(self, kind: str) -> int:
        r = self.rules
        return {
            "POP": r.caps.pop,
            "WOK": r.caps.wok,
            "ARM": r.caps.arm,
            "PIK": r.caps.arm,
            "ARC": r.caps.arm,
            "KNI": r.caps.arm,
            "CAT": r.caps.arm,
            "MIS": r.caps.mis,
            "SPY": r.caps.spy,
        }[kind]

    def units(self, kind: str) -> list[int]:
        """The province list holding unit `kind` (POP, WOK, a troop type, MIS or SPY)."""
        return {
            "POP": self.pop,
            "WOK": self.wok,
            "ARM": self.arm,
            "PIK": self.pik,
            "ARC": self.arc,
            "KNI": self.kni,
            "CAT": self.cat,
            "MIS": self.mis,
            "SPY": self.spy,
        }[kind]

    # -- serialisation ------------------------------------------------------
    def provinces_dict(self) -> dict[str, list[Any]]:
        return {
            "owner": list(self.owner),
            "pop": list(self.pop),
            "wok": list(self.wok),
            "arm": list(self.arm),
            "pik": list(self.pik),
            "arc": list(self.arc),
            "kni": list(self.kni),
            "cat": list(self.cat),
            "lev": list(self.lev),
            "dfn": list(self.dfn),
            "mis": list(self.mis),
            "spy": list(self.spy),
            "aim": list(self.aim),
            "false_orders": list(self.false_orders),
            "terrain": list(self.terrain),
            "carry": [str(c) for c in self.carry],
            "home": list(self.home),
        }

    def load_provinces(self, d: dict[str, list[Any]]) -> None:
        for key in (*PROVINCE_FIELDS, "home"):
            values = list(d[key])
            if len(values) != self.n:
                raise ValueError(f"province field {key!r} has {len(values)} entries, not {self.n}")
            if key == "carry":
                values = [read_carry(v, p) for p, v in enumerate(values)]
            setattr(self, key, values)
