"""`suite serve`: run the match server (`add_serve_parser` adds the command, `run_serve`
runs it). Importing this module registers the command with `suite.cli.add_command`.

Every setting has a default (`suite.net.settings.Settings`); `--config serve.toml` sets
any of them, and the flags given override the file.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from suite.net.server.settings import Settings, SettingsError, load_settings

FLAGS: tuple[tuple[str, Any, str], ...] = (
    ("--host", str, "address to listen on"),
    ("--port", int, "port (0: any free port)"),
    ("--data", Path, "folder for the match store, packs and maps (default: user data)"),
    ("--max-rooms", int, "rooms not over, at once"),
    ("--rate", float, "messages per second a connection may send (the burst is twice it)"),
    ("--bot-delay", float, "seconds a server bot waits before acting"),
    ("--cert", Path, "TLS certificate (PEM); needs --key"),
    ("--key", Path, "TLS private key (PEM)"),
    ("--log", Path, "append the log to this file (default: stderr)"),
    ("--keep-days", float, "prune finished matches older than this many days (0: never)"),
    ("--store", str, "postgresql://... : keep matches in PostgreSQL (several processes)"),
    ("--presence", str, "redis://... : share room leases, lists and caps between processes"),
    ("--lease-seconds", float, "seconds a room's lease lasts unless its owner renews it"),
    ("--advertise", str, "ws(s)://host:port clients can reach this process at ({port}: ours)"),
)


def add_serve_parser(subparsers: Any) -> None:
    """Add the `serve` sub-command to `suite`'s sub-parsers."""
    d = Settings()
    serve = subparsers.add_parser(
        "serve",
        help="run a match server for online play (all games)",
        description="Run an authoritative match server on websockets. Rooms, seats and "
        "every accepted action are kept in SQLite in --data (or in PostgreSQL with "
        "--store; several processes then share rooms through Redis with --presence); a "
        "restarted server rebuilds unfinished matches. GET /healthz answers ok, GET "
        "/metrics gives Prometheus "
        "metrics. Stop with SIGTERM or Ctrl-C. Every limit can be set in a TOML file "
        "(--config; see docs/hosting.md); flags override it.",
    )
    serve.add_argument("--config", type=Path, help="a serve.toml with any settings")
    for flag, kind, text in FLAGS:
        field = flag[2:].replace("-", "_")
        default = getattr(d, field)
        shown = f" (default {default:g})" if isinstance(default, float) else ""
        if isinstance(default, int | str) and not isinstance(default, bool):
            shown = f" (default {default})"
        serve.add_argument(flag, type=kind, default=None, help=text + shown)
    serve.set_defaults(func=run_serve)


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings the file and the flags ask for (SettingsError naming what is wrong)."""
    overrides = {
        flag[2:].replace("-", "_"): getattr(args, flag[2:].replace("-", "_"))
        for flag, _, _ in FLAGS
    }
    if overrides.get("rate") is not None:
        overrides["burst"] = 2 * overrides["rate"]
    return load_settings(args.config, overrides)


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until SIGTERM; 2 with a message for bad settings or a busy folder."""
    import sys

    from suite.net.server.app import run
    from suite.net.server.datalock import DataFolderBusy

    try:
        settings = settings_from(args)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return run(settings)
    except DataFolderBusy as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot serve on {settings.host}:{settings.port}: {exc}", file=sys.stderr)
        return 2


def _register() -> None:
    from suite.cli import add_command

    add_command(add_serve_parser)


_register()
