"""What a World War room tells a client about its map, from the engine's own data.

A client draws a room's board, lists the maps a room may name and shows an attack's odds
from these answers, never from a copy of its own, so no player needs the host's files and
no rule is written twice:

- `board_pages`: the room's board (`suite.core.board.Board`) as `board` messages, its
  territories split into pages that each fit in a message (`BOARD_PAGE` bytes), with the
  links to draw where neighbours do not touch (`boardshapes`); a Domination map's
  picture and index image are published by the web part under content-addressed URLs;
- `map_list`: the maps of the server's `MapBook` for a game;
- `odds`: `suite.worldwar.rules.odds` for the room's dice rules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, get_args, get_type_hints

import msgspec

from suite.core.board import Board
from suite.net import protocol as P
from suite.net.server.boardshapes import Pair, drawn_links, published_index
from suite.net.server.configs import MapBook
from suite.net.server.errors import Refused

if TYPE_CHECKING:
    from suite.worldwar.rules.data import Battle

BOARD_PAGE = 48 * 1024
"""Bytes of territories one `board` message carries at most (under `P.MAX_MESSAGE`)."""
_encoder = msgspec.json.Encoder()


def _territory(board: Board, node_id: str, links: tuple[str, ...]) -> P.BoardTerritory:
    node = board.nodes[node_id]
    return P.BoardTerritory(
        id=node.id,
        name=node.name,
        region=node.region,
        neighbours=node.neighbours,
        sea_lanes=node.sea_lanes,
        polygon=tuple((round(x, 1), round(y, 1)) for x, y in node.polygon),
        label=None if node.label is None else (round(node.label[0], 1), round(node.label[1], 1)),
        links=links,
    )


def board_pages(
    code: str, board: Board, artwork: P.BoardArtwork | None, touching: frozenset[Pair] | None
) -> tuple[P.Board, ...]:
    """The board as `board` messages in board order, each under the message limit, with
    the links to draw (`boardshapes.drawn_links`, judged on `touching` when the artwork's
    index image gave it)."""
    links = drawn_links(board, touching)
    regions = tuple(
        P.BoardRegion(id=r.id, name=r.name, bonus=r.bonus, colour=r.colour)
        for r in board.regions.values()
    )
    pages: list[list[P.BoardTerritory]] = [[]]
    used = 0
    for node_id in board.ids():
        territory = _territory(board, node_id, links.get(node_id, ()))
        size = len(_encoder.encode(territory)) + 1
        if pages[-1] and used + size > BOARD_PAGE:
            pages.append([])
            used = 0
        pages[-1].append(territory)
        used += size
    return tuple(
        P.Board(
            code=code,
            name=board.name,
            page=index,
            pages=len(pages),
            regions=regions,
            territories=tuple(page),
            artwork=artwork,
        )
        for index, page in enumerate(pages)
    )


def artwork_of(
    board: Board, publish: Callable[[Path], str | None], publish_bytes: Callable[[bytes, str], str]
) -> tuple[P.BoardArtwork | None, frozenset[Pair] | None]:
    """A Domination board's picture (its `[files]` pic beside the `.map`), published,
    with its index image (`[files]` map) published as `boardshapes.index_png` and the
    territory pairs that touch in it; (None, None) when the board has no picture that
    can be read (an index image that cannot be read: no index, no pairs)."""
    from suite.worldwar.rules.domination import artwork_files

    source = board.source
    if source is None or not source.lower().endswith(".map"):
        return None, None
    files = artwork_files(Path(source))
    if files is None:
        return None, None
    picture = files[0]
    try:
        with picture.open("rb") as fh:
            head = fh.read(64 * 1024)
    except OSError:
        return None, None
    size = image_size(head)
    url = publish(picture) if size is not None else None
    if url is None or size is None:
        return None, None
    found = published_index(board, files[1], size, publish_bytes)
    art = P.BoardArtwork(
        url=url, width=size[0], height=size[1], index=None if found is None else found[0]
    )
    return art, None if found is None else found[1]


def image_size(head: bytes) -> tuple[int, int] | None:
    """The pixel size a PNG, GIF, BMP or JPEG file's first bytes declare (None: none of
    those, or unreadable)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
    if head.startswith(b"BM") and len(head) >= 26:
        return int.from_bytes(head[18:22], "little"), abs(
            int.from_bytes(head[22:26], "little", signed=True)
        )
    if head.startswith(b"\xff\xd8"):
        at = 2
        while at + 9 < len(head):
            if head[at] != 0xFF:
                return None
            marker = head[at + 1]
            length = int.from_bytes(head[at + 2 : at + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD):
                height = int.from_bytes(head[at + 5 : at + 7], "big")
                width = int.from_bytes(head[at + 7 : at + 9], "big")
                return width, height
            at += 2 + length
    return None


def map_list(maps: MapBook, game: str) -> P.MapList:
    """The set-up choices of a room of `game`: its maps and the values its config takes
    (Refused `unknown_game` for a game without maps of its own)."""
    if game == "wok":
        return _wok_choices(maps)
    if game != "worldwar":
        raise Refused("unknown_game", "only World War and WoK rooms choose among maps")
    from suite.net.server.configs import GENERATED, MAX_CONTINENTS
    from suite.worldwar.rules.cards import CARD_MODES
    from suite.worldwar.rules.config import WorldWarConfig
    from suite.worldwar.rules.data import default_rules
    from suite.worldwar.rules.domination import map_title
    from suite.worldwar.rules.maps import FILE_KINDS

    hints = get_type_hints(WorldWarConfig)

    entries = [
        P.MapEntry(name=name, title="Classic world", kind=name) for name in maps.shipped(game)
    ]
    for name, path in maps.host_maps(game).items():
        kind = FILE_KINDS.get(path.suffix.lower(), "json")
        title = map_title(path) if kind == "domination" else name.replace("_", " ")
        entries.append(P.MapEntry(name=name, title=title[: P.MAX_NAME * 2], kind=kind))
    entries.append(P.MapEntry(name="random", title="Generated", kind="random"))
    return P.MapList(
        game=game,
        maps=tuple(entries[: P.MAX_MAPS]),
        territories=GENERATED[game],
        continents=(1, MAX_CONTINENTS),
        cards=tuple(CARD_MODES),
        clocks=tuple(default_rules().clock.choices),
        modes=get_args(hints["mode"]),
        defenders=get_args(hints["defender"]),
    )


def _wok_choices(maps: MapBook) -> P.MapList:
    """WoK's set-up: shipped, the host's and generated maps, every rule set with its
    variants and clock presets, the turn limit and headhunting ranges."""
    from suite.net.server.configs import GENERATED, RANGES
    from suite.wok.rules.config import NAME_LIMIT, SEAT_NAMES, known_rulesets
    from suite.wok.rules.maps import SHIPPED, TITLES
    from suite.wok.rules.ruleset import load_ruleset

    entries = [
        P.MapEntry(name=name, title=TITLES.get(name, name), kind="shipped", provinces=n, players=k)
        for name, (n, k) in sorted(SHIPPED.items(), key=lambda kv: kv[1])
    ]
    for name, path in maps.host_maps("wok").items():
        kind = "tiled" if path.suffix.lower() == ".tmx" else "json"
        entries.append(P.MapEntry(name=name, title=name.replace("_", " "), kind=kind))
    entries.append(P.MapEntry(name="random", title="Generated", kind="random"))
    order = ["skirmish", "duel", "trinity"]
    rulesets = []
    for name in sorted(known_rulesets(), key=lambda n: (n != "standard", n)):
        rules = load_ruleset(name)
        variants = sorted(rules.variants, key=lambda v: (order.index(v) if v in order else 9, v))
        rulesets.append(
            P.RuleSetEntry(
                name=name,
                title=rules.title,
                summary=rules.summary,
                variants=tuple(
                    P.VariantEntry(
                        name=v,
                        summary=rules.variants[v].summary,
                        seats=rules.variants[v].seats,
                        colours_per_seat=rules.variants[v].colours_per_seat,
                        robots=rules.variants[v].robots,
                        protect_home_until=rules.variants[v].protect_home_until,
                    )
                    for v in variants
                ),
                clocks=tuple(
                    P.ClockEntry(name=k, deadline=c.deadline)
                    for k, c in sorted(rules.clock.items(), key=lambda kv: kv[1].deadline)
                ),
            )
        )
    return P.MapList(
        game="wok",
        maps=tuple(entries[: P.MAX_MAPS]),
        territories=GENERATED["wok"],
        rulesets=tuple(rulesets),
        max_turns=RANGES["wok"]["max_turns"],
        headhunting=RANGES["wok"]["headhunting_turns"],
        names=SEAT_NAMES,
        name_limit=NAME_LIMIT,
    )


def odds(code: str, dice: Battle, attackers: int, defenders: int) -> P.Odds:
    """The odds of attacking to the end (`suite.worldwar.rules.odds`) under the room's
    dice rules `dice`; Refused `bad_odds` outside 1..`P.MAX_ODDS_ARMIES`."""
    from suite.worldwar.rules.odds import odds_for

    for what, value in (("attackers", attackers), ("defenders", defenders)):
        if not 1 <= value <= P.MAX_ODDS_ARMIES:
            raise Refused("bad_odds", f"{what} must be 1 to {P.MAX_ODDS_ARMIES}, not {value}")
    result = odds_for(dice).battle(attackers, defenders)
    return P.Odds(
        code=code,
        attackers=attackers,
        defenders=defenders,
        win=result.win,
        attacker_loss=result.expected_attacker_loss,
        defender_loss=result.expected_defender_loss,
        exact=result.exact,
    )
