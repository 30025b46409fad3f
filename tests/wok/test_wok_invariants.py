"""Hypothesis invariants: caps hold, nothing negative, ownership consistent, illegal orders
leave the state unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from suite.core.match import IllegalAction
from suite.core.rng import Rng
from suite.wok.rules import WokState, create
from suite.wok.rules.bots import GeneralBot
from suite.wok.rules.orders import Attack, Bomb, Move, OrderSet, Spy, SubmitOrders, Transform
from suite.wok.rules.world import NEUTRAL

_SETTINGS = settings(max_examples=30, deadline=None)


def _check_invariants(state: WokState) -> None:
    w, r = state.world, state.rules
    for p in range(w.n):
        assert 0 <= w.pop[p] <= r.caps.pop
        assert 0 <= w.wok[p] <= r.caps.wok
        assert 0 <= w.arm[p] <= r.caps.arm
        assert r.caps.lev_min <= w.lev[p] <= r.caps.lev_max
        assert 0 <= w.dfn[p] <= r.caps.def_tenths
        assert 0 <= w.mis[p] <= r.caps.mis
        assert 0 <= w.spy[p] <= r.caps.spy
        assert w.owner[p] == NEUTRAL or 0 <= w.owner[p] < len(w.colours)
    for i, c in enumerate(w.colours):
        assert r.caps.eff_min <= c.eff <= r.caps.eff_max and c.gold >= 0 and c.tech >= 0
        assert not r.caps.tech or c.tech <= r.caps.tech
        assert c.alive == (i in w.owner)
        assert c.alive or c.rip_turn is not None


@_SETTINGS
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    turns=st.integers(1, 12),
    ruleset=st.sampled_from(["standard", "intermediate", "wok4"]),
)
def test_random_order_sets_keep_the_invariants(seed, players, turns, ruleset):
    state = create({"players": players, "map": "star-islands", "ruleset": ruleset}, seed)
    rng = Rng(seed + 1)
    general = GeneralBot()
    for _ in range(turns):
        if state.outcome() is not None:
            break
        for seat in sorted(state.awaiting()):
            legal = state.legal(seat)
            if seat == 0:
                action = general.choose(state.view(seat), legal, rng)
            else:
                assert not isinstance(legal, list)
                action = legal.sample(rng)
                assert legal.contains(action)
            state.apply(seat, action)
        _check_invariants(state)
        state.check()


_province = st.integers(-5, 40)
_transform_kind = st.sampled_from(["POP_WOK", "POP_ARM", "WOK_POP"])
_spy_op = st.sampled_from(["SPY_PLAYER", "STEAL_GOLD"])
_amount = st.integers(-3, 1200)
_order_sets = st.builds(
    OrderSet,
    colour=st.integers(-1, 3),
    bombs=st.lists(st.builds(Bomb, _province, _province, _amount), max_size=7).map(tuple),
    attacks=st.lists(st.builds(Attack, _province, _province, _amount), max_size=9).map(tuple),
    transforms=st.lists(
        st.builds(
            Transform, _province, st.sampled_from(["POP_WOK", "POP_ARM", "WOK_POP"]), _amount
        ),
        max_size=9,
    ).map(tuple),
    moves=st.lists(
        st.builds(Move, _province, _province, st.sampled_from(["POP", "ARM", "SPY"]), _amount),
        max_size=9,
    ).map(tuple),
    spies=st.lists(
        st.builds(
            Spy, _province, _province, st.sampled_from(["SPY_PLAYER", "STEAL_GOLD"]), _amount
        ),
        max_size=7,
    ).map(tuple),
)


@_SETTINGS
@given(orders=_order_sets, seat=st.integers(-1, 2))
def test_an_illegal_order_leaves_the_state_unchanged(orders, seat):
    state = create({"players": 2}, 3)
    before = state.to_dict()
    action = SubmitOrders((orders,), ready=True)
    legal_now = state.refusal(seat, action) is None
    try:
        state.apply(seat, action)
    except IllegalAction:
        assert not legal_now
        assert state.to_dict() == before
    else:
        assert legal_now
        _check_invariants(state)
