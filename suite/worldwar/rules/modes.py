"""Domination's other ways to win (issue 15.12): Capital and Secret Mission.

The match config's `mode` picks one: "domination" (R8: the last player left wins; the
engine never calls this module then, so such matches play, save and replay exactly as
before), "capital" or "mission". Their numbers are the ``[modes.*]`` tables of
``rules.toml``, whose comments give the rulings where Domination leaves the choice open:

- Capital: after the deal every player's capital is drawn at random among its own
  territories (Domination lets players pick; the draw keeps the set-up one step). The
  capitals are public and stay capitals whoever holds them. A player wins by holding
  `capitals_to_win` of them (0: every one, its own included) once an action of its own
  turn is done (an occupation included); losing one's capital costs nothing else.
- Secret Mission: one mission per player, dealt from a deck made for the map and the
  player count, seen only by its holder: two (or more) continents, a share of the map's
  territories, a share held with at least `held_min_armies` armies each, or (with 3 or
  more players) destroying a colour. A destroy mission whose colour is its holder's own
  is never dealt; if another player destroys that colour first, the mission becomes the
  territories one. A player wins when its mission is complete once an action of its own
  turn is done.

In both modes the last player left still wins (R8). `start` deals, `after` is the engine's
hook after each action, `check`, `snapshot_part` and `fill_part` extend the engine's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from suite.core.match import Event, GameOver, Outcome, Seat
from suite.worldwar.rules import actions as A

if TYPE_CHECKING:
    from suite.worldwar.rules.engine import WorldWarState

MODES = ("domination", "capital", "mission")
Mode = Literal["domination", "capital", "mission"]


class _Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table of the rules file (an unknown key is refused)."""


class CapitalRules(_Table, frozen=True):
    """Capital mode: how many capitals win (0: all of them)."""

    capitals_to_win: int = 0

    def __post_init__(self) -> None:
        if self.capitals_to_win < 0:
            raise ValueError("capitals_to_win must not be negative")


class MissionRules(_Table, frozen=True):
    """Secret Mission: the deck's missions, as shares of the map's territories."""

    territories_share: float = 0.57
    held_share: float = 0.43
    held_min_armies: int = 2
    pair_share_min: float = 0.25
    pair_share_max: float = 0.45
    continent_pairs: int = 6
    destroy_min_players: int = 3

    def __post_init__(self) -> None:
        for name in ("territories_share", "held_share", "pair_share_min", "pair_share_max"):
            if not 0 < getattr(self, name) <= 1:
                raise ValueError(f"{name} must be above 0 and at most 1")
        if self.held_min_armies < 1 or self.continent_pairs < 0:
            raise ValueError("held_min_armies must be at least 1, continent_pairs at least 0")


class Modes(_Table, frozen=True):
    """The ``[modes]`` tables."""

    capital: CapitalRules = CapitalRules()
    mission: MissionRules = MissionRules()


class Mission(msgspec.Struct, frozen=True):
    """One mission card: `kind` "continents" (own every territory of `continents`),
    "territories" (own `territories` territories with at least `min_armies` each) or
    "destroy" (be the one who takes the last territory of seat `target`)."""

    kind: Literal["continents", "territories", "destroy"]
    continents: tuple[int, ...] = ()
    territories: int = 0
    min_armies: int = 1
    target: int = -1


def mission_deck(st: WorldWarState) -> list[Mission]:
    """The missions of this map and player count (in a fixed order, before shuffling)."""
    rules = st.rules.modes.mission
    topo = st.topo
    n = len(topo)
    sizes = [len(members) for members in topo.members]
    deck: list[Mission] = []
    pairs = [
        (sizes[a] + sizes[b], a, b)
        for a in range(len(sizes))
        for b in range(a + 1, len(sizes))
        if rules.pair_share_min * n <= sizes[a] + sizes[b] <= rules.pair_share_max * n
    ]
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    deck.extend(
        Mission("continents", continents=(a, b)) for _, a, b in pairs[: rules.continent_pairs]
    )
    deck.append(Mission("territories", territories=math.ceil(rules.territories_share * n)))
    held = math.ceil(rules.held_share * n)
    deck.append(Mission("territories", territories=held, min_armies=rules.held_min_armies))
    if st.players >= rules.destroy_min_players:
        deck.extend(Mission("destroy", target=s) for s in range(st.players))
    return deck


def fallback(st: WorldWarState) -> Mission:
    """The mission that replaces a destroy mission whose colour another player destroyed."""
    share = st.rules.modes.mission.territories_share
    return Mission("territories", territories=math.ceil(share * len(st.topo)))


def start(st: WorldWarState) -> None:
    """Right after the deal: draw the capitals, or deal the missions (from the state's
    Rng, so a seed gives the same ones)."""
    st.eliminator = [-1] * st.players
    if st.mode == "capital":
        st.capitals = []
        for seat in range(st.players):
            own = [t for t in range(len(st.topo)) if st.owner[t] == seat]
            st.capitals.append(own[st.rng.randbelow(len(own))] if own else -1)
    elif st.mode == "mission":
        deck = mission_deck(st)
        st.rng.shuffle(deck)
        st.missions = []
        for seat in range(st.players):
            pick = next(
                (i for i, m in enumerate(deck) if not (m.kind == "destroy" and m.target == seat)),
                None,
            )
            st.missions.append(deck.pop(pick) if pick is not None else fallback(st))


def done(st: WorldWarState, seat: Seat) -> bool:
    """Has `seat` met its mode's goal?"""
    if st.mode == "capital":
        held = sum(1 for t in st.capitals if t >= 0 and st.owner[t] == seat)
        need = st.rules.modes.capital.capitals_to_win or len(st.capitals)
        return held >= min(need, len(st.capitals))
    if st.mode != "mission":
        return False
    m = current_mission(st, seat)
    if m.kind == "continents":
        return all(all(st.owner[t] == seat for t in st.topo.members[c]) for c in m.continents)
    if m.kind == "territories":
        owned = sum(
            1 for t in range(len(st.topo)) if st.owner[t] == seat and st.armies[t] >= m.min_armies
        )
        return owned >= m.territories
    return st.eliminator[m.target] == seat


def current_mission(st: WorldWarState, seat: Seat) -> Mission:
    """`seat`'s mission now (a destroy mission another player fulfilled has become the
    territories one)."""
    m = st.missions[seat]
    if m.kind == "destroy" and st.eliminator[m.target] not in (-1, seat):
        return fallback(st)
    return m


def describe(st: WorldWarState, m: Mission, names: Sequence[str] = ()) -> str:
    """A mission in words (`names`: the seats' names; "player N" without them)."""
    if m.kind == "continents":
        parts = [st.topo.continent_names[c] for c in m.continents]
        return "Conquer " + " and ".join(parts)
    if m.kind == "territories":
        if m.min_armies > 1:
            return f"Hold {m.territories} territories with at least {m.min_armies} armies each"
        return f"Hold {m.territories} territories"
    who = names[m.target] if m.target < len(names) else f"player {m.target + 1}"
    return f"Destroy {who}"


def after(st: WorldWarState, events: list[Event]) -> list[Event]:
    """The engine's hook after each action of a capital or mission match: note who
    eliminated whom, then end the match when the player whose turn it is has met its
    goal (never in the middle of a battle or an occupation)."""
    for e in events:
        if isinstance(e, A.Eliminated):
            st.eliminator[e.seat] = e.by
    if st.result is not None or st.phase in ("defend", "occupy", "over"):
        return []
    seat = st.current
    if not st.alive[seat] or not done(st, seat):
        return []
    armies = [0] * st.players
    for t, o in enumerate(st.owner):
        armies[o] += st.armies[t]
    others = [s for s in range(st.players) if st.alive[s] and s != seat]
    others.sort(key=lambda s: (-st.counts[s], -armies[s], s))
    places = [(seat,), *((s,) for s in others), *((s,) for s in reversed(st.out_order))]
    if st.mode == "capital":
        reason = "held every capital"
    else:
        reason = "completed the secret mission: " + describe(st, current_mission(st, seat))
    st.result = Outcome((seat,), tuple(places), reason)
    st.phase = "over"
    st.pending = None
    st.board_view = None
    return [GameOver(st.result)]


def check(st: WorldWarState) -> None:
    """The modes' invariants (AssertionError naming the broken one)."""
    n = len(st.topo)
    assert len(st.eliminator) == st.players, "one eliminator per seat"
    if st.mode == "capital":
        assert len(st.capitals) == st.players, "one capital per seat"
        assert all(-1 <= t < n for t in st.capitals), "a capital is no territory"
    if st.mode == "mission":
        assert len(st.missions) == st.players, "one mission per seat"
        for seat, m in enumerate(st.missions):
            assert not (m.kind == "destroy" and m.target == seat), "a seat must destroy itself"
            assert all(0 <= c < len(st.topo.continents) for c in m.continents), "no continent"


def snapshot_part(st: WorldWarState) -> dict[str, Any]:
    """The modes' part of `to_dict` (empty for Domination, whose snapshot is unchanged)."""
    if st.mode == "domination":
        return {}
    return {
        "capitals": list(st.capitals),
        "missions": [msgspec.to_builtins(m) for m in st.missions],
        "eliminator": list(st.eliminator),
    }


def fill_part(st: WorldWarState, d: Mapping[str, Any]) -> None:
    """Read the modes' part of a snapshot into `st` (ValueError when it is broken)."""
    if st.mode == "domination":
        return
    try:
        st.capitals = [int(t) for t in d.get("capitals", [])]
        st.missions = [msgspec.convert(m, Mission) for m in d.get("missions", [])]
        st.eliminator = [int(s) for s in d["eliminator"]]
    except (KeyError, TypeError, msgspec.ValidationError) as exc:
        raise ValueError(f"broken {st.mode} mode part: {exc}") from exc
