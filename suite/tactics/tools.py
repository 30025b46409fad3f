"""The `suite tactics` tools of the rules side: `balance`.

Battles between bots on any pack are `suite sim tactics --pack DIR ...` (the generic
simulator, with the flags the tactics GameSpec declares).

`TOOLS` lists (name, help, configure, run) for `suite.tactics.cli` to register. This module
imports only argparse: the work (numpy, the engine, pygame for the chart) is imported
inside `run`, so building the command line stays fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

Tool = tuple[
    str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]
]


def configure_balance(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", nargs="?", type=Path, help="pack folder (default: shipped pack)")
    parser.add_argument("--battles", type=int, default=10, help="battles per duel pair")
    parser.add_argument("--squads", type=int, default=200, help="3-piece squad battles")
    parser.add_argument("--map", type=int, help="map id (default: the first playable)")
    parser.add_argument("--bot", default="normal", help="bot on both sides (default normal)")
    parser.add_argument("--margin", type=float, default=0.15, help="flag beyond 50%% +- this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--chart", type=Path, default=Path("tactics_balance.png"), help="PNG chart to write"
    )


def run_balance(args: argparse.Namespace) -> int:
    from suite.tactics.balance import run_command

    return run_command(args)


TOOLS: list[Tool] = [
    (
        "balance",
        "report over- and under-powered pieces of a pack (simulated duels and squads)",
        configure_balance,
        run_balance,
    ),
]


def run_tool(argv: list[str]) -> int:
    """Parse `argv` (a tool name and its arguments) against `TOOLS` and run that tool,
    without the rest of the `suite` command line."""
    parser = argparse.ArgumentParser(prog="suite tactics")
    tools = parser.add_subparsers(dest="tool", required=True)
    for name, help_text, configure, run in TOOLS:
        tool = tools.add_parser(name, help=help_text)
        configure(tool)
        tool.set_defaults(func=run)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code
