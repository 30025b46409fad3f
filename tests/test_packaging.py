"""A wheel of the project installs into a new virtual environment and finds its assets.

The wheel is built from a copy of the sources (so no build/ or egg-info folder of the
work tree can leak into it), without build isolation when the running environment has
setuptools >= 77 (the dev extra installs it), so the test works offline. The new
environment reuses this environment's installed dependencies through a .pth file and gets
only the wheel itself installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "README.md", "suite", "assets")
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.egg-info", ".*")


def setuptools_is_recent() -> bool:
    try:
        return int(version("setuptools").split(".")[0]) >= 77
    except Exception:
        return False


def run(*cmd: str | Path, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    result = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, f"{cmd} failed:\n{result.stdout}\n{result.stderr}"
    return result


def asset_files(folder: Path) -> set[str]:
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def wheel_install(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, set[str]]:
    """(the wheel, the new venv, the asset files of the copied sources)."""
    tmp = tmp_path_factory.mktemp("packaging")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=JUNK)
        else:
            shutil.copy2(path, src / name)
    assets = asset_files(src / "assets")

    dist = tmp / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, "."]
    if setuptools_is_recent():
        build[5:5] = ["--no-build-isolation", "--no-index"]
    run(*build, cwd=src, timeout=300)  # mypyc compiles the hot modules (setup.py)
    (wheel,) = dist.glob("warsuite-*.whl")

    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
        "--no-index", wheel, cwd=tmp)  # fmt: skip
    # Reuse this environment's dependencies; written after the install so pip never sees
    # (or touches) the project installed here.
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp)
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site.stdout.strip(), "deps-from-dev-venv.pth").write_text(
        "\n".join(sorted(deps)) + "\n", encoding="utf-8"
    )
    return wheel, venv, assets


def test_the_wheel_ships_the_assets(wheel_install: tuple[Path, Path, set[str]]) -> None:
    wheel, _, assets = wheel_install
    names = set(zipfile.ZipFile(wheel).namelist())
    assert assets, "the repository has an assets/ folder with files"
    missing = {a for a in assets if f"suite/assets/{a}" not in names}
    assert not missing, f"assets missing from the wheel: {sorted(missing)[:10]}"
    assert "suite/core/match.py" in names and "suite/cli.py" in names
    # the web client `make` built ships as package data, so `suite serve` serves it
    built = ROOT / "suite" / "net" / "server" / "webroot"
    web = {p.relative_to(ROOT).as_posix() for p in built.rglob("*") if p.is_file()}
    assert "suite/net/server/webroot/index.html" in web, "make builds the web client first"
    assert web <= names, f"web client files missing from the wheel: {sorted(web - names)}"
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "suite = suite.cli:main" in text and "[warsuite.games]" in text


def test_the_installed_command_runs(wheel_install: tuple[Path, Path, set[str]]) -> None:
    _, venv, _ = wheel_install
    result = run(venv / "bin" / "suite", "--help", cwd=venv)
    assert "usage: suite" in result.stdout
    assert "sim" in result.stdout


def test_the_installed_engine_is_compiled_where_a_compiler_is(
    wheel_install: tuple[Path, Path, set[str]],
) -> None:
    _, venv, _ = wheel_install
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the wheel holds plain modules")
    if os.environ.get("SUITE_PURE_PYTHON", "") not in ("", "0"):
        pytest.skip("SUITE_PURE_PYTHON is set")
    probe = "import suite.worldwar.rules.engine as e; print(e.__file__)"
    result = run(venv / "bin" / "python", "-c", probe, cwd=venv)
    engine = Path(result.stdout.strip())
    assert engine.is_relative_to(venv) and engine.suffix == ".so", engine


def test_the_installed_package_finds_its_assets(
    wheel_install: tuple[Path, Path, set[str]],
) -> None:
    _, venv, assets = wheel_install
    probe = (
        "import json, suite, suite.paths as p; "
        "print(json.dumps([suite.__file__, str(p.assets_dir()), str(p.asset('x', 'y'))]))"
    )
    result = run(venv / "bin" / "python", "-c", probe, cwd=venv)
    module, assets_dir, nested = (Path(x) for x in json.loads(result.stdout))
    assert module.is_relative_to(venv), f"suite imported from {module}, not the new venv"
    assert assets_dir == module.parent / "assets"
    assert nested == assets_dir / "x" / "y"
    assert asset_files(assets_dir) == assets


def test_paths_in_the_source_tree() -> None:
    from suite import paths

    assert paths.assets_dir() == ROOT / "assets"
    assert paths.asset("theme") == ROOT / "assets" / "theme"
    data, config = paths.user_data_dir(), paths.user_config_dir()
    # tests/conftest.py points XDG_* at a private folder for every test.
    assert data == Path(os.environ["XDG_DATA_HOME"]) / "warsuite" and data.is_dir()
    assert config == Path(os.environ["XDG_CONFIG_HOME"]) / "warsuite" and config.is_dir()
