"""Per-colour turn reports built from a `TurnLog`.

Layout of a report (all JSON-safe, province and colour keys as strings):
``turn``, ``colour``, ``provinces_before`` / ``provinces_after`` (own provinces at the start
and the end of the turn, full contents), ``battles`` (every battle the colour fought in
either side, with rounds and losses), ``bombings`` (fired by it in full; at it with the
source only as far as the rules' `bombing.target_sees` reveals it), ``spying`` (its own
operations in full with the intel gained; operations against it without their source),
``intel`` (what its spies saw this turn), ``upgrades``, ``cancelled`` (every cancelled
order with its phase, number and reason), ``rips`` (everyone's, public), ``next_oop``
(next turn's Order of Play), ``top_ten`` (colour, name, score) and ``trades`` (WoK IV's
tech trades with what each gave). Under WoK IV a bombing or spy operation against the
colour names its source only when the target province detected it (``detected``).
`views.Report` is the typed form screens get.
"""

from __future__ import annotations

from typing import Any

from suite.wok.rules.phases import TurnLog
from suite.wok.rules.world import World

_HIDDEN_FROM_TARGET = ("by", "source", "sent", "range", "returned", "result", "lost_on_way")
_BOMB_HIDDEN = {
    "player": (),
    "province": ("by",),
    "none": ("by", "source", "range"),
    "detected": ("by", "source", "range"),
}
_DETECTED_SHOWS = ("by", "source", "range")


def _provinces(contents: dict[int, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(p): dict(c) for p, c in sorted(contents.items())}


def top_ten(w: World, scores: dict[int, int]) -> list[dict[str, Any]]:
    """The best colours by score (W11), highest first, ties by colour index."""
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        {"colour": c, "name": w.colours[c].name, "score": s} for c, s in ranked[: w.rules.score.top]
    ]


def _bombings(w: World, log: TurnLog, colour: int) -> list[dict[str, Any]]:
    """Bombings fired by `colour` in full; bombings of it show the source only as far as
    the rule set's `bombing.target_sees` says (issue 13 item 9)."""
    hidden = _BOMB_HIDDEN[w.rules.bombing.target_sees]
    out: list[dict[str, Any]] = []
    for b in log.bombings:
        if b["by"] == colour:
            out.append(dict(b))
        elif b["owner"] == colour:
            shown = _DETECTED_SHOWS if b.get("detected") else ()
            out.append({k: v for k, v in b.items() if k not in hidden or k in shown})
    return out


def build_report(
    w: World,
    log: TurnLog,
    colour: int,
    turn: int,
    before: dict[int, dict[str, Any]],
    next_oop: list[int],
    scores: dict[int, int],
) -> dict[str, Any]:
    """The report `colour` receives after `turn` (see the module docstring)."""
    spying: list[dict[str, Any]] = []
    intel: list[dict[str, Any]] = []
    for s in log.spying:
        if s["by"] == colour:
            spying.append(dict(s))
            if s["success"] and s["op"] in ("SPY_PROVINCE", "SPY_PLAYER"):
                intel.append({"op": s["op"], "target": s["target"], "seen": s["result"]})
        elif s["owner"] == colour:
            shown = _DETECTED_SHOWS if s.get("detected") else ()
            spying.append(
                {k: v for k, v in s.items() if k not in _HIDDEN_FROM_TARGET or k in shown}
            )
    return {
        "turn": turn,
        "colour": colour,
        "provinces_before": _provinces(before),
        "provinces_after": _provinces({p: w.contents(p) for p in w.owned(colour)}),
        "battles": [b for b in log.battles if colour in (b["attacker"], b["defender"])],
        "bombings": _bombings(w, log, colour),
        "spying": spying,
        "intel": intel,
        "upgrades": list(log.upgrades.get(colour, [])),
        "cancelled": list(log.cancelled.get(colour, [])),
        "rips": list(log.rips),
        "next_oop": list(next_oop),
        "top_ten": top_ten(w, scores),
        "trades": list(log.trades.get(colour, [])),
    }
