"""`suite serve`: run the match server (`add_serve_parser` adds the command, `run_serve`
runs it). Importing this module registers the command with `suite.cli.add_command`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from suite.net.server import Settings, run


def add_serve_parser(subparsers: Any) -> None:
    """Add the `serve` sub-command to `suite`'s sub-parsers."""
    d = Settings()
    serve = subparsers.add_parser(
        "serve",
        help="run a match server for online play (all games)",
        description="Run an authoritative match server on websockets. Rooms, seats and "
        "every accepted action are kept in SQLite in --data; a restarted server rebuilds "
        "unfinished matches. GET /healthz answers ok. Stop with SIGTERM or Ctrl-C.",
    )
    serve.add_argument("--host", default=d.host, help=f"address to listen on (default {d.host})")
    serve.add_argument("--port", type=int, default=d.port, help=f"port (default {d.port})")
    serve.add_argument(
        "--data", type=Path, help="folder for the match store and packs (default: user data)"
    )
    serve.add_argument(
        "--max-rooms", type=int, default=d.max_rooms, help=f"rooms at once (default {d.max_rooms})"
    )
    serve.add_argument("--cert", type=Path, help="TLS certificate (PEM); needs --key")
    serve.add_argument("--key", type=Path, help="TLS private key (PEM)")
    serve.add_argument(
        "--rate",
        type=float,
        default=d.rate,
        help=f"messages per second a connection may send (default {d.rate:g})",
    )
    serve.add_argument(
        "--bot-delay",
        type=float,
        default=d.bot_delay,
        help=f"seconds a server bot waits before acting (default {d.bot_delay:g})",
    )
    serve.set_defaults(func=run_serve)


def settings_from(args: argparse.Namespace) -> Settings:
    """The server settings the parsed flags ask for (ValueError when they conflict)."""
    if (args.cert is None) != (args.key is None):
        raise ValueError("--cert and --key go together")
    for flag, value in (("--cert", args.cert), ("--key", args.key)):
        if value is not None and not value.is_file():
            raise ValueError(f"{flag}: no file {value}")
    if args.max_rooms < 1:
        raise ValueError("--max-rooms must be at least 1")
    if args.rate <= 0:
        raise ValueError("--rate must be positive")
    if args.bot_delay < 0:
        raise ValueError("--bot-delay cannot be negative")
    if not 0 <= args.port <= 65535:
        raise ValueError("--port must be 0 to 65535")
    return Settings(
        host=args.host,
        port=args.port,
        data=args.data,
        max_rooms=args.max_rooms,
        cert=args.cert,
        key=args.key,
        rate=args.rate,
        burst=2 * args.rate,
        bot_delay=args.bot_delay,
    )


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until SIGTERM; 2 with a message for bad flags."""
    import sys

    try:
        settings = settings_from(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return run(settings)
    except OSError as exc:
        print(f"error: cannot serve on {settings.host}:{settings.port}: {exc}", file=sys.stderr)
        return 2


def _register() -> None:
    from suite.cli import add_command

    add_command(add_serve_parser)


_register()
