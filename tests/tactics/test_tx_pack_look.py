"""The pack's own look (issue 24, item 7) on a rough map (T16 amended): a copy of the
default pack with its six button strips and The Crags at roughness 255, played on the
battle screen at 800x560 and 1920x1080 (tests/artifacts/tx_pack_buttons_rough_*.png)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from suite.paths import asset
from suite.tactics.assets.bmp import load_bmp, save_bmp
from suite.tactics.assets.elevation import cliff_share
from suite.tactics.rules.packs import get_pack
from suite.tactics.screens.buttons import PACK_BUTTONS, STATES
from suite.tactics.screens.drivers import LiveDriver
from suite.tactics.screens.game import BattleScene
from suite.tactics.screens.match import SeatInfo, battle_config, start_battle
from suite.tactics.screens.profile import TacticsProfile
from suite.ui.harness import Harness

SEATS = [SeatInfo("Commander", "human"), SeatInfo("Bot Ada", "normal")]
STATE_RGB = {
    "normal": (150, 110, 60),
    "hover": (215, 170, 80),
    "pressed": (95, 65, 35),
    "disabled": (90, 90, 90),
}


def nearest(palette: np.ndarray, rgb: tuple[int, int, int]) -> int:
    return int(np.argmin(((palette[:, :3].astype(int) - rgb) ** 2).sum(axis=1)))


def button_strip(palette: np.ndarray, mark: int, side: int = 48) -> np.ndarray:
    """Four framed frames side by side; `mark` picks the glyph (stripes in a direction)."""
    frames = []
    yy, xx = np.mgrid[0:side, 0:side]
    for state in STATES:
        frame = np.full((side, side), 6, dtype=np.uint8)
        inside = (xx >= 3) & (xx < side - 3) & (yy >= 3) & (yy < side - 3)
        frame[inside] = nearest(palette, STATE_RGB[state])
        edge = inside & ((xx < 6) | (xx >= side - 6) | (yy < 6) | (yy >= side - 6))
        frame[edge] = nearest(palette, (40, 30, 20))
        glyph = [
            (xx - side // 2) ** 2 + (yy - side // 2) ** 2 < (side // 5) ** 2,
            np.abs(xx - yy) < 4,
            np.abs(xx + yy - side) < 4,
            (np.abs(xx - side // 2) < 3) | (np.abs(yy - side // 2) < 3),
            (xx > side // 3) & (xx < side // 2) & (np.abs(yy - side // 2) < xx - side // 3),
            (xx < 2 * side // 3) & (xx > side // 2) & (np.abs(yy - side // 2) < 2 * side // 3 - xx),
        ][mark]
        frame[glyph & inside & ~edge] = nearest(palette, (245, 235, 200))
        frames.append(frame)
    return np.concatenate(frames, axis=1)


@pytest.fixture(scope="module")
def rough_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("look") / "pack"
    shutil.copytree(asset("tactics"), root)
    palette = load_bmp(root / "tiles" / "grass.bmp").palette
    (root / "buttons").mkdir()
    for mark, stem in enumerate(PACK_BUTTONS.values()):
        save_bmp(root / "buttons" / f"{stem}.bmp", button_strip(palette, mark), palette)
    ini = (root / "tactics_ini.txt").read_bytes().replace(b"roughness = 96", b"roughness = 255")
    (root / "tactics_ini.txt").write_bytes(ini)
    return root


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_pack_buttons_on_a_rough_map(
    rough_pack: Path, artifacts: Path, size: tuple[int, int]
) -> None:
    pack = get_pack(str(rough_pack))
    crags = pack.grids[4]
    assert cliff_share(crags.elevation, 32) >= 0.2  # T16: roughness 255 walls off paths
    with Harness(size=size) as h:
        config = battle_config(
            SEATS, pack=str(rough_pack), map_id=4, pieces_per_turn=0, army_size=6
        )
        scene = BattleScene(
            h.app, LiveDriver(start_battle(config, SEATS, 3)), SEATS, TacticsProfile()
        )
        h.push(scene)
        h.frames(5)
        assert all(tool.strip is not None for tool in scene.tools if tool.name in PACK_BUTTONS)
        assert all(tool.strip is None for tool in scene.tools if tool.name not in PACK_BUTTONS)
        end = next(t for t in scene.tools if t.name == "end_turn")
        h.move(end.rect.center)
        h.frames(2)
        assert end.state in ("hover", "disabled")
        screen = h.app.screen.get_rect()
        assert all(screen.contains(tool.rect) for tool in scene.tools)
        h.screenshot(artifacts / f"tx_pack_buttons_rough_{size[0]}x{size[1]}.png")
