"""No bot cheats (issue 25 item 3): every bot of every registered game decides from its
seat's view, its legal actions and its own randomness only.

At many points of random playouts, each bot's choice for an awaited seat is computed
twice, each time by a fresh bot with an `Rng` of the same seed: once from the real
state, once from a copy in which the fixture's `perturb_hidden` changed what only another
seat may know (its cards, its fogged figures, its secret orders, its pieces' XP). The two
choices must be equal. And neither the view nor the legal actions a bot is handed may
lead (through attributes, containers, bound methods, closures or partials) to an engine
state or a random source: a bot holding one could read or predict what it may not know.

Search bots are run with a small iteration budget here (their `iterations` attribute),
so that the suite stays fast; the budget does not change what they may read.
"""

from __future__ import annotations

import functools
import types
from typing import Any

import pytest

from suite.core.bots import make_bot
from suite.core.match import Action, Legal, Seat, State, View, registered_games
from suite.core.rng import Rng
from tests.contract.fixtures import FIXTURES
from tests.contract.test_contract import GAMES, fixture_of, playout

SEARCH_ITERATIONS = 6
"""The budget search bots get here (a real game gives them hundreds)."""
POINTS = 10
"""Playout points checked per game, player count and bot."""


def bot_cases() -> list[Any]:
    """(game, players, bot name) for every registered game, its fixture's first two
    player counts and every bot the game offers (the core random bot included)."""
    out = []
    for game in GAMES:
        fixture = FIXTURES.get(game)
        counts = fixture.player_counts[:2] if fixture else (registered_games()[game].players[0],)
        for bot in dict.fromkeys(("random", *registered_games()[game].bots)):
            out.extend(pytest.param(game, n, bot, id=f"{game}-{n}p-{bot}") for n in counts)
    return out


def choice(game: str, bot: str, view: View, legal: Legal, seed: int) -> Action:
    """What a fresh `bot` chooses from `view` and `legal` with `Rng(seed)`."""
    player = make_bot(registered_games()[game], bot)
    if hasattr(player, "iterations"):
        player.iterations = min(int(player.iterations), SEARCH_ITERATIONS)
    return player.choose(view, legal, Rng(seed))


def leak(obj: Any, depth: int = 0, seen: set[int] | None = None) -> str | None:
    """What engine state or random source `obj` leads to, or None.

    Follows instance attributes (dict and slots), containers, bound methods, function
    closures and partials; not modules, classes or a function's globals (every object
    reaches everything through those, a bot that walks them is plainly cheating)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 8 or obj is None:
        return None
    if isinstance(obj, (str, bytes, int, float, bool, type, types.ModuleType)):
        return None
    seen.add(id(obj))
    if isinstance(obj, Rng):
        return "a random source (Rng)"
    if hasattr(obj, "to_dict") and hasattr(obj, "apply") and hasattr(obj, "awaiting"):
        return f"an engine state ({type(obj).__name__})"
    children: list[Any] = []
    if isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        children = list(obj)
    elif isinstance(obj, types.MethodType):
        children = [obj.__self__, obj.__func__]
    elif isinstance(obj, types.FunctionType):
        children = [c.cell_contents for c in obj.__closure__ or () if _filled(c)]
        children += list(obj.__defaults__ or ())
    elif isinstance(obj, functools.partial):
        children = [obj.func, *obj.args, *obj.keywords.values()]
    else:
        children = list(getattr(obj, "__dict__", {}).values())
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if isinstance(name, str) and hasattr(obj, name):
                    children.append(getattr(obj, name))
        if hasattr(obj, "__struct_fields__"):
            children += [getattr(obj, f) for f in obj.__struct_fields__]
    for child in children:
        found = leak(child, depth + 1, seen)
        if found is not None:
            return f"{type(obj).__name__} -> {found}"
    return None


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def seats_to_check(state: State) -> list[Seat]:
    return sorted(state.awaiting())


@pytest.mark.parametrize(("game", "players", "bot"), bot_cases())
def test_no_bot_choice_depends_on_another_seats_secrets(game: str, players: int, bot: str) -> None:
    fixture = fixture_of(game)
    rng = Rng(11)
    checked = 0
    for n, (state, _seat, _action, _events) in enumerate(playout(game, players, 21)):
        if n % 7 or state.outcome() is not None:
            continue
        for seat in seats_to_check(state):
            owners = [s for s in range(players) if s != seat]
            owner = owners[n // 7 % len(owners)]
            other = fixture.perturb_hidden(state, owner, rng)
            if other is None:
                continue
            seed = 1000 + n
            view, legal = state.view(seat), state.legal(seat)
            for thing, what in ((view, "view"), (legal, "legal actions")):
                found = leak(thing)
                assert found is None, f"{game}: seat {seat}'s {what} lead to {found}"
            mine = choice(game, bot, view, legal, seed)
            again = choice(game, bot, state.view(seat), state.legal(seat), seed)
            assert again == mine, f"{game} {bot}: two equal decisions differ ({mine} / {again})"
            theirs = choice(game, bot, other.view(seat), other.legal(seat), seed)
            assert theirs == mine, (
                f"{game} {bot} for seat {seat} chose {mine} but {theirs} once {fixture.hidden} "
                f"of seat {owner} changed"
            )
            checked += 1
        if checked >= POINTS:
            break
    assert checked, f"{game}: the playout never had hidden information to test"


def test_the_leak_finder_finds_a_state_behind_a_bound_method_or_closure() -> None:
    """The finder itself: a list holding a state's bound method, a closure over a state,
    or a random source is caught; plain data is not."""
    game = GAMES[0]
    state = next(playout(game, fixture_of(game).player_counts[0], 1))[0]
    assert leak([state.view]) is not None
    assert leak(lambda: state) is not None
    assert leak({"x": (1, Rng(3))}) is not None
    assert leak(functools.partial(print, state)) is not None
    assert leak(state.view(None)) is None
