"""Typed WoK views: what one seat (`WokView`) or a spectator (`WokSpectatorView`) may see.

A seat sees every province's owner, its own provinces' full figures (dated this turn),
what its spies saw of others (dated the turn seen), its own colours' EFF, gold, tech,
score, attack limit, upgrade costs and NAPs, its own draft orders and ready flag, its
turn reports, and the public facts: the map, the Order of Play, who is ready, mutual
alliances, RIPs, the Top Ten, the turn clock and the rule set (rules are public). It never
sees another seat's orders, one-sided alliance declarations or fogged figures. A
spectator sees the public facts and ownership only while the game runs; once it is over
nothing is secret and the spectator sees every province's figures. Every record encodes
to JSON with msgspec and decodes back equal.
"""

from __future__ import annotations

from typing import Any

import msgspec

from suite.core.match import Outcome, View
from suite.wok.rules.orders import OrderSet
from suite.wok.rules.ruleset import Limits, RuleSet


class _Rec(msgspec.Struct, frozen=True, kw_only=True):
    """Base of the view's records."""


class Figures(_Rec, frozen=True, kw_only=True):
    """A province's contents as seen (DEF in points, e.g. 1.5); `pik`..`cat` are
    Intermediate's upgraded troops (0 under Standard rules)."""

    owner: int
    pop: int
    wok: int
    arm: int
    lev: float
    def_: float = msgspec.field(name="def")
    mis: int
    spy: int
    aim: str
    false_orders: bool
    pik: int = 0
    arc: int = 0
    kni: int = 0
    cat: int = 0

    def troops(self) -> int:
        """All troops (ARM and Intermediate's upgraded types)."""
        return self.arm + self.pik + self.arc + self.kni + self.cat


class ProvinceView(_Rec, frozen=True, kw_only=True):
    """One province: its owner (-1 neutral), the colour it is the start province of (-1
    none), and figures when known: `seen` is the turn they date from (the current turn
    for the seat's own provinces), both None when the seat knows nothing."""

    id: int
    owner: int
    home: int
    figures: Figures | None = None
    seen: int | None = None


class MapProvince(_Rec, frozen=True, kw_only=True):
    """A province's fixed geometry: board id, name, land neighbours, long-range reach and
    its terrain (Intermediate; "" under Standard rules)."""

    id: int
    key: str
    name: str
    neighbours: tuple[int, ...]
    far: tuple[int, ...]
    polygon: tuple[tuple[float, float], ...]
    label: tuple[float, float] | None
    terrain: str = ""


class WokMap(_Rec, frozen=True, kw_only=True):
    """The board as a screen draws it (never changes during a game)."""

    name: str
    provinces: tuple[MapProvince, ...]


class PlayerView(_Rec, frozen=True, kw_only=True):
    """What everyone knows of a colour; `ally` only when the alliance is mutual."""

    colour: int
    name: str
    seat: int | None
    robot: bool
    letter: str
    alive: bool
    quit: bool
    rip_turn: int | None
    ripped_by: int | None
    rips: tuple[int, ...]
    provinces: int
    ally: int | None


class Nap(_Rec, frozen=True, kw_only=True):
    """An automatic NAP (S14): with `partner` until the start of turn `until`."""

    partner: int
    partner_name: str
    until: int
    turns_left: int


class OwnColour(_Rec, frozen=True, kw_only=True):
    """One of the seat's colours with its player-wide figures and this turn's limits.

    `tech` is tech levels or tech points as the rule set's `tech_kind` says (WoK IV:
    points); `gold` is 0 in a rule set without gold (`RuleSet.uses_gold`).
    `attacks_allowed` is how many attack orders can run this turn (more may be entered,
    up to the entry limit); `upgrade_costs` are the prices of the 1st, 2nd, ... upgrade;
    `ally` is this colour's own declaration (mutual or not).
    """

    colour: int
    name: str
    letter: str
    alive: bool
    eff: int
    gold: int
    tech: int
    score: int
    provinces: int
    attacks_allowed: int
    upgrade_costs: tuple[int, ...]
    homes: tuple[int, ...]
    ally: int | None
    nap: Nap | None
    wood: int = 0


class PlayerIntel(_Rec, frozen=True, kw_only=True):
    """A Spy Player result on another colour, dated `turn`."""

    colour: int
    turn: int
    provinces: int
    pop: int
    wok: int
    arm: int
    mis: int
    spy: int
    lev: float
    def_: float = msgspec.field(name="def")
    eff: int
    gold: int
    tech: int


class SeatGroup(_Rec, frozen=True, kw_only=True):
    """A seat and the colours it gives orders for (Duel A-B-C, Trinity A-B)."""

    seat: int
    name: str
    colours: tuple[int, ...]


class VariantView(_Rec, frozen=True, kw_only=True):
    """The variant's set-up and victory figures; `alliances` says whether this game
    records alliances (W13: the variant allows them and enough players started)."""

    name: str
    protect_home_until: int
    alliances: bool
    rips_to_win: int
    nap_until: tuple[int, ...]
    robots: int
    groups: tuple[SeatGroup, ...]


class ClockView(_Rec, frozen=True, kw_only=True):
    """The W12 turn clock: the preset's figures and the current turn's marks (seconds)."""

    preset: str
    deadline: int
    run_now_after_poke: int
    turn: int | None
    deadline_at: float | None
    poked_at: float | None


class TopTen(_Rec, frozen=True, kw_only=True):
    colour: int
    name: str
    score: int


class Battle(_Rec, frozen=True, kw_only=True):
    """One battle: armies sent and defending, powers, rounds and losses (W6); with troop
    types (Intermediate) the troops sent and defending by type. `patt` and `pdef` are
    the powers per army before any terrain bonus."""

    attacker: int
    defender: int
    source: int
    target: int
    sent: int
    defenders: int
    patt: float
    pdef: float
    rounds: int
    a_lost: int
    a_injured: int
    d_lost: int
    d_injured: int
    won: bool
    troops_sent: dict[str, int] | None = None
    troops_defending: dict[str, int] | None = None
    def_worn: float | None = None


class BombingReport(_Rec, frozen=True, kw_only=True):
    """A bombing run; for the bombed colour `by`, `source` and `range` are None unless
    the rule set's `bombing.target_sees` reveals them (WoK IV: `detected` says whether
    the bombed province detected the source, which then shows)."""

    owner: int
    target: int
    fired: int
    hits: int
    destroyed: dict[str, float]
    by: int | None = None
    source: int | None = None
    range: str | None = None
    detected: bool | None = None


class SpyReport(_Rec, frozen=True, kw_only=True):
    """A spy operation; the spied-on colour sees neither the spy's player nor source
    (WoK IV: unless its province `detected` the source). `eff_change` is WoK IV's K2
    EFF change of the spy's owner (`by`) and of the target's owner (`owner`)."""

    owner: int
    target: int
    op: str
    success: bool
    caught_by_defence: int
    caught: int
    by: int | None = None
    source: int | None = None
    sent: int | None = None
    range: str | None = None
    returned: int | None = None
    lost_on_way: int | None = None
    result: dict[str, Any] | None = None
    detected: bool | None = None
    eff_change: dict[str, int] | None = None


class IntelReport(_Rec, frozen=True, kw_only=True):
    op: str
    target: int
    seen: dict[str, Any]


class UpgradeReport(_Rec, frozen=True, kw_only=True):
    """An upgrade bought (`kind` TECH, EFF, ...; cost in GOLD) or, Intermediate, a troop
    upgrade (`kind` "ARM->KNI", cost in WOOD, negative for a refund, and `amount`)."""

    kind: str
    cost: int
    amount: int | None = None


class TradeReport(_Rec, frozen=True, kw_only=True):
    """A WoK IV tech trade: the points paid, the points left and what it gave in all
    (DEF and MIS/SPY summed over the provinces, the LEV raise, the EFF gained)."""

    points: int
    tech_left: int
    gave: dict[str, float]


class Cancelled(_Rec, frozen=True, kw_only=True):
    """An order that could not run: its phase, its number in that phase and why."""

    phase: str
    order: int
    detail: Any
    reason: str


class RipReport(_Rec, frozen=True, kw_only=True):
    colour: int
    by: int
    province: int


class Report(_Rec, frozen=True, kw_only=True):
    """What one colour learned from one turn (see `suite.wok.rules.reports`)."""

    turn: int
    colour: int
    provinces_before: dict[int, Figures]
    provinces_after: dict[int, Figures]
    battles: tuple[Battle, ...]
    bombings: tuple[BombingReport, ...]
    spying: tuple[SpyReport, ...]
    intel: tuple[IntelReport, ...]
    upgrades: tuple[UpgradeReport, ...]
    cancelled: tuple[Cancelled, ...]
    rips: tuple[RipReport, ...]
    next_oop: tuple[int, ...]
    top_ten: tuple[TopTen, ...]
    trades: tuple[TradeReport, ...] = ()


class WokPublic(View, frozen=True, kw_only=True):
    """The public facts every view holds: map, owners, players, Order of Play, ready
    seats, Top Ten, clock."""

    ruleset: str
    rules: RuleSet
    variant: VariantView
    map: WokMap
    turn: int
    max_turns: int
    oop: tuple[int, ...]
    players: tuple[PlayerView, ...]
    provinces: tuple[ProvinceView, ...]
    ready: tuple[int, ...]
    awaiting: tuple[int, ...]
    votes: tuple[int, ...]
    top_ten: tuple[TopTen, ...]
    clock: ClockView
    outcome: Outcome | None


class WokSpectatorView(WokPublic, frozen=True, kw_only=True, tag="wok_spectator"):
    """The public facts; once the game is over, every province's figures too (dated the
    last turn)."""


class WokView(WokPublic, frozen=True, kw_only=True, tag="wok"):
    """One seat's view: the public facts plus its own colours, intel, drafts and reports.

    `limits` are the entry limits (orders per phase, most units per order); `orders` are
    the seat's drafts this turn; `is_ready` locks them until the seat sends
    `SetReady(False)`; `may_submit` says whether new orders are accepted now.
    """

    seat: int
    limits: Limits
    alive: bool
    colours: tuple[OwnColour, ...]
    player_intel: tuple[PlayerIntel, ...]
    orders: tuple[OrderSet, ...]
    is_ready: bool
    may_submit: bool
    reports: tuple[Report, ...]

    def own(self) -> frozenset[int]:
        """The seat's colours that are still alive."""
        return frozenset(c.colour for c in self.colours if c.alive)


WokViews = WokView | WokSpectatorView
