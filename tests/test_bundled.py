"""The downloaded app's entry (`suite.bundled`) and its build helpers, without building:
the checks before anything runs, the one-sentence messages, the crash log, the menu
entry, the icon generator and the build tool's names. tests/bundle/ runs the real app."""

from __future__ import annotations

import importlib.util
import platform
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pygame
import pytest

import suite.cli
import suite.core.match
import suite.paths
from suite import bundled

ROOT = Path(__file__).resolve().parent.parent


def load_tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_source_tree_passes_the_checks() -> None:
    bundled.check_installation()


def test_a_missing_assets_folder_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(suite.paths, "assets_dir", lambda: tmp_path / "gone")
    assert bundled.main(["sim", "worldwar"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("The suite's assets folder is missing (looked for ")
    assert str(tmp_path / "gone") in err and err.count("\n") == 1


def test_an_incomplete_assets_folder_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme" / "theme.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(suite.paths, "assets_dir", lambda: tmp_path)
    assert bundled.main(["sim", "worldwar"]) == 1
    err = capsys.readouterr().err
    assert "is incomplete (no fonts/NotoSans-Regular.ttf, worldwar/rules)" in err


def test_no_games_means_the_entry_points_are_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(suite.core.match, "registered_games", dict)
    assert bundled.main(["sim", "worldwar"]) == 1
    assert "entry points (warsuite.games) are missing" in capsys.readouterr().err


def test_a_left_out_cluster_backend_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def needs_redis(argv: object, prog: str) -> int:
        raise ModuleNotFoundError("No module named 'redis'", name="redis")

    monkeypatch.setattr(suite.cli, "main", needs_redis)
    assert bundled.main(["serve"]) == 2
    assert "does not include Redis (serve --presence)" in capsys.readouterr().err


def test_an_unexpected_error_is_one_sentence_and_a_crash_log(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(argv: object, prog: str) -> int:
        raise RuntimeError("the floor gave way")

    monkeypatch.setattr(suite.cli, "main", broken)
    assert bundled.main([]) == 1
    err = capsys.readouterr().err
    log = suite.paths.user_data_dir() / bundled.CRASH_LOG
    assert err == (
        "The suite stopped on an unexpected error: RuntimeError: the floor gave way. "
        f"The details are in {log}.\n"
    )
    text = log.read_text(encoding="utf-8")
    assert text.startswith("Traceback") and "the floor gave way" in text


def test_the_command_is_called_warsuite(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        bundled.main(["sim", "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("usage: warsuite sim ")


def desktop_exec(entry: str) -> list[str]:
    """The Exec line of a .desktop file as the argv a desktop runs, by the Desktop Entry
    specification's two steps: the string escapes (a doubled backslash is one), then the
    arguments, split at spaces outside double quotes, where a backslash keeps the next
    `"`, `` ` ``, `$` or backslash as it is."""
    (line,) = [x for x in entry.splitlines() if x.startswith("Exec=")]
    value = line.removeprefix("Exec=").replace("\\\\", "\\")
    args: list[str] = []
    current: list[str] = []
    quoted = started = False
    i = 0
    while i < len(value):
        char = value[i]
        if quoted and char == "\\" and i + 1 < len(value) and value[i + 1] in '"`$\\':
            current.append(value[i + 1])
            i += 1
        elif char == '"':
            quoted, started = not quoted, True
        elif char == " " and not quoted:
            if current or started:
                args.append("".join(current))
            current, started = [], False
        else:
            current.append(char)
        i += 1
    assert not quoted, f"unbalanced quotes in {line!r}"
    if current or started:
        args.append("".join(current))
    return args


def test_the_menu_entry_starts_this_executable_wherever_it_lies(tmp_path: Path) -> None:
    executable = tmp_path / 'odd $name "quoted"' / "warsuite"
    executable.parent.mkdir()
    entry = bundled.install_desktop_entry(executable, tmp_path / "share")
    assert entry == tmp_path / "share" / "applications" / "warsuite.desktop"
    assert desktop_exec(entry.read_text(encoding="utf-8")) == [str(executable)]
    icon = tmp_path / "share" / "icons" / "hicolor" / "256x256" / "apps" / "warsuite.png"
    assert pygame.image.load(str(icon)).get_size() == (256, 256)


def test_the_folder_entry_starts_the_executable_beside_it(tmp_path: Path) -> None:
    folder = tmp_path / "un packed $HOME"
    folder.mkdir()
    script = folder / "warsuite"
    script.write_text('#!/bin/sh\necho "started $0"\n', encoding="utf-8")
    script.chmod(0o755)
    entry = folder / "warsuite.desktop"
    entry.write_text(bundled.DESKTOP_ENTRY.format(exec=bundled.FOLDER_EXEC), encoding="utf-8")
    argv = [str(entry) if a == "%k" else a for a in desktop_exec(entry.read_text("utf-8"))]
    result = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert result.stdout == f"started {script}\n"


def test_the_shipped_icons_are_what_the_tool_makes(tmp_path: Path) -> None:
    tool = load_tool("make_icon")
    made = tool.write_icons(tmp_path)
    assert [p.name for p in made] == ["warsuite.png", "warsuite.ico", "warsuite.icns"]
    for path in made:
        assert path.read_bytes() == (ROOT / "assets" / "icon" / path.name).read_bytes()
    ico = made[1].read_bytes()
    assert ico[:4] == b"\0\0\1\0" and int.from_bytes(ico[4:6], "little") == 7
    assert made[2].read_bytes()[:4] == b"icns"


def test_the_archive_is_named_by_version_and_platform() -> None:
    tool = load_tool("build_bundle")
    machine = platform.machine().lower()
    if sys.platform.startswith("linux"):
        assert tool.platform_tag() == f"linux-{machine}"
        assert tool.archive_name() == f"warsuite-{tool.version()}-linux-{machine}.tar.gz"
    assert tool.fingerprint() == tool.fingerprint()


def test_the_fingerprint_follows_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = load_tool("build_bundle")
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "a.py").write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "INPUTS", ("suite",))
    before = tool.fingerprint()
    (tmp_path / "suite" / "a.py").write_text("A = 2\n", encoding="utf-8")
    assert tool.fingerprint() != before
