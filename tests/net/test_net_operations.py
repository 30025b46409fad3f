"""What a host runs the server with (issue 20, items 8 and 11-13): prompt shutdown, public
rooms, log lines, /metrics, pruning, serve.toml, one server per folder as a process."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from suite.cli import main
from suite.net import protocol as P
from suite.net.server.clock import ManualClock
from suite.net.server.logs import FORMAT, ContextFilter
from suite.net.server.settings import SettingsError, load_settings

from .fakes import FakeConn, make_server, open_room
from .processes import ServerProcess


def _greeted(server: object, name: str, address: str = "10.0.0.1") -> FakeConn:
    conn = FakeConn(server, name, address)  # type: ignore[arg-type]
    conn.say(P.Hello(name=name))
    return conn


# -- 8. shutdown is prompt -------------------------------------------------------------------


def _handshake_and_never_read(port: int) -> socket.socket:
    """A websocket client that opens the connection, then never reads again."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    time.sleep(0.3)
    return sock


def test_sigterm_finishes_promptly_even_when_a_client_never_reads(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    stuck = [_handshake_and_never_read(server.port) for _ in range(3)]
    try:
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        code, log = server.finish(timeout=10)
        took = time.monotonic() - started
    finally:
        for sock in stuck:
            sock.close()
    assert code == 0, log
    assert "server stopped" in log
    assert took < 2.0, f"SIGTERM took {took:.2f} s"


# -- 9. one folder, one server (as processes) ------------------------------------------------


def test_a_second_server_process_on_the_same_folder_refuses_to_start(tmp_path: Path) -> None:
    first = ServerProcess(tmp_path)
    second = subprocess.run(
        [sys.executable, "-m", "suite", "serve", "--port", "0", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 2
    assert "another server already uses the data folder" in second.stderr
    assert str(tmp_path) in second.stderr
    first.proc.send_signal(signal.SIGTERM)
    assert first.finish()[0] == 0


# -- 11. public rooms ------------------------------------------------------------------------


def test_rooms_lists_public_lobbies_with_a_free_seat(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    ann = _greeted(server, "ann")
    ann.say(P.Create(game="wok", config={"players": 3}, public=True))
    public_code = ann.last(P.Room).code
    bo = _greeted(server, "bo", "10.0.0.2")
    bo.say(P.Create(game="worldwar", config={"players": 2}))  # private
    cy = _greeted(server, "cy", "10.0.0.3")
    cy.say(P.Create(game="tactics", config={"players": 2}, public=True))
    full = cy.last(P.Room).code
    _greeted(server, "di", "10.0.0.4").say(P.Join(code=full))  # now full
    answer = _greeted(server, "eve", "10.0.0.5").say(P.ListRooms())
    (listing,) = [m for m in answer if isinstance(m, P.RoomList)]
    assert [r.code for r in listing.rooms] == [public_code]
    (entry,) = listing.rooms
    assert (entry.game, entry.seats_free, entry.players, entry.host) == ("wok", 2, 3, "ann")
    assert entry.config["players"] == 3
    only_tactics = _greeted(server, "fay", "10.0.0.6").say(P.ListRooms(game="tactics"))
    assert [m for m in only_tactics if isinstance(m, P.RoomList)][0].rooms == ()


# -- 12. observability -----------------------------------------------------------------------


def test_metrics_count_rooms_connections_actions_refusals_and_latency(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    room, conns = open_room(server, "tactics", {"players": 2}, 2)
    seat = min(room.state.awaiting())
    legal = room.state.legal(seat)
    import msgspec

    conns[seat].say(
        P.Act(
            token=conns[seat].token,
            state_id=room.state_id,
            action=msgspec.to_builtins(legal[0]),
        )
    )
    conns[seat].say(P.Act(token=conns[seat].token, state_id=-5, action={"kind": "end_turn"}))
    conns[0].say(b"not json")
    text = server.metrics.render().decode()
    assert 'suite_rooms{phase="playing"} 1.0' in text
    assert 'suite_actions_total{game="tactics"} 1.0' in text
    assert 'suite_refusals_total{reason="stale"} 1.0' in text
    assert 'suite_refusals_total{reason="bad_json"} 1.0' in text
    assert "suite_action_latency_seconds_count 1.0" in text  # accepted actions only
    assert "suite_connections 0.0" in text


def test_metrics_and_healthz_over_http(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    base = f"http://127.0.0.1:{server.port}"
    with urllib.request.urlopen(base + "/metrics", timeout=10) as page:
        body = page.read().decode()
        assert page.headers["Content-Type"].startswith("text/plain")
    assert "# TYPE suite_rooms gauge" in body
    assert "# TYPE suite_action_latency_seconds histogram" in body
    with urllib.request.urlopen(base + "/healthz", timeout=10) as page:
        assert page.read().startswith(b"ok")
    server.proc.send_signal(signal.SIGTERM)
    code, log = server.finish()
    assert code == 0
    line = next(line for line in log.splitlines() if "serving on" in line)
    assert " INFO room=- client=- serving on" in line


def test_log_lines_name_the_room_and_the_client(tmp_path: Path) -> None:
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    handler = Keep()
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(ContextFilter())
    logger = logging.getLogger("suite.net")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        server = make_server(tmp_path)
        ann = _greeted(server, "ann", "203.0.113.9")
        ann.say(P.Create(game="wok", config={"players": 2}))
        code = ann.last(P.Room).code
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    created = next(r for r in records if "created by" in r)
    assert f"INFO room={code} client=203.0.113.9 [wok] created by 'ann'" in created


def test_finished_matches_older_than_keep_days_are_pruned(tmp_path: Path) -> None:
    clock = ManualClock()
    server = make_server(tmp_path, clock, keep_days=2.0)
    old, conns = open_room(server, "tactics", {"players": 2}, 2)
    conns[0].say(P.End(token=conns[0].token))
    clock.advance(86400)
    host = _greeted(server, "new", "10.0.0.9")
    host.say(P.Create(game="wok", config={"players": 2}))
    host.say(P.End(token=host.token))
    clock.advance(86400 + 10)
    server.tick()  # forgets both rooms from memory
    assert server.prune_due()  # a day since the last pruning: the ticker prunes now
    assert asyncio.run(server.prune()) == 1  # the one over 2 days old
    assert not server.prune_due()
    assert asyncio.run(server.store.load(old.code)) is None
    assert asyncio.run(server.store.log_length(old.code)) == 0
    assert asyncio.run(server.store.load(host.last(P.Room).code)) is not None
    assert "suite_matches_pruned_total 1.0" in server.metrics.render().decode()


# -- 13. settings in one place ---------------------------------------------------------------


def test_serve_toml_sets_limits_and_flags_override_it(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(
        "max_rooms = 7\nrate = 5.0\nburst = 9\nlobby_expiry = 60\nkeep_days = 0\n"
        f"data = '{tmp_path / 'data'}'\n"
    )
    settings = load_settings(config, {"max_rooms": 3})
    assert (settings.max_rooms, settings.rate, settings.burst) == (3, 5.0, 9.0)
    assert settings.lobby_expiry == 60.0 and settings.keep_days == 0.0
    assert settings.data == tmp_path / "data"  # a path setting is a string in TOML


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("max_romos = 7\n", "unknown setting 'max_romos'"),
        ("max_rooms = 'many'\n", "max_rooms: expected `int`"),
        ("max_rooms = 0\n", "max_rooms: expected `int` >= 1"),
        ("max_message = 999999\n", "max_message: expected `int` <= 65536"),
        ("rate = [\n", "not TOML"),
        ("log_level = 'LOUD'\n", "log_level must be one of"),
        ("data = 5\n", "data: expected a path (a string), got int"),
    ],
)
def test_a_bad_serve_toml_names_the_file_and_the_key(tmp_path: Path, text: str, words: str) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(text)
    with pytest.raises(SettingsError) as caught:
        load_settings(config, {})
    assert str(config) in str(caught.value) and words in str(caught.value)


def test_serve_refuses_a_bad_config_file_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "serve.toml"
    config.write_text("rate = -3\n")
    assert main(["serve", "--config", str(config), "--data", str(tmp_path)]) == 2
    assert f"error: {config}: rate: expected `float` > 0.0, not -3" in capsys.readouterr().err


def test_a_second_copy_of_the_suite_hosts_from_a_folder_of_its_own(tmp_path: Path) -> None:
    from suite.net.screens.lobby import LocalServer

    first = LocalServer(tmp_path / "server-local")
    try:
        second = LocalServer(tmp_path / "server-local")
        try:
            assert second.server.data == tmp_path / "server-local-2"
            assert first.url != second.url
        finally:
            second.stop()
    finally:
        first.stop()
