"""Invariants under random play (hypothesis): illegal actions change nothing, the engine's
`check()` holds after every action (HP, rest, occupancy, the current seat), dead pieces
never act."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.match import Action, IllegalAction
from suite.core.rng import Rng
from suite.tactics.rules import actions as A
from suite.tactics.rules.state import TacticsState

ANY_ACTION = st.one_of(
    st.builds(A.Select, st.integers(-2, 40)),
    st.builds(A.Move, st.integers(-2, 18), st.integers(-2, 18)),
    st.builds(A.Attack, st.integers(-2, 40)),
    st.just(A.SkipMove()),
    st.just(A.SkipAttack()),
    st.just(A.EndTurn()),
)


def check(state: TacticsState) -> None:
    state.check()
    for action in state.legal(state.current) if state.outcome() is None else []:
        if isinstance(action, A.Select):
            assert state.units[action.piece].hp > 0
    if state.active >= 0:
        assert state.units[state.active].hp > 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    mode=st.sampled_from([0, 1, 2, 3, 4]),
    warmup=st.integers(0, 150),
    tries=st.lists(ANY_ACTION, min_size=1, max_size=25),
)
def test_random_play_keeps_invariants_and_illegal_actions_change_nothing(
    seed: int, players: int, mode: int, warmup: int, tries: list[Action]
) -> None:
    state = TacticsState.create({"players": players, "map": 1, "pieces_per_turn": mode}, seed)
    rng = Rng(seed)
    for _ in range(warmup):
        if state.outcome() is not None:
            break
        state.apply(state.current, rng.choice(state.legal(state.current)))
        check(state)
    for action in tries:
        if state.outcome() is not None:
            break
        before = state.to_dict()
        legal = action in state.legal(state.current)
        try:
            state.apply(state.current, action)
        except IllegalAction:
            assert not legal, action
            assert state.to_dict() == before
        else:
            assert legal, action
        check(state)
