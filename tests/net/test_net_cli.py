"""`suite serve` flags: bad ones are clear errors (exit 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from suite.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cert", "x.pem"], "--cert and --key go together"),
        (["--cert", "nope.pem", "--key", "nope.key"], "--cert: no file"),
        (["--max-rooms", "0"], "--max-rooms: expected `int` >= 1, not 0"),
        (["--rate", "-1"], "--rate: expected `float` > 0.0, not -1.0"),
        (["--bot-delay", "-2"], "--bot-delay: expected `float` >= 0.0, not -2.0"),
        (["--port", "70000"], "--port: expected `int` <= 65535, not 70000"),
    ],
)
def test_bad_flags(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_port_in_use_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--data", str(tmp_path)])
    assert code == 2
    assert f"cannot serve on 127.0.0.1:{port}" in capsys.readouterr().err


def test_serve_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "serve" in capsys.readouterr().out


def test_the_server_runs_on_uvloop_where_it_is_installed() -> None:
    """pyproject installs uvloop on Linux and macOS; `suite serve` runs its loop there and
    falls back to asyncio's own loop where uvloop cannot be imported (Windows)."""
    import sys
    from unittest import mock

    import uvloop

    from suite.net.server.app import event_loop_factory

    assert event_loop_factory() is uvloop.new_event_loop
    with mock.patch.dict(sys.modules, {"uvloop": None}):
        assert event_loop_factory() is None
