"""`suite tactics ...`: the WoS Tactics tools (pack check, pack fetch, and more).

Each tool is a `TacticsCommand` registered with `tactics_command(...)` at the bottom of
this module and appears as `suite tactics NAME`. To add one (say `balance`), write its
`configure(parser)` and `run(args) -> int` here, importing the real work lazily inside
`run` so that `suite --help` stays fast, and register it next to `check` and `fetch`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import suite.cli

if TYPE_CHECKING:
    from suite.cli import SubParsers


@dataclass(frozen=True)
class TacticsCommand:
    """A `suite tactics NAME` tool: `configure` adds its arguments, `run` returns the exit
    code."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, TacticsCommand] = {}


def tactics_command(command: TacticsCommand) -> None:
    """Register a `suite tactics` tool (a later registration of the same name replaces it)."""
    COMMANDS[command.name] = command


def _configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="the pack folder (holding tactics_ini.txt)")


def _run_check(args: argparse.Namespace) -> int:
    from suite.tactics.assets.check import check_pack

    return check_pack(args.dir)


def _configure_fetch(parser: argparse.ArgumentParser) -> None:
    from suite.tactics.assets.fetch import DEFAULT_DEADLINE, DEFAULT_MAX_BYTES

    parser.add_argument(
        "url",
        help="the web folder holding tactics_ini.txt, or a world's config.ini "
        "(its tacticsSourceUrl names the folder)",
    )
    parser.add_argument("dir", type=Path, help="the pack folder to fill")
    parser.add_argument(
        "--force", action="store_true", help="download even when the versions match"
    )
    parser.add_argument(
        "--max-size",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help=f"largest accepted file in bytes (default {DEFAULT_MAX_BYTES})",
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=DEFAULT_DEADLINE,
        help=f"give up after this many seconds in all (default {DEFAULT_DEADLINE:g})",
    )


def _run_fetch(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from suite.tactics.assets.fetch import FetchError, FetchStatus, fetch_pack, source_url

    console = Console()
    url = args.url
    if not url.lower().startswith(("http:", "https:")) and url.lower().endswith(".ini"):
        try:
            url = source_url(Path(url))
        except FetchError as exc:
            console.print(f"error: {exc}", markup=False, highlight=False)
            return 1
        console.print(f"source: {url}", markup=False, highlight=False)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("tactics pack", total=None)

        def show(done: int, total: int, name: str) -> None:
            bar.update(task, completed=done, total=total, description=name)

        result = fetch_pack(url, args.dir, args.force, args.max_size, show, args.deadline)
    for message in result.messages:
        console.print(message, markup=False, highlight=False)
    version = "none" if result.remote_version is None else f"{result.remote_version:g}"
    if result.status is FetchStatus.FETCHED:
        console.print(f"fetched {len(result.files)} files, version {version}, into {args.dir}")
    elif result.status is FetchStatus.UP_TO_DATE:
        console.print(f"{args.dir} already has version {version}; use --force to download")
    elif result.status is FetchStatus.LOCKED:
        console.print(f"{args.dir} is locked; nothing downloaded")
    failed = result.status in (FetchStatus.FAILED, FetchStatus.LOCKED)
    return 1 if failed else 0


tactics_command(
    TacticsCommand(
        "check",
        "check a tactics pack and list its problems as file:line: message",
        _configure_check,
        _run_check,
    )
)
tactics_command(
    TacticsCommand(
        "fetch",
        "download a tactics pack from a web folder (tactics_ini.txt and the files it names)",
        _configure_fetch,
        _run_fetch,
    )
)


def _add_tactics(sub: SubParsers) -> None:
    parser = sub.add_parser("tactics", help="WoS Tactics tools (check, fetch, ...)")
    tools = parser.add_subparsers(dest="tactics_command", metavar="TOOL", required=True)
    for command in sorted(COMMANDS.values(), key=lambda c: c.name):
        tool = tools.add_parser(command.name, help=command.help, description=command.help)
        command.configure(tool)
        tool.set_defaults(func=command.run)


suite.cli.add_command(_add_tactics)

# The rules side's tools (balance, sim) are listed in suite.tactics.tools (argparse only).
from suite.tactics.tools import TOOLS  # noqa: E402

for _tool in TOOLS:
    tactics_command(TacticsCommand(*_tool))
