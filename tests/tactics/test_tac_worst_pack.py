"""CPU bounds (issue 24, item 4): the costliest pack limits.toml allows is checked with
every file decoded once (the bench times it; here the work is counted), and packs past the
count limits are refused before any file is decoded."""

from __future__ import annotations

from pathlib import Path

import pytest

from suite.tactics.assets.check import check_pack
from suite.tactics.assets.elevation import reached_starts
from suite.tactics.assets.limits import limits
from suite.tactics.assets.model import MOVE_EARTH
from suite.tactics.assets.pack import load_pack
from suite.tactics.rules.data import load_rules

from .conftest import GOOD_INI, MakePack
from .worst_pack import build_worst_pack


def test_the_worst_pack_decodes_each_file_once(tmp_path: Path) -> None:
    worst = build_worst_pack(tmp_path / "worst")
    rules = limits()
    pack = load_pack(worst.root)
    assert pack.errors == []
    assert len(pack.pieces) == rules.ini.max_pieces and len(pack.sounds) == rules.ini.max_sounds
    assert len(pack.grids) == worst.maps
    # 1,024 pieces name 7 skins: each skin, tile and map is decoded once
    assert pack.decoded.decodes == worst.bitmaps
    assert pack.decoded.pixels <= rules.pack.max_pixels
    step = load_rules().movement.move_elevation_step
    for grid in pack.grids.values():
        walkable = (grid.movement & MOVE_EARTH) != 0
        assert all(reached_starts(grid.elevation, walkable, grid.starts, step))
    # the screens ask again (skins per piece and army): nothing is decoded twice
    from suite.tactics.assets.placeholders import skin_bitmap

    for piece in list(pack.pieces)[:50]:
        assert skin_bitmap(pack, piece).width == worst.skin_size[0]
    assert pack.decoded.decodes == worst.bitmaps


@pytest.mark.parametrize(
    ("section", "prefix", "limit", "what"),
    [
        ("[Pieces]", "piece", "max_pieces", "pieces"),
        ("[Sounds]", "sound", "max_sounds", "sounds"),
        ("[Weapons]", "weapon", "max_weapons", "weapons"),
    ],
)
def test_past_a_count_limit_the_pack_is_refused_before_decoding(
    make_pack: MakePack, section: str, prefix: str, limit: str, what: str
) -> None:
    most = getattr(limits().ini, limit)
    sample = next(line for line in GOOD_INI.splitlines() if line.startswith(f"{prefix}1 ="))
    body = sample.partition("=")[2]
    extra = "\n".join(f"{prefix}{n} ={body}" for n in range(2, most + 2))
    root = make_pack(GOOD_INI.replace(sample, sample + "\n" + extra), name=what)
    pack = load_pack(root)
    assert [p.message for p in pack.errors] == [
        f"tactics_ini.txt holds {most + 1} {what}, past the limit of {most}"
    ]
    assert pack.decoded.decodes == 0 and not pack.grids


def test_maps_past_the_cell_budget_are_not_loaded(
    make_pack: MakePack, monkeypatch: pytest.MonkeyPatch
) -> None:
    import msgspec

    from suite.tactics.assets import pack as pack_module

    shipped = limits()
    small = msgspec.structs.replace(
        shipped, pack=msgspec.structs.replace(shipped.pack, max_map_cells=64)
    )
    monkeypatch.setattr(pack_module, "limits", lambda: small)
    ini = (
        GOOD_INI.replace("numMaps = 1", "numMaps = 2") + "[map2]\nname = Two\nbitmap = maps\\two\n"
    )
    root = make_pack(ini)
    lines: list[str] = []
    assert check_pack(root, lines.append) == 1
    assert any(
        "map 2: the maps before it hold 64 cells, the limit of 64; not loaded" in x for x in lines
    )
    assert sorted(load_pack(root).grids) == [1]
