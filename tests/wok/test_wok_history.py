"""Nothing is secret once a WoK game is over: the public view of a finished game shows every
province's figures, and a finished game's replay shows them at every turn (an unfinished
one shows ownership only)."""

from __future__ import annotations

import pytest

from suite.core.match import Replay, ReplayStep, encode
from suite.core.rng import Rng
from suite.wok.rules import WokSpectatorView, WokView, create
from suite.wok.rules.history import turn_views
from suite.wok.rules.orders import SetReady, Vote
from suite.wok.rules.viewing import figures

CONFIG = {"players": 2, "map": "trial"}


def test_a_finished_games_public_view_shows_every_province() -> None:
    state = create(CONFIG, 3)
    state.apply(0, Vote(True))
    public = state.view(None)
    assert isinstance(public, WokSpectatorView)
    assert all(p.figures is None and p.seen is None for p in public.provinces)  # still running
    state.apply(1, Vote(True))
    assert state.outcome() is not None
    public = state.view(None)
    assert isinstance(public, WokSpectatorView)
    for p in public.provinces:
        assert p.figures == figures(state.world.contents(p.id)) and p.seen == state.turn


def _played(turns: int, *, end: bool) -> Replay:
    """A replay of `turns` turns of random orders, ended by a vote when `end`."""
    state = create(CONFIG, 5)
    rng = Rng(11)
    steps: list[ReplayStep] = []
    for _ in range(turns):
        for seat in sorted(state.awaiting()):
            space = state.legal(seat)
            assert not isinstance(space, list)
            action = space.sample(rng)
            state.apply(seat, action)
            steps.append(ReplayStep(seat, encode(action)))
            if seat not in state.ready and state.outcome() is None:
                state.apply(seat, SetReady(True))
                steps.append(ReplayStep(seat, encode(SetReady(True))))
    if end:
        for seat in (0, 1):
            state.apply(seat, Vote(True))
            steps.append(ReplayStep(seat, encode(Vote(True))))
    return Replay("wok", dict(CONFIG), 5, steps)


def test_a_finished_replay_shows_the_figures_of_every_turn() -> None:
    frames = turn_views(_played(3, end=True))
    assert len(frames) == 5  # turn 0, three turns, the vote that ended it
    for frame in frames:
        public = frame[None]
        assert all(p.figures is not None for p in public.provinces)
        for seat in (0, 1):
            mine = frame[seat]
            assert isinstance(mine, WokView)
            for p in mine.provinces:
                if p.owner == seat:  # the public figures are the ones the owner saw
                    assert public.provinces[p.id].figures == p.figures
    assert frames[-1][None].outcome is not None


def test_an_unfinished_replay_keeps_the_figures_secret() -> None:
    frames = turn_views(_played(2, end=False))
    assert len(frames) == 3
    for frame in frames:
        assert all(p.figures is None and p.seen is None for p in frame[None].provinces)
        mine = frame[0]
        assert isinstance(mine, WokView) and any(p.figures for p in mine.provinces)


def test_a_replay_of_another_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not WoK"):
        turn_views(Replay("worldwar", {}, 1, []))
