"""Golden playthroughs: seeded 2-, 4- and 6-player games on the classic map in every card
mode, bots choosing, their actions and whole event logs for the first turns kept in
tests/worldwar/golden/. Any rule change shows up as a diff.

Regenerate after an intended change:  python tests/worldwar/test_ww_golden.py --regen
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from suite.core.match import encode
from suite.core.rng import Rng
from suite.worldwar.rules import SPEC
from suite.worldwar.rules.engine import WorldWarState

GOLDEN = Path(__file__).resolve().parent / "golden"
MODES = ["increasing", "royalty", "poker", "none"]
PLAYERS = [2, 4, 6]
TURNS = 6  # game turns kept per file (the whole game when it ends sooner)
BOT_CYCLE = ["hard", "easy", "aggressive", "random"]


def playthrough(players: int, mode: str) -> dict[str, Any]:
    """Play the seeded game and return its record (config, actions, events, digest)."""
    seed = 100 * players + MODES.index(mode)
    config = {"players": players, "map": "classic", "cards": mode}
    state = SPEC.create(config, seed)
    assert isinstance(state, WorldWarState)
    names = [BOT_CYCLE[s % len(BOT_CYCLE)] for s in range(players)]
    bots = [SPEC.bots[n]() for n in names]
    rng = Rng(seed + 1)
    steps: list[dict[str, Any]] = [
        {"seat": None, "action": None, "events": [encode(e) for e in state.start_events]}
    ]
    while state.outcome() is None and state.turn <= TURNS:
        seat = state.actor()
        assert seat is not None
        action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
        events = state.apply(seat, action)
        steps.append(
            {"seat": seat, "action": encode(action), "events": [encode(e) for e in events]}
        )
    snapshot = json.dumps(state.to_dict(), sort_keys=True).encode()
    return {
        "config": config,
        "seed": seed,
        "bots": names,
        "steps": steps,
        "final_state_sha256": hashlib.sha256(snapshot).hexdigest(),
    }


def path_for(players: int, mode: str) -> Path:
    return GOLDEN / f"ww_{players}p_{mode}.json"


def write(players: int, mode: str) -> None:
    GOLDEN.mkdir(exist_ok=True)
    record = playthrough(players, mode)
    lines = [json.dumps({k: v for k, v in record.items() if k != "steps"}, sort_keys=True)]
    lines += [json.dumps(step, sort_keys=True, separators=(",", ":")) for step in record["steps"]]
    path_for(players, mode).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read(players: int, mode: str) -> dict[str, Any]:
    head, *steps = path_for(players, mode).read_text(encoding="utf-8").splitlines()
    record: dict[str, Any] = json.loads(head)
    record["steps"] = [json.loads(s) for s in steps]
    return record


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", MODES)
def test_golden_playthrough(players: int, mode: str) -> None:
    want = read(players, mode)
    got = msgspec.json.decode(msgspec.json.encode(playthrough(players, mode)))
    for i, (w, g) in enumerate(zip(want["steps"], got["steps"], strict=False)):
        assert g == w, f"step {i} differs"
    assert len(got["steps"]) == len(want["steps"])
    assert got == want


def test_golden_actions_replay_to_the_same_state() -> None:
    """The recorded actions alone (no bots) rebuild the same final state."""
    record = read(4, "poker")
    state = SPEC.create(record["config"], record["seed"])
    from suite.core.match import decode_action

    for step in record["steps"][1:]:
        state.apply(step["seat"], decode_action("worldwar", step["action"]))
    snapshot = json.dumps(state.to_dict(), sort_keys=True).encode()
    assert hashlib.sha256(snapshot).hexdigest() == record["final_state_sha256"]


if __name__ == "__main__":
    if "--regen" not in sys.argv:
        sys.exit("usage: python tests/worldwar/test_ww_golden.py --regen")
    for p in PLAYERS:
        for m in MODES:
            write(p, m)
            print(path_for(p, m), path_for(p, m).stat().st_size, "bytes")
