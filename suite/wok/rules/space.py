"""The order-set action space of a seat: membership and random valid order sets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from suite.core.match import Action
from suite.core.rng import Rng
from suite.wok.rules.orders import (
    UPGRADE_KINDS,
    Attack,
    Bomb,
    Move,
    OrderSet,
    SetAim,
    Spy,
    SubmitOrders,
    Transform,
    Upgrade,
)
from suite.wok.rules.world import NEUTRAL

if TYPE_CHECKING:
    from suite.wok.rules.state import WokState


class WokActionSpace:
    """What `seat` may do now: any action `WokState.check` accepts.

    `sample` draws a random order set for each of the seat's living colours (aimed at
    provinces that exist and mostly make sense) and marks the seat ready.
    """

    def __init__(self, state: WokState, seat: int) -> None:
        self.state = state
        self.seat = seat

    def contains(self, action: Action) -> bool:
        return self.state.check(self.seat, action) is None

    def sample(self, rng: Rng) -> Action:
        colours = self.state.living_colours(self.seat)
        sets = tuple(random_orders(self.state, c, rng) for c in colours)
        return SubmitOrders(sets=sets, ready=True)


def _some(rng: Rng, top: int) -> int:
    return rng.randint(0, top)


def random_orders(state: WokState, colour: int, rng: Rng) -> OrderSet:
    """A random order set for `colour` that passes the entry checks."""
    w = state.world
    lim = state.rules.limits
    own = w.owned(colour)
    if not own:
        return OrderSet(colour=colour)
    aims = state.rules.aims
    attacks = []
    for _ in range(_some(rng, 3)):
        p = rng.choice(own)
        targets = [t for t in w.adj[p] if w.owner[t] != colour]
        if w.arm[p] and targets:
            attacks.append(Attack(p, rng.choice(targets), rng.randint(1, w.arm[p])))
    transforms = []
    kinds = ("POP_WOK", "POP_ARM", "WOK_POP")
    for _ in range(_some(rng, 3)):
        p = rng.choice(own)
        kind = rng.choice(kinds)
        transforms.append(Transform(p, kind, rng.randint(1, lim["transform_amount"])))  # type: ignore[arg-type]
    moves = []
    for _ in range(_some(rng, 2)):
        p = rng.choice(own)
        dest = [t for t in w.adj[p] if w.owner[t] == colour]
        if dest:
            unit = rng.choice(state.rules.move_kinds)
            moves.append(Move(p, rng.choice(dest), unit, rng.randint(1, lim["move_amount"])))  # type: ignore[arg-type]
    aim_list = []
    for p in sorted({rng.choice(own) for _ in range(_some(rng, 2))}):
        aim_list.append(SetAim(p, rng.choice(aims)))  # type: ignore[arg-type]
    upgrades = []
    if w.colours[colour].gold >= state.rules.upgrade_costs[0] and rng.randbelow(2):
        upgrades.append(Upgrade(rng.choice(UPGRADE_KINDS)))  # type: ignore[arg-type]
    bombs: list[Bomb] = []
    for p in own:
        if w.mis[p] and len(bombs) < lim["bomb_orders"]:
            reach = sorted(t for t in w.adj_sets[p] | w.far[p] if w.owner[t] != colour)
            if reach:
                bombs.append(Bomb(p, rng.choice(reach), min(w.mis[p], lim["bomb_missiles"])))
    spies: list[Spy] = []
    for p in own:
        if w.spy[p] and len(spies) < 1:
            enemies = [t for t in w.adj[p] if w.owner[t] not in (colour, NEUTRAL)]
            if enemies:
                op = rng.choice(state.rules.spy_ops)
                spies.append(Spy(p, rng.choice(enemies), op, rng.randint(1, w.spy[p])))  # type: ignore[arg-type]
    return OrderSet(
        colour=colour,
        bombs=tuple(bombs),
        attacks=tuple(attacks),
        transforms=tuple(transforms),
        moves=tuple(moves),
        aims=tuple(aim_list),
        upgrades=tuple(upgrades),
        spies=tuple(spies),
    )
