"""Snapshots of a World War state: `to_dict` output and filling a fresh state from it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from suite.core.match import Outcome
from suite.worldwar.rules import modes
from suite.worldwar.rules.config import config_dict
from suite.worldwar.rules.data import rules_dict

if TYPE_CHECKING:
    from suite.worldwar.rules.engine import WorldWarState

GAME = "worldwar"


def snapshot(st: WorldWarState) -> dict[str, Any]:
    """A JSON-safe snapshot of `st`: the rules are all given, the board when the config's
    map did not make it."""
    d: dict[str, Any] = {
        "game": GAME,
        "config": config_dict(st.config),
        "rules": rules_dict(st.rules),
        "rng": st.rng.to_dict(),
        "owner": list(st.owner),
        "armies": list(st.armies),
        "alive": list(st.alive),
        "out_order": list(st.out_order),
        "hands": [list(h) for h in st.hands],
        "deck": list(st.deck),
        "sets_done": st.sets_done,
        "first": st.first,
        "current": st.current,
        "turn": st.turn,
        "phase": st.phase,
        "setup_left": list(st.setup_left),
        "step_left": st.step_left,
        "pool": st.pool,
        "mid_turn": st.mid_turn,
        "conquered": st.conquered,
        "pending": None if st.pending is None else dict(st.pending),
        "cards_after_occupy": st.cards_after_occupy,
        "placed_total": st.placed_total,
        "lost_total": st.lost_total,
        "result": None if st.result is None else outcome_dict(st.result),
    }
    if st.mode == "domination":
        d["rules"].pop("modes", None)  # unused: Domination snapshots stay as they were
    d.update(modes.snapshot_part(st))
    if st.embed_board:
        d["board"] = st.board.to_json()
    return d


def fill(st: WorldWarState, d: Mapping[str, Any], phases: tuple[str, ...]) -> None:
    """Copy a snapshot's values into the fresh state `st` (ValueError/KeyError if broken)."""
    st.board_view = None  # the views' cached board tuples describe the old lists
    st.owner = [int(x) for x in d["owner"]]
    st.armies = [int(x) for x in d["armies"]]
    if len(st.owner) != len(st.topo) or len(st.armies) != len(st.topo):
        raise ValueError("snapshot does not match the board's territories")
    st.counts = [0] * st.players
    for o in st.owner:
        st.counts[o] += 1
    st.alive = [bool(x) for x in d["alive"]]
    st.out_order = [int(x) for x in d["out_order"]]
    st.hands = [[int(c) for c in h] for h in d["hands"]]
    st.deck = [int(c) for c in d["deck"]]
    st.sets_done = int(d["sets_done"])
    st.first = int(d["first"])
    st.current = int(d["current"])
    st.turn = int(d["turn"])
    st.phase = str(d["phase"])
    if st.phase not in phases:
        raise ValueError(f"unknown phase {st.phase!r}")
    st.setup_left = [int(x) for x in d["setup_left"]]
    st.step_left = int(d["step_left"])
    st.pool = int(d["pool"])
    st.mid_turn = bool(d["mid_turn"])
    st.conquered = bool(d["conquered"])
    st.pending = None if d["pending"] is None else dict(d["pending"])
    st.cards_after_occupy = bool(d["cards_after_occupy"])
    st.placed_total = int(d["placed_total"])
    st.lost_total = int(d["lost_total"])
    r = d["result"]
    st.result = None if r is None else msgspec.convert(r, Outcome)
    modes.fill_part(st, d)


def outcome_dict(o: Outcome) -> dict[str, Any]:
    out = msgspec.to_builtins(o)
    assert isinstance(out, dict)
    return out
