"""The modules setup.py compiles with mypyc: compiled and current where a C compiler is,
and the same game as plain Python.

- Where a C compiler exists (and SUITE_PURE_PYTHON is not set), every module of setup.py's
  COMPILED list is imported from its compiled binary, which is newer than its source: a
  stale binary would shadow the source edited since, and the tests would test old code.
- A copy of the sources without the binaries plays World War's golden playthroughs and
  contract tests as plain Python: the compiled and the plain engine are one engine.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def compiled_sources() -> list[Path]:
    """setup.py's COMPILED list (read from the file: running setup.py would build)."""
    namespace: dict[str, object] = {}
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    start = text.index("COMPILED = [")
    exec(text[start : text.index("]", start) + 1], namespace)  # a literal list of paths
    paths = namespace["COMPILED"]
    assert isinstance(paths, list) and paths
    return [ROOT / p for p in paths]


def module_name(source: Path) -> str:
    return ".".join(source.relative_to(ROOT).with_suffix("").parts)


def test_compiled_modules_are_in_use_and_current() -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the plain modules are used")
    if os.environ.get("SUITE_PURE_PYTHON", "") not in ("", "0"):
        pytest.skip("SUITE_PURE_PYTHON is set")
    for source in compiled_sources():
        module = importlib.import_module(module_name(source))
        binary = Path(module.__file__ or "")
        assert binary.suffix == ".so", f"{module.__name__} runs uncompiled from {binary}"
        if binary.parent == source.parent:  # an editable install builds in place
            # The module's code lives in the group's shared library (see setup.py).
            shared = ROOT.glob("suite/compiled__mypyc*.so")
            built = max(p.stat().st_mtime for p in [binary, *shared])
            assert built >= source.stat().st_mtime, (
                f"{binary.name} is older than {source.name}: run `make test` (it reinstalls)"
            )


def test_plain_python_plays_the_same_games(tmp_path: Path) -> None:
    copy = tmp_path / "plain"
    skip = shutil.ignore_patterns("*.so", "__pycache__", "artifacts")
    shutil.copytree(ROOT / "suite", copy / "suite", ignore=skip)
    shutil.copytree(ROOT / "tests", copy / "tests", ignore=skip)
    shutil.copytree(ROOT / "assets", copy / "assets", ignore=skip)
    for source in compiled_sources():
        assert not list((copy / source.relative_to(ROOT)).parent.glob("*.so"))
    probe = "import suite.worldwar.rules.engine as e; assert e.__file__.endswith('.py'), e"
    env = {**os.environ, "PYTHONPATH": str(copy)}
    tests = ["tests/worldwar/test_ww_golden.py", "tests/worldwar/test_ww_fast_paths.py"]
    subprocess.run([sys.executable, "-c", probe], cwd=copy, env=env, check=True)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *tests,
            "tests/contract",
            "-k",
            "worldwar or golden or fast",
        ],  # fmt: skip
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
