"""WoK bots: "robot" (the S16 doctrine on what the seat can see) and "general".

Both see only their seat's view (through `believed_world`) and answer one
`SubmitOrders` for all their living colours, marked ready. The random bot is the core
`RandomBot`, which samples the seat's `WokActionSpace`.

The general hunts the enemy colour nearest a RIP, turns surplus population into armies,
trains them where they gather, buys EFF, tech and LEV with mined gold, attacks the
best-value targets it can take (chaining from provinces it expects to take), keeps
armies on borders with other players and presses the attack on weaker enemies (issue
13 item 10: games between generals end within a dozen turns).
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

import msgspec

from suite.core.match import Action
from suite.core.rng import Rng
from suite.wok.rules.belief import believed_world
from suite.wok.rules.orders import (
    Attack,
    Bomb,
    Move,
    OrderSet,
    SetAim,
    Spy,
    SubmitOrders,
    Trade,
    Transform,
    TroopUpgrade,
    Upgrade,
)
from suite.wok.rules.phases import nap_partner, protection_reason
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


def seat_variant(w: World, v: WokView) -> Variant:
    """The variant as the seat's view gives it (the host may change its headhunting turns)."""
    variant = w.rules.variant(v.variant.name)
    return msgspec.structs.replace(variant, protect_home_until=v.variant.protect_home_until)


class RobotBot:
    """The S16 robot doctrine as a seat's bot (unknown provinces are estimated)."""

    name = "robot"

    def choose(self, view: Any, legal: Any, rng: Rng) -> Action:
        v = _seat_view(view)
        w = believed_world(v)
        variant = seat_variant(w, v)
        sets = tuple(robot_orders(w, variant, c, v.turn) for c in sorted(v.own()))
        return SubmitOrders(sets=sets, ready=True)


class GeneralBot:
    """A bot that plays well and presses its advantage.

    Each of its colours hunts one enemy colour (the nearest to a RIP and to it), grows
    POP and turns the surplus above `keep_pop` into armies, gathers them at the front
    nearest that enemy where workers train them (LEV aim), buys EFF, tech and LEV, spies
    on the nearest enemy provinces, and attacks the best-value targets it can take with a
    safety margin (`armies_needed`). Against colours whose believed army power is at most
    1 / `press_ratio` of its own it presses: everything that can go attacks, with the
    smaller `safety_press` margin. Unseen enemy provinces are believed from Spy Player
    totals, last turn's battle reports or a mirror of its own (`believed_world`).
    """

    name = "general"

    def __init__(
        self,
        safety_neutral: float = 1.0,
        safety_enemy: float = 0.0,
        safety_press: float = -0.5,
        press_ratio: float = 0.3,
        target_level: float = 6.0,
        keep_pop: int = 40,
        target_wok: int = 10,
        garrison_factor: float = 0.0,
        robot_garrison: float = 0.5,
        focus_bonus: float = 2000.0,
        focus_weight: float = 1.0,
        eff_floor: int = 85,
        tech_target: int = 2,
        trade_keep: int = 200,
        spy_floor: int = 4,
    ) -> None:
        self.safety_neutral = safety_neutral
        self.safety_enemy = safety_enemy
        self.safety_press = safety_press
        self.press_ratio = press_ratio
        self.target_level = target_level
        self.keep_pop = keep_pop
        self.target_wok = target_wok
        self.garrison_factor = garrison_factor
        self.robot_garrison = robot_garrison
        self.focus_bonus = focus_bonus
        self.focus_weight = focus_weight
        self.eff_floor = eff_floor
        self.tech_target = tech_target
        self.trade_keep = trade_keep
        self.spy_floor = spy_floor

    def choose(self, view: Any, legal: Any, rng: Rng) -> Action:
        v = _seat_view(view)
        w = believed_world(v)
        plain_arm = list(w.arm)
        _fold_troops(w)
        variant = seat_variant(w, v)
        friends = {c.colour for c in v.colours}
        intel = {i.colour: i.turn for i in v.player_intel}
        rips = sum(1 for p in v.players if p.colour in friends for r in p.rips if r not in friends)
        closing = bool(v.variant.rips_to_win) and rips >= v.variant.rips_to_win - 1
        sets = tuple(
            _General(
                w,
                variant,
                c,
                v.turn,
                friends,
                self,
                intel,
                _focus(w, friends, c, self.focus_weight, nap_partner(w, variant, c, v.turn)),
                plain_arm,
                closing,
            ).orders()
            for c in sorted(v.own())
        )
        return SubmitOrders(sets=sets, ready=True)


def _fold_troops(w: World) -> None:
    """Count every troop type as ARM in the bot's own copy of the world (its plans only
    need head counts; moves name TRO where the rules have it)."""
    for p in range(w.n):
        w.arm[p] = w.troops(p)
        w.pik[p] = w.arc[p] = w.kni[p] = w.cat[p] = 0


def _focus(
    w: World, friends: set[int], colour: int, weight: float, napped: int | None
) -> int | None:
    """The enemy colour `colour` hunts: nearest a RIP (fewest provinces, public) and
    nearest to it (`weight` provinces count as one step), then weakest believed armies;
    never the colour it is napped with this turn."""
    dist: dict[int, int] = {p: 0 for p in range(w.n) if w.owner[p] == colour}
    queue: deque[int] = deque(sorted(dist))
    while queue:
        cur = queue.popleft()
        for nxt in w.adj[cur]:
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    counts: dict[int, int] = {}
    near: dict[int, int] = {}
    power: dict[int, float] = {}
    for p, o in enumerate(w.owner):
        if o != NEUTRAL and o not in friends and o != napped:
            counts[o] = counts.get(o, 0) + 1
            near[o] = min(near.get(o, 999), dist.get(p, 999))
            power[o] = power.get(o, 0.0) + w.arm[p] * w.lev[p]
    return min(counts, key=lambda o: (counts[o] * weight + near[o], power[o], o), default=None)


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
        focus: int | None = None,
        plain_arm: list[int] | None = None,
        closing: bool = False,
    ) -> None:
        self.intel_turns = intel_turns
        self.focus = focus
        self.plain_arm = plain_arm if plain_arm is not None else list(w.arm)
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
        mine = self.army_power(self.c)
        self.pressed = {
            o for o in self.enemies() if closing or mine >= bot.press_ratio * self.army_power(o)
        }
        self.pressing = bool(self.pressed)
        self.to_enemy = self.enemy_distances()
        self.troop_unit = "TRO" if "TRO" in self.r.movement.kinds else "ARM"

    # -- helpers ------------------------------------------------------------
    def allowed(self, t: int) -> bool:
        if self.w.owner[t] in self.friends:
            return False
        reason = protection_reason(self.w, self.variant, self.turn, self.start_owner, self.c, t)
        return reason is None

    def is_enemy(self, t: int) -> bool:
        o = self.w.owner[t]
        return o not in (NEUTRAL, self.c) and o not in self.friends

    def enemies(self) -> list[int]:
        """Living colours of other seats (robots included)."""
        return [
            i
            for i, col in enumerate(self.w.colours)
            if col.alive and i not in self.friends and self.province_count.get(i, 0)
        ]

    def army_power(self, colour: int) -> float:
        """Armies x LEV x EFF over the colour's provinces as this seat believes them."""
        w = self.w
        eff = w.colours[colour].eff
        return sum(w.arm[p] * w.lev[p] for p in range(w.n) if w.owner[p] == colour) * eff

    def enemy_distances(self) -> dict[int, int]:
        """Steps from every province to the nearest province of a colour being pressed."""
        w = self.w
        goal = self.pressed | ({self.focus} if self.focus is not None else set())
        dist = {p: 0 for p in range(w.n) if w.owner[p] in goal}
        queue: deque[int] = deque(sorted(dist))
        while queue:
            cur = queue.popleft()
            for nxt in w.adj[cur]:
                if nxt not in dist:
                    dist[nxt] = dist[cur] + 1
                    queue.append(nxt)
        return dist

    def enemy_pressure(self, p: int) -> float:
        """Attack power (PATT * armies) that enemies next to p could bring: robots' in
        scaled by `robot_garrison` (their S16 rule attacks whatever is weak enough), other
        players' by `garrison_factor` (a pressing general leaves less behind)."""
        w = self.w
        total = 0.0
        for t in w.adj[p]:
            if self.is_enemy(t):
                o = w.owner[t]
                a = self.r.attack
                power = w.colours[o].eff * a.eff_factor * a.att_level_factor * w.lev[t] * w.arm[t]
                robot = w.colours[o].seat is None
                total += power * (self.bot.robot_garrison if robot else self.bot.garrison_factor)
        return total

    def garrison(self, p: int) -> int:
        """Armies to keep in p so that an enemy's 1.3 power-ratio rule leaves it alone."""
        pressure = self.enemy_pressure(p)
        if pressure == 0:
            return 0
        per_army = max(1.0, pdef_of(self.w, p))
        return min(self.w.arm[p], math.ceil(pressure / (self.r.robots.power_ratio * per_army)) + 1)

    def patt(self, p: int) -> float:
        a = self.r.attack
        return max(1.0, self.me.eff * a.eff_factor * a.att_level_factor * self.w.lev[p])

    def need(self, src: int, t: int) -> int:
        if self.is_enemy(t):
            pressed = self.w.owner[t] in self.pressed
            safety = self.bot.safety_press if pressed else self.bot.safety_enemy
        else:
            safety = self.bot.safety_neutral
        return armies_needed(self.patt(src), pdef_of(self.w, t), self.w.arm[t], safety)

    def value(self, t: int) -> float:
        w = self.w
        v = w.pop[t] + 2 * w.wok[t] + 60.0
        if self.is_enemy(t):
            v += 150 + 600 / self.province_count.get(w.owner[t], 1)  # towards a RIP
            if w.owner[t] in self.pressed:
                v += 400
            if w.owner[t] == self.focus:
                v += self.bot.focus_bonus
        elif self.pressing or self.focus is not None:
            v += 200 / (1 + self.to_enemy.get(t, 99))  # on the way to the enemy
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
            transforms=tuple(self.plan_transforms(stage)),
            moves=tuple(self.plan_moves(attacks, stage)),
            aims=tuple(self.plan_aims(stage)),
            upgrades=tuple(self.plan_upgrades()),
            spies=tuple(self.plan_spies()),
            troops=tuple(self.plan_troops(stage)),
            trades=tuple(self.plan_trades()),
            bombs=tuple(self.plan_bombs(attacks)),
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
            if w.owner[t] in self.pressed:
                send = min(avail, w.arm[src])  # press with everything that can go
            attacks.append(Attack(src, t, send))
            spare[src] = avail - send
            w.arm[src] -= send
            survivors = max(1, send - need // 2)
            held.add(t)
            spare[t] = survivors - 1
            w.arm[t], w.lev[t] = survivors, w.lev[src]
        return attacks

    def pick_stage(self, attacks: list[Attack]) -> int | None:
        """The province to gather armies in for next turn: beside the best target, or
        (pressing) the own province nearest the enemy."""
        w = self.w
        hit = {a.target for a in attacks}
        if (self.pressing or self.focus is not None) and self.own:
            return min(self.own, key=lambda p: (self.to_enemy.get(p, 99), -w.arm[p], p))
        best: tuple[float, int] | None = None
        for p in self.own:
            for t in w.adj[p]:
                if w.owner[t] == self.c or t in hit or not self.allowed(t):
                    continue
                score = self.value(t) / (self.need(p, t) + 5)
                if best is None or score > best[0]:
                    best = (score, p)
        return None if best is None else best[1]

    def plan_transforms(self, stage: int | None) -> list[Transform]:
        """Surplus POP becomes armies; in the staging province it becomes workers who
        train the gathered armies (LEV aim) up to `target_wok`."""
        w, r = self.w, self.r
        lim = r.limits
        out: list[Transform] = []
        by_pop = sorted(self.own, key=lambda p: (p != stage, -w.pop[p], p))
        pop_arm = 0
        for p in by_pop:
            if len(out) >= lim.transform_orders:
                break
            if p == stage:
                room = min(self.bot.target_wok, r.caps.wok) - w.wok[p]
                amount = min(lim.transform_amount, w.pop[p] - self.bot.keep_pop // 2, 2 * room)
                if amount >= r.transform.ratios["POP_WOK"] * 4:
                    out.append(Transform(p, "POP_WOK", amount))
                    w.pop[p] -= amount
            if pop_arm >= lim.transform_pop_arm_orders:
                continue
            amount = min(lim.transform_amount, w.pop[p] - self.bot.keep_pop)
            if amount >= r.transform.ratios["POP_ARM"]:
                out.append(Transform(p, "POP_ARM", amount))
                w.pop[p] -= amount
                pop_arm += 1
        return out[: lim.transform_orders]

    def plan_moves(self, attacks: list[Attack], stage: int | None) -> list[Move]:
        w, r = self.w, self.r
        lim = r.limits
        if stage is None:
            return []
        dist = self.distances_to(stage)
        for p in sorted(self.own):  # other parts of the empire gather at their own front
            if p not in dist:
                part = self.w.component(self.c, p)
                local = min(part, key=lambda q: (self.to_enemy.get(q, 99), -w.arm[q], q))
                dist.update(self.distances_to(local))
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
                moves.append(Move(p, step, self.troop_unit, amount))  # type: ignore[arg-type]
        return moves

    def plan_aims(self, stage: int | None) -> list[SetAim]:
        """Train the armies where they gather (LEV), mine gold elsewhere, EFF when low."""
        w = self.w
        out: list[SetAim] = []
        r = self.r
        eff_low = self.me.eff < 50 and (
            self.me.gold < r.upgrades.costs[0] if r.upgrades.kinds else self.me.tech < 250
        )
        other = "MIN" if "MIN" in r.working.aims else "TECH"
        eff_at = max(self.own, key=lambda p: (w.wok[p], -p)) if eff_low and self.own else None
        trained = sorted(
            (p for p in self.own if w.arm[p] >= 8 and w.lev[p] < self.bot.target_level),
            key=lambda p: (p != stage, -w.arm[p], p),
        )[:2]
        wood_at = self.wood_province(trained, eff_at)
        spy_at = self.spy_province(trained, eff_at)
        first = (eff_at, spy_at)
        for p in sorted(self.own, key=lambda q: (q not in trained, q not in first, q)):
            if len(out) >= self.r.limits.aim_orders:
                break
            if p == eff_at:
                want = "EFF"
            elif p == spy_at:
                want = "SPY"
            elif p in trained:
                want = "LEV"
            elif p == wood_at:
                want = "CHO"
            else:
                want = other
            if w.aim[p] != want or w.false_orders[p]:
                out.append(SetAim(p, want))  # type: ignore[arg-type]
        return out

    def spy_province(self, trained: list[int], eff_at: int | None) -> int | None:
        """WoK IV (every spy used is spent): when the colour holds fewer than `spy_floor`
        spies, the province with the most workers (an untrained one first) makes spies."""
        w = self.w
        if self.r.covert is None or "SPY" not in self.r.working.aims:
            return None
        if sum(w.spy[p] for p in self.own) >= self.bot.spy_floor:
            return None
        pool = [p for p in self.own if p != eff_at and w.wok[p] >= self.r.working.spy_per]
        return max(pool, key=lambda p: (p not in trained, w.wok[p], -p), default=None)

    def plan_troops(self, stage: int | None) -> list[TroopUpgrade]:
        """Intermediate: turn the staging province's ARM into the troop type at home in
        the terrain of its best target (or its own terrain), as far as WOOD pays."""
        w, r = self.w, self.r
        tr, terrain = r.troops, r.terrain
        if tr is None or terrain is None or stage is None or w.owner[stage] != self.c:
            return []
        targets = [t for t in w.adj[stage] if w.owner[t] != self.c and self.allowed(t)]
        ground = max(targets, key=lambda t: (self.value(t), -t)) if targets else stage
        kind = next((k for k, t in terrain.preferred_by.items() if t == w.terrain[ground]), None)
        if kind is None:
            return []
        amount = min(tr.amount, self.plain_arm[stage], self.me.wood // tr.upgrade_wood)
        if amount <= 0:
            return []
        return [TroopUpgrade(stage, "ARM", kind, amount)]  # type: ignore[arg-type]

    def wood_province(self, trained: list[int], eff_at: int | None) -> int | None:
        """Where workers chop WOOD (Intermediate): the province CHO suits best."""
        r, w = self.r, self.w
        if "CHO" not in r.working.aims or r.troops is None:
            return None
        spare = [p for p in self.own if p not in trained and p != eff_at]
        favoured = {
            t for t, aim in (r.terrain.favoured_aim if r.terrain else {}).items() if aim == "CHO"
        }
        return max(spare, key=lambda p: (w.terrain[p] in favoured, w.wok[p], -p), default=None)

    def plan_trades(self) -> list[Trade]:
        """WoK IV: EFF back up (the EFF trade) when it is low, otherwise DEF and LEV (or
        LEV alone) while enough tech points stay for all seven attacks."""
        tr = self.r.trades
        if tr is None or not tr.orders:
            return []
        tech, keep = self.me.tech, self.bot.trade_keep
        by_kind = {
            "eff": next((o for o in tr.offers if o.eff), None),
            "both": next((o for o in tr.offers if o.def_tenths and o.lev), None),
            "lev": next((o for o in tr.offers if o.lev and not o.def_tenths), None),
        }
        eff = by_kind["eff"]
        if eff is not None and self.me.eff < self.bot.eff_floor - 15 and tech >= eff.points:
            return [Trade(eff.points)]
        for kind in ("both", "lev"):
            offer = by_kind[kind]
            if offer is not None and tech - offer.points >= keep:
                return [Trade(offer.points)]
        top = max(o.points for o in tr.offers)
        if self.r.caps.tech and tech >= self.r.caps.tech - top:  # do not waste points
            offer = by_kind["both"] or by_kind["lev"]
            if offer is not None:
                return [Trade(offer.points)]
        return []

    def plan_bombs(self, attacks: list[Attack]) -> list[Bomb]:
        """Fire the missiles of each own province at the enemy (or, before an attack,
        the neutral) target in reach with the most armies, attack targets first."""
        w, r = self.w, self.r
        hit = {a.target for a in attacks}
        out: list[Bomb] = []
        for p in self.own:
            if w.mis[p] == 0 or len(out) >= r.limits.bomb_orders:
                continue
            reach = [
                t
                for t in sorted(w.adj_sets[p] | w.far[p])
                if self.allowed(t) and (self.is_enemy(t) or t in hit) and w.arm[t]
            ]
            if reach:
                t = max(reach, key=lambda q: (q in hit, q in w.adj_sets[p], w.arm[q], -q))
                out.append(Bomb(p, t, min(w.mis[p], r.limits.bomb_missiles)))
        return out

    def plan_upgrades(self) -> list[Upgrade]:
        if not self.r.upgrades.kinds:
            return []
        gold = self.me.gold
        eff = self.me.eff
        tech = self.me.tech
        out: list[Upgrade] = []
        for cost in self.r.upgrades.costs:
            if gold < cost:
                break
            if eff < self.bot.eff_floor:
                out.append(Upgrade("EFF"))
                eff += self.r.upgrades.eff
            elif tech < self.bot.tech_target:
                out.append(Upgrade("TECH"))
                tech += 1
            else:
                out.append(Upgrade("LEV"))
            gold -= cost
        return out

    def plan_spies(self) -> list[Spy]:
        """Spy Player on the nearest enemy when intel is stale, Spy Province on the
        enemy provinces nearest to us (from any province with spies: far spies may be
        lost on the way)."""
        w = self.w
        out: list[Spy] = []
        spies = {p: w.spy[p] for p in self.own}
        spent = self.r.covert is not None  # WoK IV: one spy an order, no risky Spy Player
        per_op = 1 if spent else 2
        targets = sorted(
            (t for t in range(w.n) if self.is_enemy(t) and self.allowed(t)),
            key=lambda t: (self.distance_from_me(t), t),
        )[:3]
        players_done: set[int] = set()
        for t in targets:
            if len(out) >= self.r.limits.spy_orders:
                break
            o = w.owner[t]
            op = "SPY_PROVINCE"
            stale = self.turn - self.bot_intel_turn(o) >= 3
            if o not in players_done and stale and not spent:
                op = "SPY_PLAYER"
            src = self.spy_source(t, op, spies, per_op)
            if src is None and op == "SPY_PLAYER":
                op = "SPY_PROVINCE"
                src = self.spy_source(t, op, spies, per_op)
            if src is None:
                continue
            if op == "SPY_PLAYER":
                players_done.add(o)
            spies[src] -= per_op
            out.append(Spy(src, t, op, per_op))  # type: ignore[arg-type]
        return out + self.plan_theft(spies, len(out))

    def spy_source(self, t: int, op: str, spies: dict[int, int], need: int) -> int | None:
        """The own province with the most spies (at least `need`) that may run `op` on t:
        any (Standard, or a WoK IV operation that reaches anywhere), else a neighbour of t."""
        cv = self.r.covert
        near_only = cv is not None and op in cv.ops and not cv.ops[op].far
        pool = [p for p in self.own if not near_only or t in self.w.adj_sets[p]]
        src = max(pool, key=lambda p: (spies[p], -p), default=None)
        return src if src is not None and spies[src] >= need else None

    def plan_theft(self, spies: dict[int, int], used: int) -> list[Spy]:
        """WoK IV: spare spies (4 or more in a province) steal POP from the neighbouring
        enemy province with the most POP."""
        w, r = self.w, self.r
        if r.covert is None or "STEAL_POP" not in r.spying.operations:
            return []
        per_spy = r.covert.ops["STEAL_POP"].pop_per_spy
        out: list[Spy] = []
        for p in sorted(self.own, key=lambda q: (-spies[q], q)):
            if used + len(out) >= r.limits.spy_orders or spies[p] < 4:
                break
            targets = [t for t in w.adj[p] if self.is_enemy(t) and self.allowed(t)]
            t = max(targets, key=lambda q: (w.pop[q], -q), default=None)
            if t is None or w.pop[t] < 2 * per_spy:
                continue
            n = min(spies[p], max(1, w.pop[t] // per_spy))
            spies[p] -= n
            out.append(Spy(p, t, "STEAL_POP", n))
        return out

    def distance_from_me(self, t: int) -> int:
        return min((1 for n in self.w.adj[t] if self.w.owner[n] == self.c), default=2)

    def bot_intel_turn(self, colour: int) -> int:
        return self.intel_turns.get(colour, -99)
