"""The Session seam: a local match with humans and bots, updates in order, refusals."""

from __future__ import annotations

from types import ModuleType

import msgspec
import pytest

from suite.core.match import IllegalAction, Replay
from suite.core.session import LocalSession, Update, is_legal


def test_humans_act_bots_are_paced_and_every_update_arrives_in_order(
    race21: ModuleType,
) -> None:
    session = LocalSession.start(
        "race21", {"players": 2, "target": 9}, 3, humans=frozenset({0}), bots={1: "first"}
    )
    heard: list[Update] = []
    session.listeners.append(heard.append)
    assert session.run_bot() is None  # seat 0, a human, is awaited
    session.act(0, race21.Step(2))
    assert session.awaiting() == {1}
    update = session.run_bot()
    assert update is not None and update.seat == 1 and update.action == race21.Step(1)
    notices = session.poll()
    assert [n.seat for n in notices] == [0, 1] and notices == heard
    assert session.poll() == []
    assert session.view(None)["total"] == 3


def test_a_refused_action_changes_nothing_and_is_not_recorded(race21: ModuleType) -> None:
    session = LocalSession.start("race21", {"players": 2}, 1, humans=frozenset({0, 1}))
    with pytest.raises(IllegalAction, match="1-3"):
        session.act(0, race21.Step(7))
    with pytest.raises(IllegalAction, match="not played on this machine"):
        LocalSession.start("race21", {"players": 2}, 1, humans=frozenset({1})).act(
            0, race21.Step(1)
        )
    assert session.poll() == [] and session.replay.actions == []
    assert not is_legal(session.legal(0), race21.Step(7))
    assert is_legal(session.legal(0), race21.Step(3))


def test_resume_replays_to_the_same_state(race21: ModuleType) -> None:
    session = LocalSession.start(
        "race21", {"players": 3}, 5, humans=frozenset(), bots={0: "first", 1: "first", 2: "random"}
    )
    while session.run_bot() is not None:
        pass
    assert session.outcome() is not None
    saved = msgspec.convert(msgspec.to_builtins(session.replay), type=Replay)
    copy = LocalSession.resume(saved, humans=frozenset())
    assert copy.state.to_dict() == session.state.to_dict()
    assert copy.replay.actions == session.replay.actions
