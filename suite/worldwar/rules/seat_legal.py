"""A seat's legal actions worked out from its view alone (`ViewActions`).

What a seat may do depends only on what it may know: the board, the phase, its own hand
and the match's rules. So `WorldWarState.legal` hands out a list built from the seat's
`WorldWarView` (and the card mode's `Deck`, which holds no match data): a bot given its
legal actions can reach no engine state, no other seat's cards and no random source
(issue 25: no bot cheats; the contract suite walks the list to check it).

The list is lazy (most bots never read it; placing offers one action per territory and
count) and describes the moment its view shows, forever: reading it after the state has
moved on lists that old moment. `contains` answers as the engine's `allows` would for
that moment, for the actions `legal` does not list too (`PlaceMany`, `TimeUp`).
"""

from __future__ import annotations

from suite.core.match import Action, IllegalAction, validate_action
from suite.worldwar.rules import actions as A
from suite.worldwar.rules.cards import Deck
from suite.worldwar.rules.legal import ActionList, CountBlock
from suite.worldwar.rules.views import WorldWarView


def _attack(key: tuple[str, str], dice: int) -> A.Attack:
    return A.Attack(key[0], key[1], dice)


def _blitz(key: tuple[str, str], k: int) -> A.Blitz:
    return A.Blitz(key[0], key[1], k == 2)


def _fortify(key: tuple[str, str], armies: int) -> A.Fortify:
    return A.Fortify(key[0], key[1], armies)


def _occupy(base: int, k: int) -> A.Occupy:
    return A.Occupy(base + k)


def sets_on_offer(view: WorldWarView, deck: Deck | None) -> list[tuple[int, ...]]:
    """The sets the seat may turn in now: its best ones when a full hand forces the best
    (poker), else every set in its hand."""
    if deck is None:
        return []
    if view.must_turn_in and deck.rules.best_when_forced:
        return list(view.best_turn_in)
    return deck.legal_sets(view.hand)


def fill(view: WorldWarView, deck: Deck | None, out: ActionList) -> None:
    """Add to `out` everything the view's seat may do at the view's moment."""
    seat = view.seat
    if view.phase == "over" or seat is None or view.actor() != seat:
        return
    phase = view.phase
    ids, owner, armies = view.map.territories, view.owner, view.armies
    if phase in ("setup", "place"):
        if phase == "place" and view.may_turn_in:
            out.add("turn_in", [A.TurnIn(c) for c in sets_on_offer(view, deck)])
        if phase == "setup" or view.mid_turn or not view.must_turn_in:
            owned = [ids[t] for t in range(len(ids)) if owner[t] == seat]
            out.add_counts(CountBlock(owned, [view.to_place()] * len(owned), A.Place, "place"))
        if phase == "setup":
            out.add("auto_place", [A.AutoPlace()])
    elif phase == "cards":
        out.add("turn_in", [A.TurnIn(c) for c in sets_on_offer(view, deck)])
        if not view.must_turn_in:
            out.add("skip_turn_in", [A.SkipTurnIn()])
    elif phase in ("attack", "fortify"):
        if phase == "attack":
            adj, stay = view.map.neighbours, view.rules.stay_behind
            keys: list[tuple[str, str]] = []
            dice: list[int] = []
            for s in range(len(owner)):
                if owner[s] == seat and armies[s] > stay:
                    for t in adj[s]:
                        if owner[t] != seat:
                            keys.append((ids[s], ids[t]))
                            dice.append(view.attack_dice(s))
            out.add_counts(CountBlock(keys, dice, _attack, "attack"))
            out.add_counts(CountBlock(keys, [2] * len(keys), _blitz, "blitz"))
        _add_fortify(view, seat, out)
        if phase == "attack":
            out.add("end_attack", [A.EndAttack()])
        out.add("end_turn", [A.EndTurn()])
    elif phase == "defend" and view.attack is not None:
        out.add("defend", [A.Defend(d) for d in range(1, view.attack.defend_max + 1)])
    elif phase == "occupy" and view.occupy is not None:
        lo, hi = view.occupy.min, view.occupy.max
        out.add_counts(CountBlock([lo - 1], [hi - lo + 1], _occupy, "occupy"))


def _add_fortify(view: WorldWarView, seat: int, out: ActionList) -> None:
    owner, adj, ids = view.owner, view.map.neighbours, view.map.territories
    stay = view.rules.stay_behind
    keys: list[tuple[str, str]] = []
    counts: list[int] = []
    for s in range(len(owner)):
        if owner[s] == seat and view.armies[s] > stay:
            for t in adj[s]:
                if owner[t] == seat:
                    keys.append((ids[s], ids[t]))
                    counts.append(view.armies[s] - stay)
    out.add_counts(CountBlock(keys, counts, _fortify, "fortify"))


class ViewActions(ActionList):
    """The legal actions of a view's seat, built on first use (see the module docstring)."""

    __slots__ = ("_view", "_deck", "_built")

    def __init__(self, view: WorldWarView, deck: Deck | None) -> None:
        super().__init__()
        self._view = view
        self._deck = deck
        self._built = False

    def __reduce__(self) -> tuple[type[ViewActions], tuple[WorldWarView, Deck | None]]:
        """Pickled as the view and deck rules it is built from (a bot thinking in its
        worker process gets it so, `suite.core.thinking`)."""
        return ViewActions, (self._view, self._deck)

    def _ready(self) -> None:
        if not self._built:
            self._built = True
            fill(self._view, self._deck, self)

    def contains(self, action: Action) -> bool:
        """True when the view's seat may do `action` at the view's moment."""
        try:
            action = validate_action(action, A.WorldWarAction)
        except IllegalAction:
            return False
        view = self._view
        if isinstance(action, A.TimeUp):
            return view.rules.clock > 0 and view.seat is not None and view.actor() == view.seat
        if isinstance(action, A.TurnIn):
            action = A.TurnIn(tuple(sorted(action.cards)))
        if isinstance(action, A.PlaceMany):
            return self._may_place(action)
        kind = type(action).__struct_config__.tag
        return any(action == a for a in self._of_kind(str(kind)))

    def _may_place(self, action: A.PlaceMany) -> bool:
        """`PlaceMany`: listed `Place` targets, at least one army each, within the total."""
        view = self._view
        ids = view.map.territories
        owned = {ids[t] for t, o in enumerate(view.owner) if o == view.seat}
        total = sum(n for _t, n in action.placements)
        return (
            bool(action.placements)
            and "place" in self.kinds()
            and all(t in owned and n >= 1 for t, n in action.placements)
            and total <= view.to_place()
        )

    def _of_kind(self, kind: str) -> list[Action]:
        self._ready()
        out: list[Action] = []
        start = 0
        for (k, _body, _cum), end in zip(self._blocks, self._ends, strict=True):
            if k == kind:
                out.extend(self[i] for i in range(start, end))
            start = end
        return out
