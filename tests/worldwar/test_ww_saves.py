"""Saves through core.store and replays through core.match.Replay rebuild the same state."""

from __future__ import annotations

from pathlib import Path

import pytest

from suite.core.board import Board
from suite.core.match import Recorder, Replay, decode_action, load_state
from suite.core.rng import Rng
from suite.core.store import SaveError, load_document, save_document
from suite.worldwar.rules import SPEC
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.engine import WorldWarState


def drive(state: WorldWarState, steps: int, rng: Rng, recorder: Recorder | None = None) -> None:
    bots = [SPEC.bots["random"]() for _ in range(state.players)]
    for _ in range(steps):
        if state.outcome() is not None:
            return
        seat = state.actor()
        assert seat is not None
        action = bots[seat].choose(state.view(seat), state.legal(seat), rng)
        if recorder is not None:
            recorder.apply(seat, action)
        else:
            state.apply(seat, action)


@pytest.mark.parametrize("mode", ["increasing", "poker"])
def test_save_load_continue_identically(tmp_path: Path, mode: str) -> None:
    st = SPEC.create({"players": 3, "map": "classic", "cards": mode}, 11)
    assert isinstance(st, WorldWarState)
    drive(st, 80, Rng(1))
    path = tmp_path / "ww.save"
    save_document(path, "worldwar-save", st.to_dict())
    back = load_state(load_document(path, "worldwar-save"))
    assert isinstance(back, WorldWarState)
    assert back.to_dict() == st.to_dict()
    assert "board" not in st.to_dict()  # the classic map is named, not embedded
    drive(st, 60, Rng(2))
    drive(back, 60, Rng(2))
    assert back.to_dict() == st.to_dict()


def test_board_built_states_embed_their_board(small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2}, 4)
    d = st.to_dict()
    assert d["board"]["name"] == "small"
    assert SPEC.load(d).to_dict() == d


def test_broken_snapshots_are_refused(tmp_path: Path, small_board: Board) -> None:
    st = WorldWarState.new(small_board, {"players": 2}, 4)
    d = st.to_dict()
    d["phase"] = "dancing"
    with pytest.raises(ValueError, match="unknown phase"):
        WorldWarState.from_dict(d, board=small_board)
    d = st.to_dict()
    d["owner"] = [0, 1]
    with pytest.raises(ValueError, match="territories"):
        WorldWarState.from_dict(d, board=small_board)
    bad = tmp_path / "bad.save"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveError):
        load_document(bad, "worldwar-save")


def test_replay_rebuilds_the_game(tmp_path: Path) -> None:
    config = {"players": 4, "map": "classic", "cards": "royalty"}
    rec = Recorder("worldwar", config, 21)
    state = rec.state
    assert isinstance(state, WorldWarState)
    drive(state, 150, Rng(3), rec)
    path = tmp_path / "game.replay"
    rec.replay.save(path)
    again = Replay.load(path).play()
    assert again.to_dict() == state.to_dict()
    half = Replay.load(path).play(upto=40)
    assert half.to_dict() != state.to_dict()


def test_actions_cross_json_unchanged() -> None:
    for action in [
        A.Place("alaska", 3),
        A.PlaceMany((("alaska", 1), ("peru", 2))),
        A.TurnIn((1, 2, 3)),
        A.Attack("a", "b", 3),
        A.Blitz("a", "b", True),
        A.Defend(2),
        A.Occupy(4),
        A.EndAttack(),
        A.Fortify("a", "b", 2),
        A.EndTurn(),
        A.SkipTurnIn(),
        A.TimeUp(),
    ]:
        from suite.core.match import encode

        assert decode_action("worldwar", encode(action)) == action
    with pytest.raises(ValueError):
        decode_action("worldwar", {"kind": "attack", "source": "a"})
