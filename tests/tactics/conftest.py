"""Helpers for the tactics asset tests: build small packs on disk from ini text."""

from __future__ import annotations

import wave
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pytest

from suite.tactics.assets.bmp import save_bmp
from suite.tactics.assets.fetch import pack_from_ini
from suite.tactics.assets.files import UnsafePath, check_safe
from suite.tactics.assets.model import START_INDICES, TRANSPARENT_INDEX

if TYPE_CHECKING:  # the screen helper imports pygame only when a screen test calls it
    from suite.tactics.screens.packs import PackScene
    from suite.tactics.screens.setup import SetupScene
    from suite.ui.harness import Harness

# a grey palette whose red component equals the index: elevation bitmaps read back as-is
PALETTE = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)

MakePack = Callable[..., Path]


def tile_image() -> npt.NDArray[np.uint8]:
    img = np.full((128, 128), TRANSPARENT_INDEX, dtype=np.uint8)
    yy, xx = np.mgrid[0:128, 0:128]
    img[(np.abs(xx * 2 - 127) / 128 + np.abs(yy * 2 - 63) / 64) <= 1] = 20
    return img


def skin_image(frames: int = 5, size: int = 32) -> npt.NDArray[np.uint8]:
    img = np.full((size, size * frames), TRANSPARENT_INDEX, dtype=np.uint8)
    img[size // 4 :, :] = 240
    return img


def square_map(size: int, fill: int) -> npt.NDArray[np.uint8]:
    """A map of `fill` with a border ring of 0 and the four starts inside."""
    grid = np.full((size, size), fill, dtype=np.uint8)
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = 0
    spots = ((1, 1), (size - 2, 1), (size - 2, size - 2), (1, size - 2))
    for (x, y), index in zip(spots, START_INDICES, strict=True):
        grid[y, x] = index
    return grid


def write_wav(path: Path) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(11025)
        out.writeframes(bytes([128]) * 200)


def is_safe(name: str) -> bool:
    try:
        check_safe(name)
    except UnsafePath:
        return False
    return True


def build_pack(
    root: Path,
    ini: str,
    images: dict[str, npt.NDArray[np.uint8]] | None = None,
    skip: frozenset[str] = frozenset(),
) -> Path:
    """Write `ini` (CRLF) to root and create every file it names: `images` by relative
    name, otherwise a valid tile, skin, 8x8 map or wav by role; names in `skip` and unsafe
    names are left out."""
    images = images or {}
    root.mkdir(parents=True, exist_ok=True)
    data = ini.replace("\r\n", "\n").replace("\n", "\r\n").encode("cp1252")
    (root / "tactics_ini.txt").write_bytes(data)
    pack = pack_from_ini(data, "tactics_ini.txt")
    roles: dict[str, Callable[[], npt.NDArray[np.uint8]]] = {}
    for tile in pack.tiles.values():
        roles[tile.bitmap] = tile_image
    for piece in pack.pieces.values():
        roles[piece.bitmap] = skin_image
    for info in pack.maps.values():
        roles[info.bitmap] = lambda: square_map(8, 20)
    for name in pack.referenced_files():
        if name in skip or not is_safe(name):
            continue
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".wav"):
            write_wav(path)
        elif name.endswith(".bmp"):
            image = images[name] if name in images else roles[name]()
            save_bmp(path, image, PALETTE)
    for name, image in images.items():
        if not (root / name).exists():
            save_bmp(root / name, image, PALETTE)
    return root


GOOD_INI = """\
[general]
numMaps = 1
version = 1.5
[Tiles]
tile20 = Grass, tiles\\grass, 3, 0
[Sounds]
sound1 = hit, sounds\\hit
[SoundSets]
soundSet1 = hits, 1
[Weapons]
weapon1 = Sword, Melee, Missile, 4, 255, 1, 1, 1, 0
weapon2 = Bow, Missile, Melee, 3, 255, 1, 1, 1, 0
[Pieces]
piece1 = Knight, skins\\knight, 0, 10, 0, 4, 4, 3, 0, 1, 3, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, "", 0
[map1]
name = Field
bitmap = maps\\field
"""


@pytest.fixture
def make_pack(tmp_path: Path) -> MakePack:
    """`make_pack(ini, images=None, skip=frozenset(), name="pack")` -> the pack folder."""

    def make(
        ini: str = GOOD_INI,
        images: dict[str, npt.NDArray[np.uint8]] | None = None,
        skip: frozenset[str] = frozenset(),
        name: str = "pack",
    ) -> Path:
        return build_pack(tmp_path / name, ini, images, skip)

    return make


class Art:
    """The image makers, for tests that need custom bitmaps."""

    palette = PALETTE
    tile = staticmethod(tile_image)
    skin = staticmethod(skin_image)
    square_map = staticmethod(square_map)


@pytest.fixture
def art() -> type[Art]:
    return Art


def type_pack_folder(h: Harness, folder: Path) -> tuple[SetupScene, PackScene]:
    """Open the Book of Tactics, then its pack panel, and type `folder` into it."""
    from suite.tactics.screens import open_setup
    from suite.tactics.screens.packs import PackScene
    from suite.tactics.screens.setup import SetupScene

    setup = h.push(open_setup(h.app))
    assert isinstance(setup, SetupScene)
    h.click(setup.pack_button)
    panel = h.scene
    assert isinstance(panel, PackScene) and panel.entry is not None
    h.click(panel.entry.rect)
    h.type_text(str(folder))
    return setup, panel
