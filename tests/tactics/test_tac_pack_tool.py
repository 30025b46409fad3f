"""tools/make_tactics_pack.py: the shipped pack is exactly what the generator makes, and the
preview battlefield renders."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from suite.paths import asset

TOOL = Path(__file__).resolve().parents[2] / "tools" / "make_tactics_pack.py"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_tactics_pack", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def test_generator_reproduces_the_shipped_pack(tool: ModuleType, tmp_path: Path) -> None:
    tool.build(tmp_path)
    shipped = asset("tactics")
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(made) > 40
    # other issues add their own files (rules data) beside the generated ones
    for name in made:
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), name
    total = sum((tmp_path / name).stat().st_size for name in made)
    assert total < 2_000_000


def test_preview_renders(tool: ModuleType, artifacts: Path) -> None:
    pygame = pytest.importorskip("pygame")
    out = artifacts / "tactics_preview_meadow.png"
    tool.render_preview(asset("tactics"), 1, out)
    image = pygame.image.load(str(out))
    background = image.get_at((2, 2))
    middle = image.get_at((image.get_width() // 2, image.get_height() // 2))
    assert middle != background
