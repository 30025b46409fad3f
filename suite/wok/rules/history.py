"""A WoK match turn by turn, as a replay viewer shows it (no pygame).

`turn_views(replay)` sends the replay's actions again, in order, to a fresh engine and
keeps, after turn 0 and after every turn that ran (and when the game ended without a
turn, e.g. by a vote), the public view (key None) and every seat's view. The seat views
are exactly what each seat saw. The public views follow the spectator's rule: while the
game runs they hold ownership only, and once it is over nothing is secret; so when the
replay's game finished, every turn's public view shows every province's figures (a
replay of a finished game shows the armies), and when it did not, none does.
"""

from __future__ import annotations

from typing import cast

import msgspec

from suite.core.match import Replay, decode_action
from suite.wok.rules.state import WokState, create
from suite.wok.rules.viewing import spectator_view
from suite.wok.rules.views import WokSpectatorView, WokView

Frame = dict[int | None, WokView | WokSpectatorView]


def _frame(state: WokState) -> Frame:
    out: Frame = {None: spectator_view(state, reveal=True)}
    for seat in range(len(state.seat_colours)):
        out[seat] = cast(WokView, state.view(seat))
    return out


def _hidden(view: WokView | WokSpectatorView) -> WokView | WokSpectatorView:
    """A revealed public view as the running game showed it (ownership only)."""
    provinces = tuple(msgspec.structs.replace(p, figures=None, seen=None) for p in view.provinces)
    return msgspec.structs.replace(view, provinces=provinces)


def turn_views(replay: Replay) -> list[Frame]:
    """The frames of `replay` (see the module docstring). ValueError (IllegalAction,
    ConfigError) when the replay is not a WoK game that replays."""
    if replay.game != "wok":
        raise ValueError(f"a replay of {replay.game!r}, not WoK")
    state = create(replay.config, replay.seed)
    frames = [_frame(state)]
    for step in replay.actions:
        turn, over = state.turn, state.outcome_ is not None
        state.apply(step.seat, decode_action(replay.game, step.action))
        if state.turn != turn or (state.outcome_ is not None) != over:
            frames.append(_frame(state))
    if state.outcome_ is None:
        for frame in frames:
            frame[None] = _hidden(frame[None])
    return frames
