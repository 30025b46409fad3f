"""The suite as a downloaded app: the `warsuite` executable of the one-folder bundle.

`packaging/warsuite.py` (the script PyInstaller freezes, see packaging/warsuite.spec and
docs/bundle.md) calls `main`, which is the `suite` command with the differences a player
without Python needs:

- before anything runs it checks what the app cannot work without (its assets folder and
  the games' entry points), and names what is missing in one sentence on stderr;
- an error that escapes a command becomes one sentence on stderr, with the traceback
  written to `crash.log` in the user data folder (`CRASH_LOG`) rather than on the screen;
- the command is called `warsuite` in its help and usage lines;
- on Linux, `warsuite desktop` puts the app in the desktop's menu (`install_desktop_entry`).

Everything else, the user's folders, the launcher, `sim` and `serve`, is the installed
suite's own code. `main` also runs from a source tree (the checks hold there too), which is
how the tests exercise it without building.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

PROG = "warsuite"
CRASH_LOG = "crash.log"
OPTIONAL = {
    "psycopg": "PostgreSQL (serve --store)",
    "psycopg_pool": "PostgreSQL (serve --store)",
    "redis": "Redis (serve --presence)",
}
"""Top-level modules the app leaves out (the `cluster` extra), with what needs them."""
REQUIRED_ASSETS = ("theme/theme.json", "fonts/NotoSans-Regular.ttf", "worldwar/rules")
"""Paths inside the assets folder without which nothing opens."""


class Missing(RuntimeError):
    """Something the app needs is not there; the message says what and what to do."""


def check_installation() -> None:
    """Raise Missing unless the assets folder and at least one game are found.

    The games are found through the `warsuite.games` entry points, which the bundle carries
    in its copy of the package's metadata (dist-info); a game that is listed but fails to
    load is reported by `suite sim` and the launcher, not here."""
    from suite.core.match import registered_games
    from suite.paths import assets_dir

    folder = assets_dir()
    lacking = [part for part in REQUIRED_ASSETS if not (folder / part).exists()]
    if not folder.is_dir():
        raise Missing(
            f"The suite's assets folder is missing (looked for {folder}): "
            "unpack the whole download again, keeping its folders together."
        )
    if lacking:
        raise Missing(
            f"The suite's assets folder {folder} is incomplete (no {', '.join(lacking)}): "
            "unpack the whole download again."
        )
    if not registered_games():
        raise Missing(
            "No game was found: the package's entry points (warsuite.games) are missing "
            "from this installation. Unpack the whole download again."
        )


def crash_log_path() -> Path | None:
    """Where the traceback of an unexpected error goes (None when no folder can be made)."""
    try:
        from suite.paths import user_data_dir

        return user_data_dir() / CRASH_LOG
    except Exception:
        return None


def report_crash(error: BaseException) -> str:
    """Write `error`'s traceback to the crash log; the one sentence to show the player."""
    path = crash_log_path()
    where = ""
    if path is not None:
        try:
            text = "".join(traceback.format_exception(error))
            path.write_text(text, encoding="utf-8")
            where = f" The details are in {path}."
        except OSError:
            pass
    return f"The suite stopped on an unexpected error: {type(error).__name__}: {error}.{where}"


DESKTOP_ENTRY = """[Desktop Entry]
Type=Application
Version=1.0
Name=War Suite
GenericName=Strategy games
Comment=World War, WoK and WoS Tactics: hot-seat, against bots and online
Exec={exec}
Icon=warsuite
Terminal=false
Categories=Game;StrategyGame;
Keywords=risk;strategy;tactics;war;
"""


FOLDER_EXEC = r'sh -c "exec \\"\\$(dirname \\"\\$1\\")/warsuite\\"" sh %k'
"""The Exec line of the `.desktop` file shipped in the app's folder: `%k` is the file's own
location, so it starts the `warsuite` beside it wherever the folder was unpacked (written
with the Desktop Entry escapes: `\\"` and `\\$` in the file are `"` and `$` to the shell)."""


def desktop_escape(text: str) -> str:
    """`text` as the inside of a double-quoted Exec argument in a .desktop file."""
    for char in ("\\", '"', "`", "$"):
        text = text.replace(char, "\\" + char)
    return text.replace("\\", "\\\\")


def install_desktop_entry(executable: Path, data_home: Path | None = None) -> Path:
    """Put the app in the user's desktop menu: `applications/warsuite.desktop` starting
    `executable` (an absolute path), and the icon as `icons/hicolor/256x256/apps/
    warsuite.png`, both under `data_home` (default: $XDG_DATA_HOME, else ~/.local/share).
    Returns the entry's path; OSError when a file cannot be written."""
    from suite.paths import asset

    if data_home is None:
        data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    icons = data_home / "icons" / "hicolor" / "256x256" / "apps"
    icons.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(asset("icon", "warsuite.png"), icons / "warsuite.png")
    entry = data_home / "applications" / "warsuite.desktop"
    entry.parent.mkdir(parents=True, exist_ok=True)
    command = '"' + desktop_escape(str(executable.resolve())) + '"'
    entry.write_text(DESKTOP_ENTRY.format(exec=command), encoding="utf-8")
    return entry


def _cmd_desktop(args: argparse.Namespace) -> int:
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        print("desktop: menu entries are made on Linux only", file=sys.stderr)
        return 2
    entry = install_desktop_entry(Path(sys.executable))
    print(f"War Suite is in your desktop's menu: {entry}")
    return 0


def _add_desktop_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    desktop = sub.add_parser(
        "desktop", help="put this app in your desktop's menu (Linux; the bundled app only)"
    )
    desktop.set_defaults(func=_cmd_desktop)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `warsuite [COMMAND ...]` (the launcher without a command) and return the exit
    code: the command's own, 1 when something the app needs is missing or an unexpected
    error stopped it, 2 when an optional server backend left out of the app is asked
    for, 130 after Ctrl+C."""
    try:
        check_installation()
        from suite.cli import add_command
        from suite.cli import main as suite_main

        if getattr(sys, "frozen", False):  # sys.executable is this app, not a Python
            add_command(_add_desktop_command)
        return suite_main(argv, prog=PROG)
    except Missing as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top in OPTIONAL:
            print(
                f"This app does not include {OPTIONAL[top]}: run such a server from the "
                "Python package instead (pip install 'warsuite[cluster]').",
                file=sys.stderr,
            )
            return 2
        print(report_crash(exc), file=sys.stderr)
        return 1
    except Exception as exc:
        print(report_crash(exc), file=sys.stderr)
        return 1
