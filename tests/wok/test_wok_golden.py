"""Golden playthroughs: seeded bot games whose whole history is pinned in tests/wok/golden/.

Any rule change shows up as a diff. After an intended change, regenerate with
`WOK_REGEN_GOLDEN=1 .venv/bin/pytest tests/wok/test_wok_golden.py` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from suite.core.bots import RandomBot
from suite.core.rng import Rng
from suite.wok.rules import create
from suite.wok.rules.bots import GeneralBot, RobotBot

GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("WOK_REGEN_GOLDEN") == "1"

CASES: dict[str, tuple[dict[str, Any], int, tuple[str, ...]]] = {
    "skirmish2": ({"players": 2, "map": "trial"}, 101, ("general", "robot")),
    "skirmish10": (
        {"players": 10, "map": "kaomaris", "max_turns": 25},
        102,
        ("general", "robot", "random", "general", "robot") * 2,
    ),
    "duel": ({"players": 2, "variant": "duel"}, 103, ("general", "general")),
    "trinity": ({"players": 3, "variant": "trinity"}, 104, ("general", "robot", "general")),
    "intermediate3": (
        {"players": 3, "ruleset": "intermediate", "map": "star-islands"},
        105,
        ("general", "robot", "random"),
    ),
    "intermediate2": (
        {"players": 2, "ruleset": "intermediate", "map": "trial"},
        106,
        ("general", "general"),
    ),
    "wok4_2": ({"players": 2, "ruleset": "wok4", "map": "trial"}, 107, ("general", "robot")),
    "wok4_4": (
        {"players": 4, "ruleset": "wok4", "map": "star-islands"},
        108,
        ("general", "robot", "random", "general"),
    ),
    "wok4_10": (
        {
            "players": 10,
            "ruleset": "wok4",
            "variant": "standard",
            "map": "kaomaris",
            "max_turns": 25,
        },
        109,
        ("general", "robot", "random", "general", "robot") * 2,
    ),
}
_BOTS = {"general": GeneralBot, "robot": RobotBot, "random": RandomBot}


def playthrough(config: dict[str, Any], seed: int, bots: tuple[str, ...]) -> dict[str, Any]:
    state = create(config, seed)
    players = [_BOTS[name]() for name in bots]
    rng = Rng(seed * 7 + 1)
    turns: list[dict[str, Any]] = []
    while state.outcome() is None:
        for seat in sorted(state.awaiting()):
            state.apply(seat, players[seat].choose(state.view(seat), state.legal(seat), rng))
        w = state.world
        turns.append(
            {
                "turn": state.turn - 1,
                "owners": " ".join(str(o) for o in w.owner),
                "armies": sum(w.arm),
                "eff": [c.eff for c in w.colours],
                "gold": [c.gold for c in w.colours],
                **({"wood": [c.wood for c in w.colours]} if state.rules.troops else {}),
                **(
                    {"troops": [sum(w.units(k)) for k in ("PIK", "ARC", "KNI", "CAT")]}
                    if state.rules.troops
                    else {}
                ),
                **({"tech": [c.tech for c in w.colours]} if state.rules.trades else {}),
                **(
                    {"trades": sum(len(r["trades"]) for r in state.reports.values())}
                    if state.rules.trades
                    else {}
                ),
                "rips": [r["colour"] for r in state.reports[0]["rips"]],
                "next_oop": state.oop,
            }
        )
    out = state.outcome()
    assert out is not None
    return {
        "config": config,
        "seed": seed,
        "bots": list(bots),
        "turns": turns,
        "outcome": {"winners": list(out.winners), "reason": out.reason},
        "final_score_top": state.reports[0]["top_ten"][:3],
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    config, seed, bots = CASES[name]
    got = json.loads(json.dumps(playthrough(config, seed, bots)))
    path = GOLDEN / f"{name}.json"
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"missing golden file {path}; run with WOK_REGEN_GOLDEN=1")
        GOLDEN.mkdir(exist_ok=True)
        text = json.dumps(got, separators=(",", ":")).replace('},{"turn"', '},\n{"turn"')
        path.write_text(text + "\n")
    want = json.loads(path.read_text())
    assert got["outcome"] == want["outcome"]
    for mine, theirs in zip(got["turns"], want["turns"], strict=True):
        assert mine == theirs, f"turn {theirs['turn']} differs"
    assert got == want
