"""Building the typed views of `suite.wok.rules.views` from a `WokState`.

Only this module reads the state to make views; what it copies is exactly what the
views' docstrings promise a seat may see (see `views`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from suite.wok.rules.phases import nap_partner
from suite.wok.rules.views import (
    ClockView,
    Figures,
    MapProvince,
    Nap,
    OwnColour,
    PlayerIntel,
    PlayerView,
    ProvinceView,
    Report,
    SeatGroup,
    TopTen,
    VariantView,
    WokMap,
    WokSpectatorView,
    WokView,
)
from suite.wok.rules.world import NEUTRAL, World

if TYPE_CHECKING:
    from suite.wok.rules.state import WokState

LETTERS = "ABC"


def figures(d: dict[str, Any]) -> Figures:
    """A province-contents dict (`World.contents`, intel, reports) as a record."""
    return Figures(
        owner=int(d["owner"]),
        pop=int(d["pop"]),
        wok=int(d["wok"]),
        arm=int(d["arm"]),
        lev=float(d["lev"]),
        def_=float(d["def"]),
        mis=int(d["mis"]),
        spy=int(d["spy"]),
        aim=str(d["aim"]),
        false_orders=bool(d["false_orders"]),
        pik=int(d.get("pik", 0)),
        arc=int(d.get("arc", 0)),
        kni=int(d.get("kni", 0)),
        cat=int(d.get("cat", 0)),
    )


def letter_of(state: WokState, colour: int) -> str:
    """ "A", "B", "C" for colours of multi-colour seats (Duel, Trinity), else ""."""
    if state.variant.colours_per_seat <= 1 or state.world.colours[colour].seat is None:
        return ""
    return LETTERS[state.world.colours[colour].letter]


def wok_map(w: World, name: str) -> WokMap:
    """The board's fixed geometry by province index."""
    provinces = []
    for p, key in enumerate(w.ids):
        node = w.board[key]
        provinces.append(
            MapProvince(
                id=p,
                key=key,
                name=w.names[p],
                neighbours=w.adj[p],
                far=tuple(sorted(w.far[p])),
                polygon=tuple((float(x), float(y)) for x, y in node.polygon),
                label=None if node.label is None else (float(node.label[0]), float(node.label[1])),
                terrain=w.terrain[p],
            )
        )
    return WokMap(name=name, provinces=tuple(provinces))


def mutual_ally(w: World, colour: int) -> int | None:
    """The colour's ally when both declared each other (W13), else None."""
    a = w.colours[colour].ally
    if a is not None and 0 <= a < len(w.colours) and w.colours[a].ally == colour:
        return a
    return None


def players(state: WokState) -> tuple[PlayerView, ...]:
    """What everyone may know of each colour."""
    w = state.world
    counts = province_counts(w)
    return tuple(
        PlayerView(
            colour=i,
            name=c.name,
            seat=c.seat,
            robot=c.seat is None,
            letter=letter_of(state, i),
            alive=c.alive,
            quit=c.quit,
            rip_turn=c.rip_turn,
            ripped_by=c.ripped_by,
            rips=tuple(c.rips),
            provinces=counts[i],
            ally=mutual_ally(w, i),
        )
        for i, c in enumerate(w.colours)
    )


def province_counts(w: World) -> list[int]:
    counts = [0] * len(w.colours)
    for o in w.owner:
        if o != NEUTRAL:
            counts[o] += 1
    return counts


def variant_view(state: WokState) -> VariantView:
    v = state.variant
    names = state.seat_names()
    return VariantView(
        name=v.name,
        protect_home_until=v.protect_home_until,
        alliances=state.alliances_allowed(),
        rips_to_win=v.rips_to_win,
        nap_until=v.nap_until,
        robots=sum(1 for c in state.world.colours if c.seat is None),
        groups=tuple(
            SeatGroup(seat=s, name=names[s], colours=tuple(cs))
            for s, cs in enumerate(state.seat_colours)
        ),
    )


def clock_view(state: WokState) -> ClockView:
    preset = state.rules.clock.get(str(state.clock["preset"]))
    c = state.clock
    return ClockView(
        preset=str(c["preset"]),
        deadline=preset.deadline if preset else 0,
        run_now_after_poke=preset.run_now_after_poke if preset else 0,
        turn=c["turn"],
        deadline_at=None if c["deadline_at"] is None else float(c["deadline_at"]),
        poked_at=None if c["poked_at"] is None else float(c["poked_at"]),
    )


def top_ten(state: WokState) -> tuple[TopTen, ...]:
    return tuple(msgspec.convert(t, TopTen) for t in state.top_ten)


def _public(state: WokState) -> dict[str, Any]:
    """The fields every view shares."""
    return {
        "ruleset": state.rules.name,
        "rules": state.rules,
        "variant": variant_view(state),
        "map": state.map_view(),
        "turn": state.turn,
        "max_turns": state.max_turns,
        "oop": tuple(state.oop),
        "players": players(state),
        "ready": tuple(sorted(state.ready)),
        "awaiting": tuple(sorted(state.awaiting())),
        "votes": tuple(sorted(state.votes)),
        "top_ten": top_ten(state),
        "clock": clock_view(state),
        "outcome": state.outcome_,
    }


def spectator_view(state: WokState, *, reveal: bool | None = None) -> WokSpectatorView:
    """Public facts and ownership only while the game runs. Once it is over nothing is
    secret: every province's figures, dated the last turn (`reveal` forces either; the
    replay history of a finished game reveals every turn)."""
    w = state.world
    if reveal is None:
        reveal = state.outcome_ is not None
    provinces = tuple(
        ProvinceView(
            id=p,
            owner=w.owner[p],
            home=w.home[p],
            figures=figures(w.contents(p)) if reveal else None,
            seen=state.turn if reveal else None,
        )
        for p in range(w.n)
    )
    return WokSpectatorView(provinces=provinces, **_public(state))


def _intel(state: WokState, mine: list[int]) -> tuple[dict[int, dict[str, Any]], dict[int, Any]]:
    """The newest province and player intel over the seat's colours."""
    provinces: dict[int, dict[str, Any]] = {}
    players_seen: dict[int, dict[str, Any]] = {}
    for c in mine:
        for p, seen in state.province_intel.get(c, {}).items():
            if p not in provinces or seen["turn"] > provinces[p]["turn"]:
                provinces[p] = seen
        for o, seen in state.player_intel.get(c, {}).items():
            if o not in players_seen or seen["turn"] > players_seen[o]["turn"]:
                players_seen[o] = seen
    return provinces, players_seen


def _own_colour(state: WokState, c: int, counts: list[int]) -> OwnColour:
    w = state.world
    col = w.colours[c]
    nap = None
    partner = nap_partner(w, state.variant, c, state.turn)
    if partner is not None:
        until = state.variant.nap_until[col.letter]
        nap = Nap(
            partner=partner,
            partner_name=w.colours[partner].name,
            until=until,
            turns_left=until - state.turn,
        )
    return OwnColour(
        colour=c,
        name=col.name,
        letter=letter_of(state, c),
        alive=col.alive,
        eff=col.eff,
        gold=col.gold,
        tech=col.tech,
        score=w.score(c) if col.alive else 0,
        provinces=counts[c],
        attacks_allowed=state.rules.attacks_allowed(col.tech),
        upgrade_costs=state.rules.upgrades.costs,
        homes=tuple(p for p in range(w.n) if w.home[p] == c),
        ally=col.ally,
        nap=nap,
        wood=col.wood,
    )


def _player_intel(o: int, d: dict[str, Any]) -> PlayerIntel:
    return PlayerIntel(
        colour=o,
        turn=int(d["turn"]),
        provinces=int(d["provinces"]),
        pop=int(d["pop"]),
        wok=int(d["wok"]),
        arm=int(d["arm"]),
        mis=int(d["mis"]),
        spy=int(d["spy"]),
        lev=float(d["lev"]),
        def_=float(d["def"]),
        eff=int(d["eff"]),
        gold=int(d["gold"]),
        tech=int(d["tech"]),
    )


def seat_view(state: WokState, seat: int) -> WokView:
    """Everything `seat` may see (see `suite.wok.rules.views`)."""
    w = state.world
    mine = state.seat_colours[seat]
    own = set(mine)
    seen_provinces, seen_players = _intel(state, mine)
    provinces = []
    for p in range(w.n):
        if w.owner[p] in own:
            fig: Figures | None = figures(w.contents(p))
            seen: int | None = state.turn
        elif p in seen_provinces:
            fig = figures(seen_provinces[p])
            seen = int(seen_provinces[p]["turn"])
        else:
            fig, seen = None, None
        provinces.append(
            ProvinceView(id=p, owner=w.owner[p], home=w.home[p], figures=fig, seen=seen)
        )
    counts = province_counts(w)
    from suite.wok.rules.turn import seat_alive

    alive = seat_alive(state, seat)
    return WokView(
        seat=seat,
        limits=state.rules.limits,
        provinces=tuple(provinces),
        alive=alive,
        colours=tuple(_own_colour(state, c, counts) for c in mine),
        player_intel=tuple(_player_intel(o, d) for o, d in sorted(seen_players.items())),
        orders=tuple(state.orders[c] for c in mine if c in state.orders),
        is_ready=seat in state.ready,
        may_submit=alive and state.outcome_ is None and seat not in state.ready,
        reports=tuple(state.report_view(c) for c in mine if c in state.reports),
        **_public(state),
    )


def report_record(d: dict[str, Any]) -> Report:
    """A stored report dict as its typed record."""
    return msgspec.convert(d, Report, strict=False)
