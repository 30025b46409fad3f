"""What a browser needs to set up and draw a WoS Tactics battle, from the engine's own data.

- `setup_choices`: the Book of Tactics' choices for a pack (maps, pieces, pieces per
  turn, the formation), answered to `tactics_setup_request`;
- `ArtBook`: per battle, the map as the engine loaded it (tiles and heights), the tiles'
  pictures, the skins of the pieces on the field recoloured per army, the sounds, and the
  pack's problems, as a JSON document (`protocol.TacticsArt`) and files named by the
  SHA-256 of their bytes (`/pack/HASH.EXT`, served immutable by `web.WebFront`).

The server converts the pack's 8-bit BMPs to PNG rather than letting the browser decode
them: the decoder, its limits (`limits.toml`), the placeholders for a broken file and the
team recolouring (T14, `suite.tactics.skins`) then exist once, in Python, exactly as the
desktop draws them, and a browser only ever sees PNGs it decodes natively. Sounds are
decoded and checked in full the same way (`suite.tactics.assets.wav`) and served as the
clean PCM copy the desktop's mixer gets, never the pack's file; a sound that fails is left
out (the set stays silent) and the problem is listed. Every file read goes through the
pack's own path checks (`Pack.path`: no name may leave the pack folder), the same as pack
sync's (`suite.net.packsync`).

Building a battle's art costs CPU (numpy and zlib), so the server runs `ArtBook.build` off
its event loop; the result is kept for the last `KEEP` battles (the same bytes are made
again, under the same URLs, when an evicted one is asked for again).
"""

from __future__ import annotations

import base64
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec
import numpy as np

from suite.net import protocol as P
from suite.tactics.assets.model import BORDER_INDEX, TILE_SIZE, Pack
from suite.tactics.assets.placeholders import placeholder_tile, tile_bitmap
from suite.tactics.assets.png import encode_png
from suite.tactics.assets.wav import load_wav
from suite.tactics.skins import FRAME_NAMES, SkinCache, default_style, to_rgba

if TYPE_CHECKING:
    from pathlib import Path

    from suite.tactics.rules.view import TacticsView

KEEP = 16
"""Battles (and packs' army picker pictures) whose art is kept built."""
PIECE_EVENTS = ("ready", "go", "attack", "pain", "death")
WEAPON_EVENTS = {"hit": "set_hit", "miss": "set_miss", "crit": "set_crit"}
NAMED_SETS = ("turn", "win", "lose")
_encoder = msgspec.json.Encoder()


def problems_of(pack: Pack) -> tuple[str, ...]:
    """The pack's problems as a player reads them (errors first, at most
    `P.MAX_PROBLEMS`, each cut to `P.MAX_PROBLEM` characters): the message only, which
    names the file inside the pack, never where the server keeps it."""
    ordered = sorted(pack.problems, key=lambda p: not p.is_error)
    return tuple(p.message[: P.MAX_PROBLEM] for p in ordered[: P.MAX_PROBLEMS])


def short_form(hp: int, strength: int, defense: int, agility: int, mob: int, rng: int) -> str:
    """The original's "17/7": HP + STR + DEF + AGI, then MOB + RANGE."""
    return f"{hp + strength + defense + agility}/{mob + rng}"


def _elevation_text(pack: Pack, map_id: int) -> str:
    from suite.tactics.assets.elevation import height_span

    info = pack.maps.get(map_id)
    if info is not None and info.elevation_bitmap:
        return "elevation bitmap"
    span = 0 if info is None else height_span(info.seed, info.roughness)
    return f"bumpy (roughness {span})" if span else "flat"


def setup_choices(
    pack: Pack,
    name: str | None,
    packs: Iterable[str],
    portraits: dict[int, str] | None = None,
) -> P.TacticsSetup:
    """The Book of Tactics' choices for `pack` (`name`: its folder name on the server,
    None for the shipped one); `packs` the server's pack folder names; `portraits` the
    URL of each piece's picture (`ArtBook.portraits`). Pieces past what fits in one
    message are left out."""
    from suite.tactics.rules.data import load_rules
    from suite.tactics.rules.packs import playable_maps

    rules = load_rules()
    maps = []
    for map_id in playable_maps(pack, 2):
        grid = pack.grids[map_id]
        info = pack.maps.get(map_id)
        maps.append(
            P.TacticsMapEntry(
                id=map_id,
                name=grid.name[: P.MAX_NAME * 2],
                size=grid.size,
                elevation=_elevation_text(pack, map_id),
                starts=sum(s is not None for s in grid.starts),
                author=(info.author if info else "")[: P.MAX_NAME * 2],
                requirements=(info.requirements if info else "")[: P.MAX_NAME],
            )
        )
    pieces = []
    for pid, piece in list(pack.playable_pieces().items())[: P.MAX_SETUP_PIECES]:
        weapon = pack.weapons.get(piece.weapon)
        pieces.append(
            P.TacticsPieceEntry(
                id=pid,
                name=piece.name[: P.MAX_NAME * 2],
                short=short_form(
                    piece.hp,
                    piece.strength,
                    piece.defense,
                    piece.agility,
                    piece.mobility,
                    piece.range,
                ),
                max_count=piece.max_count,
                requirements=piece.requirements[: P.MAX_NAME],
                hp=piece.hp,
                strength=piece.strength,
                defense=piece.defense,
                agility=piece.agility,
                mobility=piece.mobility,
                range=piece.range,
                weapon=(weapon.name if weapon else "")[: P.MAX_NAME],
                portrait=(portraits or {}).get(pid, ""),
            )
        )
    answer = P.TacticsSetup(
        pack=name,
        packs=tuple(sorted(packs))[: P.MAX_PACKS],
        maps=tuple(maps),
        pieces=tuple(pieces),
        pieces_per_turn=tuple(rules.turn.pieces_per_turn_choices),
        default_pieces_per_turn=rules.turn.default_pieces_per_turn,
        formation_side=rules.army.formation_side,
        max_pieces=rules.army.max_pieces,
        max_rounds=rules.turn.max_rounds,
        problems=problems_of(pack),
    )
    while len(P.encode(answer)) > P.MAX_MESSAGE - 1024 and answer.pieces:
        answer = msgspec.structs.replace(
            answer, pieces=answer.pieces[: len(answer.pieces) * 3 // 4]
        )
    return answer


def portraits(pack: Pack, built: Built) -> dict[int, str]:
    """The stand frame of each piece an army may hold (the first `P.MAX_SETUP_PIECES`),
    in red with its shadow, as PNGs kept in `built`: the army picker's pictures."""
    cache = SkinCache(pack)
    stand = FRAME_NAMES.index("stand")
    out = {}
    for pid in list(pack.playable_pieces())[: P.MAX_SETUP_PIECES]:
        frame = cache.frames(pid, 0, shadow=True)[stand]
        out[pid] = built.add(encode_png(np.ascontiguousarray(frame)), "png")
    return out


@dataclass
class Built:
    """One battle's art: its document's URL, its files by name and the pack's problems."""

    url: str
    problems: tuple[str, ...]
    files: dict[str, bytes] = field(default_factory=dict)
    portraits: dict[int, str] = field(default_factory=dict)

    def add(self, data: bytes, suffix: str) -> str:
        """Keep `data` under the hash of its bytes; its URL."""
        name = f"{hashlib.sha256(data).hexdigest()}.{suffix}"
        self.files[name] = data
        return f"/pack/{name}"


@dataclass(frozen=True)
class Battle:
    """What a battle's art depends on (read from its state on the event loop, so the
    worker thread that builds the art never reads a state that changes): the pack, the
    map and the (piece kind, army colour) pairs on the field, sorted."""

    pack: Pack = field(compare=False, hash=False)
    root: str
    map_id: int
    armies: tuple[tuple[int, int], ...]


def battle_of(view: TacticsView) -> Battle:
    """The `Battle` a spectator's `view` shows, with the pack its map names (the folder
    the server's own engine loaded it from, never a client's word: `get_pack` loads each
    once, so this is the room's own pack object; call off the event loop)."""
    from suite.tactics.rules.packs import get_pack

    pack = get_pack(view.map.pack)
    colours = {line.seat: line.colour for line in view.seats}
    armies = tuple(sorted({(piece.kind, colours[piece.owner]) for piece in view.pieces}))
    return Battle(pack=pack, root=str(pack.root), map_id=view.map.map_id, armies=armies)


def build(battle: Battle) -> Built:
    """The art of `battle` (see the module docstring)."""
    pack = battle.pack
    grid = pack.grids[battle.map_id]
    built = Built(url="", problems=problems_of(pack))
    tiles = []
    for index in sorted(int(i) for i in np.unique(grid.tiles) if int(i) != BORDER_INDEX):
        bitmap = tile_bitmap(pack, index)
        if (bitmap.width, bitmap.height) != (TILE_SIZE, TILE_SIZE):
            bitmap = placeholder_tile(bitmap.palette)
        png = encode_png(to_rgba(bitmap.indices, bitmap.palette))
        tile = pack.tiles.get(index)
        name = tile.name if tile else f"tile {index}"
        tiles.append(P.TileArt(index=index, name=name[: P.MAX_NAME * 2], url=built.add(png, "png")))
    skins_cache = SkinCache(pack)
    skins = []
    for kind, army in battle.armies:
        frames = skins_cache.frames(kind, army, shadow=True)
        count, size = int(frames.shape[0]), int(frames.shape[1])
        strip = np.ascontiguousarray(frames.transpose(1, 0, 2, 3).reshape(size, count * size, 4))
        url = built.add(encode_png(strip), "png")
        skins.append(P.SkinArt(piece=kind, army=army, url=url, size=size, frames=count))
    sets: set[int] = set()
    pieces = []
    for kind in sorted({kind for kind, _ in battle.armies}):
        piece = pack.pieces[kind]
        weapon = pack.weapons.get(piece.weapon)
        by_event = {e: s for e, s in piece.sound_sets.items() if s}
        if weapon is not None:
            for event, attr in WEAPON_EVENTS.items():
                value = int(getattr(weapon, attr))
                if value:
                    by_event[event] = value
        sets.update(by_event.values())
        pieces.append(P.PieceArt(kind=kind, name=piece.name[: P.MAX_NAME * 2], sets=by_event))
    named = {
        s.name.strip().lower(): s.id
        for s in pack.sound_sets.values()
        if s.name.strip().lower() in NAMED_SETS
    }
    sets.update(named.values())
    sound_sets = tuple(_sound_set(pack, set_id, built) for set_id in sorted(sets))
    style = default_style()
    art = P.TacticsArt(
        name=grid.name[: P.MAX_NAME * 2],
        size=grid.size,
        tiles=base64.b64encode(np.ascontiguousarray(grid.tiles).tobytes()).decode("ascii"),
        heights=base64.b64encode(np.ascontiguousarray(grid.elevation).tobytes()).decode("ascii"),
        tile_table=tuple(tiles),
        armies=tuple("#{:02x}{:02x}{:02x}".format(*rgb) for rgb in style.armies),
        team_indices=tuple(pack.team_color_indices()),
        frame_names=FRAME_NAMES,
        skins=tuple(skins),
        pieces=tuple(pieces),
        sound_sets=tuple(s for s in sound_sets if s is not None),
        named_sets=named,
    )
    built.url = built.add(_encoder.encode(art), "json")
    return built


def _sound_set(pack: Pack, set_id: int, built: Built) -> P.SoundSetArt | None:
    """Set `set_id` with the URLs of its sounds that decode (None when it has none)."""
    found = pack.sound_sets.get(set_id)
    if found is None:
        return None
    urls = []
    for sound_id in found.sounds:
        record = pack.sounds.get(sound_id)
        if record is None or not record.wav:
            continue
        try:
            wav = load_wav(pack.path(record.wav), record.wav)
        except (OSError, ValueError):
            continue  # the loader listed the problem: this sound stays silent
        urls.append(built.add(wav.canonical(), "wav"))
    return P.SoundSetArt(id=set_id, name=found.name[: P.MAX_NAME], urls=tuple(urls))


class ArtBook:
    """The art of the last `KEEP` battles, and their files by name (the
    web part serves `/pack/NAME` from `file`). Thread-safe: `build_for` runs in a worker
    thread, `file` on the event loop."""

    def __init__(self) -> None:
        self._built: OrderedDict[object, Built] = OrderedDict()
        self._files: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def cached(self, battle: Battle) -> Built | None:
        """The art of `battle` when it is built (no work)."""
        with self._lock:
            return self._built.get(battle)

    def build_for(self, battle: Battle) -> Built:
        """The art of `battle`, built once (call off the event loop)."""
        return self._kept(battle, lambda: build(battle))

    def portraits(self, pack: Pack) -> dict[int, str]:
        """The army picker's pictures of `pack`'s pieces by id (`portraits`), made once
        per pack (call off the event loop)."""

        def make() -> Built:
            made = Built(url="", problems=())
            made.portraits = portraits(pack, made)
            return made

        return self._kept(("portraits", str(pack.root)), make).portraits

    def _kept(self, key: object, make: Callable[[], Built]) -> Built:
        with self._lock:
            found = self._built.get(key)
            if found is not None:
                self._built.move_to_end(key)
                return found
        made = make()
        with self._lock:
            self._built[key] = made
            while len(self._built) > KEEP:
                self._built.popitem(last=False)
            self._files = {n: d for b in self._built.values() for n, d in b.files.items()}
        return made

    def file(self, name: str) -> bytes | None:
        """The bytes named `name` (`HASH.EXT`) of a kept battle, or None."""
        return self._files.get(name)


def server_packs(folder: Path) -> list[str]:
    """The pack folder names in the server's packs folder (none when it is missing)."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
