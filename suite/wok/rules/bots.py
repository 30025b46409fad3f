"""WoK bots: "robot" (the S16 doctrine on what the seat can see) and "general".

Both see only their seat's view (through `believed_world`) and answer one
`SubmitOrders` for all their living colours, marked ready. The random bot is the core
`RandomBot`, which samples the seat's `WokActionSpace`.

The general plays an economy game: mining gold into EFF and tech upgrades, converting
surplus population into armies and workers, moving armies from the interior to the
frontier, attacking the best-value neighbours when its power ratio is comfortably
ahead (chaining from provinces it expects to take), keeping enough armies on borders
with other players, and spying on enemy provinces next to it.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from suite.core.match import Action
from suite.core.rng import Rng
from suite.wok.rules.belief import believed_world
from suite.wok.rules.orders import (
    Attack,
    Move,
    OrderSet,
    SetAim,
    Spy,
    SubmitOrders,
    Transform,
    Upgrade,
)
from suite.wok.rules.phases import protection_reason
from suite.wok.rules.robots import pdef_of, robot_orders
from suite.wok.rules.ruleset import Variant
from suite.wok.rules.views import WokView
from suite.wok.rules.world import NEUTRAL, World


def armies_needed(patt: float, pdef: float, defenders: int, safety: float) -> int:
    """Armies to send so that winning is likely: expected losses plus `safety` deviations.

    Each round one side loses a unit: the attacker with chance pdef/(2*patt) when
    patt >= pdef, else 1 - patt/(2*pdef) (W6 uniform draws, ties ignored), so the
    attacker's losses before `defenders` are beaten follow a negative binomial law.
    """
    if defenders == 0:
        return 1
    patt, pdef = max(patt, 1.0), max(pdef, 1.0)
    lose = pdef / (2 * patt) if patt >= pdef else 1 - patt / (2 * pdef)
    win = 1 - lose
    expected = defenders * lose / win
    spread = math.sqrt(defenders * lose) / win
    return math.ceil(expected + safety * spread) + 1


def _seat_view(view: object) -> WokView:
    """The bot's view; bots play seats, never spectate."""
    if not isinstance(view, WokView):
        raise TypeError(f"a WoK bot needs a seat's WokView, not {type(view).__name__}")
    return view


class RobotBot:
    """The S16 robot doctrine as a seat's bot (unknown provinces are estimated)."""

    name = "robot"

    def choose(self, view: Any, legal: Any, rng: Rng) -> Action:
        v = _seat_view(view)
        w = believed_world(v)
        variant = w.rules.variant(v.variant.name)
        sets = tuple(robot_orders(w, variant, c, v.turn) for c in sorted(v.own()))
        return SubmitOrders(sets=sets, ready=True)


class GeneralBot:
    """A bot that plays well: economy, growth timing, power-ratio attacks, upgrades, spying."""

    name = "general"

    def __init__(
        self,
        safety_neutral: float = 1.5,
        safety_enemy: float = 2.5,
        target_level: float = 5.0,
        keep_pop: int = 110,
        target_wok: int = 80,
    ) -> None:
        self.safety_neutral = safety_neutral
        self.safety_enemy = safety_enemy
        self.target_level = target_level
        self.keep_pop = keep_pop
        self.target_wok = target_wok

    def choose(self, view: Any, legal: Any, rng: Rng) -> Action:
        v = _seat_view(view)
        w = believed_world(v)
        variant = w.rules.variant(v.variant.name)
        friends = {c.colour for c in v.colours}
        intel = {i.colour: i.turn for i in v.player_intel}
        sets = tuple(
            _General(w, variant, c, v.turn, friends, self, intel).orders() for c in sorted(v.own())
        )
        return SubmitOrders(sets=sets, ready=True)


class _General:
    """One colour's plan for one turn."""

    def __init__(
        self,
        w: World,
        variant: Variant,
        colour: int,
        turn: int,
        friends: set[int],
        bot: GeneralBot,
        intel_turns: dict[int, int],
    ) -> None:
        self.intel_turns = intel_turns
        self.w = w
        self.r = w.rules
        self.variant = variant
        self.c = colour
        self.turn = turn
        self.friends = friends
        self.bot = bot
        self.me = w.colours[colour]
        self.own = w.owned(colour)
        self.start_owner = list(w.owner)
        self.province_count: dict[int, int] = {}
        for o in w.owner:
            self.province_count[o] = self.province_count.get(o, 0) + 1

    # -- helpers ------------------------------------------------------------
    def allowed(self, t: int) -> bool:
        if self.w.owner[t] in self.friends:
            return False
        reason = protection_reason(self.w, self.variant, self.turn, self.start_owner, self.c, t)
        return reason is None

    def is_enemy(self, t: int) -> bool:
        o = self.w.owner[t]
        return o not in (NEUTRAL, self.c) and o not in self.friends

    def enemy_pressure(self, p: int) -> float:
        """Attack power (PATT * armies) that enemy players next to p could bring."""
        w = self.w
        total = 0.0
        for t in w.adj[p]:
            if self.is_enemy(t):
                o = w.owner[t]
                total += w.colours[o].eff * self.r.attack.att_level_factor * w.lev[t] * w.arm[t]
        return total

    def garrison(self, p: int) -> int:
        """Armies to keep in p so that an enemy's 1.3 power-ratio rule leaves it alone."""
        pressure = self.enemy_pressure(p)
        if pressure == 0:
            return 0
        per_army = max(1.0, pdef_of(self.w, p))
        return min(self.w.arm[p], math.ceil(pressure / (self.r.robots.power_ratio * per_army)) + 1)

    def patt(self, p: int) -> float:
        return max(1.0, self.me.eff * self.r.attack.att_level_factor * self.w.lev[p])

    def need(self, src: int, t: int) -> int:
        safety = self.bot.safety_enemy if self.is_enemy(t) else self.bot.safety_neutral
        return armies_needed(self.patt(src), pdef_of(self.w, t), self.w.arm[t], safety)

    def value(self, t: int) -> float:
        w = self.w
        v = w.pop[t] + 2 * w.wok[t] + 60.0
        if self.is_enemy(t):
            v += 150
            if self.province_count.get(w.owner[t], 0) == 1:
                v += 500  # a RIP
        return v

    def distances_to(self, goal: int) -> dict[int, int]:
        """Steps from each own province to `goal` through own provinces."""
        w = self.w
        dist = {goal: 0}
        queue: deque[int] = deque([goal])
        while queue:
            cur = queue.popleft()
            for nxt in w.adj[cur]:
                if w.owner[nxt] == self.c and nxt not in dist:
                    dist[nxt] = dist[cur] + 1
                    queue.append(nxt)
        return dist

    # -- the plan -----------------------------------------------------------
    def orders(self) -> OrderSet:
        attacks = self.plan_attacks()
        stage = self.pick_stage(attacks)
        return OrderSet(
            colour=self.c,
            attacks=tuple(attacks),
            transforms=tuple(self.plan_transforms()),
            moves=tuple(self.plan_moves(attacks, stage)),
            aims=tuple(self.plan_aims(stage)),
            upgrades=tuple(self.plan_upgrades()),
            spies=tuple(self.plan_spies()),
        )

    def plan_attacks(self) -> list[Attack]:
        w, r = self.w, self.r
        limit = min(r.attacks_allowed(self.me.tech), r.limits.attack_orders)
        spare = {p: w.arm[p] - self.garrison(p) for p in self.own}
        held = set(self.own)
        attacks: list[Attack] = []
        while len(attacks) < limit:
            best: tuple[float, int, int, int] | None = None
            for src in sorted(held):
                avail = spare.get(src, 0)
                if avail <= 0:
                    continue
                for t in w.adj[src]:
                    if t in held or not self.allowed(t):
                        continue
                    need = self.need(src, t)
                    if avail < need:
                        continue
                    score = self.value(t) / (need + 5)
                    if best is None or score > best[0]:
                        best = (score, src, t, need)
            if best is None:
                break
            _, src, t, need = best
            avail = spare[src]
            send = min(avail if avail < 2 * need else need + (avail - need) // 2, w.arm[src])
            attacks.append(Attack(src, t, send))
            spare[src] = avail - send
            w.arm[src] -= send
            survivors = max(1, send - need // 2)
            held.add(t)
            spare[t] = survivors - 1
            w.arm[t], w.lev[t] = survivors, w.lev[src]
        return attacks

    def pick_stage(self, attacks: list[Attack]) -> int | None:
        """The frontier province to gather armies in for next turn's best target."""
        w = self.w
        hit = {a.target for a in attacks}
        best: tuple[float, int] | None = None
        for p in self.own:
            for t in w.adj[p]:
                if w.owner[t] == self.c or t in hit or not self.allowed(t):
                    continue
                score = self.value(t) / (self.need(p, t) + 5)
                if best is None or score > best[0]:
                    best = (score, p)
        return None if best is None else best[1]

    def plan_transforms(self) -> list[Transform]:
        w, r = self.w, self.r
        lim = r.limits
        out: list[Transform] = []
        by_pop = sorted(self.own, key=lambda p: (-w.pop[p], p))
        pop_arm = 0
        for p in by_pop:
            if pop_arm >= lim.transform_pop_arm_orders:
                break
            amount = min(lim.transform_amount, w.pop[p] - self.bot.keep_pop)
            if amount >= r.transform.ratios["POP_ARM"]:
                out.append(Transform(p, "POP_ARM", amount))
                w.pop[p] -= amount
                pop_arm += 1
        for p in by_pop:
            if len(out) >= lim.transform_orders:
                break
            room = self.bot.target_wok - w.wok[p]
            amount = min(lim.transform_amount, w.pop[p] - self.bot.keep_pop // 2, 2 * room)
            if amount >= r.transform.ratios["POP_WOK"] * 4:
                out.append(Transform(p, "POP_WOK", amount))
        return out

    def plan_moves(self, attacks: list[Attack], stage: int | None) -> list[Move]:
        w, r = self.w, self.r
        lim = r.limits
        if stage is None:
            return []
        dist = self.distances_to(stage)
        sources = {a.source for a in attacks}
        moves: list[Move] = []
        for p in sorted(self.own, key=lambda q: (-dist.get(q, 0), q)):
            if len(moves) >= lim.move_orders:
                break
            d = dist.get(p)
            if not d or p in sources:
                continue
            amount = min(lim.move_amount, w.arm[p] - self.garrison(p))
            if amount <= 0:
                continue
            step = min(
                (t for t in w.adj[p] if dist.get(t, 99) < d),
                key=lambda t: (dist[t], t),
                default=None,
            )
            if step is not None:
                moves.append(Move(p, step, "ARM", amount))
        return moves

    def plan_aims(self, stage: int | None) -> list[SetAim]:
        w = self.w
        out: list[SetAim] = []
        eff_low = self.me.eff < 50 and self.me.gold < self.r.upgrades.costs[0]
        eff_at = max(self.own, key=lambda p: (w.wok[p], -p)) if eff_low and self.own else None
        for p in self.own:
            if len(out) >= self.r.limits.aim_orders:
                break
            if p == eff_at:
                want = "EFF"
            elif w.arm[p] >= 8 and w.lev[p] < self.bot.target_level and (p == stage):
                want = "LEV"
            else:
                want = "MIN"
            if w.aim[p] != want or w.false_orders[p]:
                out.append(SetAim(p, want))  # type: ignore[arg-type]
        return out

    def plan_upgrades(self) -> list[Upgrade]:
        gold = self.me.gold
        eff = self.me.eff
        tech = self.me.tech
        out: list[Upgrade] = []
        for cost in self.r.upgrades.costs:
            if gold < cost:
                break
            if eff < 75:
                out.append(Upgrade("EFF"))
                eff += self.r.upgrades.eff
            elif tech < 4:
                out.append(Upgrade("TECH"))
                tech += 1
            elif eff < 90:
                out.append(Upgrade("EFF"))
                eff += self.r.upgrades.eff
            else:
                out.append(Upgrade("LEV"))
            gold -= cost
        return out

    def plan_spies(self) -> list[Spy]:
        """Spy Player on neighbouring enemies with stale intel, Spy Province on their lands."""
        w = self.w
        out: list[Spy] = []
        spies = {p: w.spy[p] for p in self.own}
        players_done: set[int] = set()
        for p in self.own:
            for t in w.adj[p]:
                if len(out) >= self.r.limits.spy_orders:
                    return out
                if not self.is_enemy(t) or not self.allowed(t) or spies[p] < 2:
                    continue
                o = w.owner[t]
                op = "SPY_PROVINCE"
                if o not in players_done and self.turn - self.bot_intel_turn(o) >= 3:
                    op = "SPY_PLAYER"
                    players_done.add(o)
                spies[p] -= 2
                out.append(Spy(p, t, op, 2))  # type: ignore[arg-type]
        return out

    def bot_intel_turn(self, colour: int) -> int:
        return self.intel_turns.get(colour, -99)
