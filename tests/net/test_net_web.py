"""The web part of the server's port and the messages the web client needs (issue 32):
the page and its assets over raw HTTP (types, HEAD, 405, caching, gzip, CSP, caps), the
board, map list and odds messages with every bad input refused, the host's public flag,
and the generated TypeScript types matching the Python ones."""

from __future__ import annotations

import asyncio
import gzip
import socket
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from suite.core.board import Board
from suite.net import protocol as P
from suite.net.client.client import Client
from suite.net.server.app import MatchServer
from suite.net.server.boards import BOARD_PAGE, image_size
from suite.net.server.web import CSP, WebFront
from suite.worldwar.rules.maps import classic_map

from .helpers import close_all, connect, run, serving, until

ROOT = Path(__file__).resolve().parents[2]
DOMINATION = """name Tiny Art
[files]
pic tiny_pic.png
map tiny_map.png

[continents]
North 2 red
South 3 blue

[countries]
1 North-West 1 50 35
2 North-East 1 150 35
3 South-West 2 50 90
4 South-East 2 150 90

[borders]
1 2 3
2 1 4
3 1 4
4 2 3
"""


def png(width: int, height: int) -> bytes:
    """A valid grey PNG of that size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def http(port: int, request: str) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 exchange: status, headers (lower-case names), body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request.encode("ascii"))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


async def get(server: MatchServer, path: str, method: str = "GET", extra: str = "") -> tuple:
    request = f"{method} {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n"
    return await asyncio.to_thread(http, server.port, request)


@pytest.fixture
def webroot(tmp_path: Path) -> Path:
    """A built client of our own (the tests do not depend on `make` having built it)."""
    root = tmp_path / "webroot"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text(
        '<!doctype html><script type="module" src="/assets/app.0123456789abcdef.js"></script>'
    )
    (root / "assets" / "app.0123456789abcdef.js").write_text("console.log(1);\n" * 400)
    (root / "assets" / "app.0123456789abcdef.css").write_text("body{}")
    return root


def test_the_page_and_its_assets_are_served_with_types_caching_and_csp(
    tmp_path: Path, webroot: Path
) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            server.http.web = WebFront(webroot)
            status, headers, body = await get(server, "/")
            assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
            assert headers["content-security-policy"] == CSP
            assert "'unsafe-inline'" not in CSP and "http" not in CSP
            assert headers["cache-control"] == "no-cache" and headers["x-content-type-options"]
            for link in ("/r/ABC123", "/r/ABC123/watch"):
                assert (await get(server, link))[2] == body
            etag = headers["etag"]
            assert (await get(server, "/", extra=f"If-None-Match: {etag}\r\n"))[0] == 304
            # a content-hashed asset: immutable, gzipped once for a client that takes it
            js = "/assets/app.0123456789abcdef.js"
            status, headers, plain = await get(server, js)
            assert headers["content-type"] == "text/javascript; charset=utf-8"
            assert headers["cache-control"] == "public, max-age=31536000, immutable"
            status, headers, packed = await get(server, js, extra="Accept-Encoding: gzip\r\n")
            assert headers["content-encoding"] == "gzip" and len(packed) < len(plain) / 10
            assert gzip.decompress(packed) == plain and headers["vary"] == "Accept-Encoding"
            small = await get(
                server, "/assets/app.0123456789abcdef.css", extra="Accept-Encoding: gzip\r\n"
            )
            assert small[1]["content-type"] == "text/css; charset=utf-8"
            assert "content-encoding" not in small[1]  # too small to pay
            # HEAD: the GET's headers, no body; other methods: 405
            status, headers, body = await get(server, js, "HEAD")
            assert status == 200 and body == b"" and int(headers["content-length"]) == len(plain)
            for method in ("POST", "PUT", "DELETE", "OPTIONS"):
                status, headers, _ = await get(server, "/", method)
                assert status == 405 and headers["allow"] == "GET, HEAD"
            # unknown files and paths that try to leave the folder are 404
            for path in ("/assets/nope.js", "/assets/../index.html", "/art/0.png", "/etc"):
                assert (await get(server, path))[0] == 404
            assert (await get(server, "/healthz", "HEAD"))[0] == 200

    run(main())


def test_without_a_build_the_page_says_so(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            server.http.web = WebFront(tmp_path / "nothing")
            status, headers, body = await get(server, "/")
            assert status == 200 and b"was not built" in body
            assert headers["content-security-policy"] == CSP

    run(main())


def test_pages_are_refused_to_an_address_at_its_connection_cap(
    tmp_path: Path, webroot: Path
) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data", max_connections_per_address=2) as server:
            server.http.web = WebFront(webroot)
            clients = [await connect(server, f"c{i}") for i in range(2)]
            assert (await get(server, "/"))[0] == 429
            await close_all(clients)
            await until(lambda: not server.connections)
            assert (await get(server, "/"))[0] == 200

    run(main())


async def answers(client: Client, message: P.Message, kind: type) -> list:
    got: list = []
    client.listeners.append(lambda m: got.append(m) if isinstance(m, kind | P.Error) else None)
    await client.send(message)
    await until(lambda: bool(got))
    return got


def test_the_board_comes_in_pages_that_rebuild_the_engines_board(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            host = await connect(server, "ann")
            await host.create("worldwar", {"players": 2})
            assert host.code is not None
            pages: list[P.Board] = []
            page = 0
            while True:
                got = await answers(host, P.BoardRequest(code=host.code, page=page), P.Board)
                assert isinstance(got[0], P.Board)
                pages.append(got[0])
                assert len(P.encode(got[0])) < P.MAX_MESSAGE
                page += 1
                if page == got[0].pages:
                    break
            assert len(pages) > 1  # the classic map does not fit in one message
            assert all(len(P.encode(p)) - 1024 < BOARD_PAGE + 4096 for p in pages)
            territories = [t for p in pages for t in p.territories]
            rebuilt = {
                "name": pages[0].name,
                "regions": [P.to_json(r) for r in pages[0].regions],
                "nodes": [P.to_json(t) for t in territories],
            }
            for node in rebuilt["nodes"]:
                node["polygon"] = [list(xy) for xy in node["polygon"]]
                node["label"] = list(node["label"]) if node["label"] else None
            assert Board.from_json(rebuilt).ids() == classic_map().ids()
            assert [t.neighbours for t in territories] == [
                classic_map().nodes[i].neighbours for i in classic_map().ids()
            ]
            # bad requests: a clear error, nothing else sent
            for bad, code in (
                (P.BoardRequest(code=host.code, page=99), "bad_page"),
                (P.BoardRequest(code=host.code, page=-1), "bad_page"),
                (P.BoardRequest(code="NOROOM"), "no_room"),
                (P.OddsRequest(code="NOROOM", attackers=3, defenders=2), "no_room"),
                (P.OddsRequest(code=host.code, attackers=0, defenders=2), "bad_odds"),
                (P.OddsRequest(code=host.code, attackers=3, defenders=10**6), "bad_odds"),
                (P.MapsRequest(game="chess"), "unknown_game"),
            ):
                got = await answers(host, bad, P.Board)
                assert isinstance(got[0], P.Error) and got[0].code == code, got
            await host.send_raw('{"type":"board_request","code":[1]}')
            await until(lambda: host.errors[-1].code == "bad_message")
            await host.send_raw('{"type":"board_request","code":"' + "A" * P.MAX_MESSAGE + '"}')
            await until(lambda: host.errors[-1].code == "too_large")
            odds = await answers(
                host, P.OddsRequest(code=host.code, attackers=5, defenders=3), P.Odds
            )
            assert isinstance(odds[0], P.Odds) and 0.6 < odds[0].win < 0.7 and odds[0].exact
            tactics = await connect(server, "tac")
            await tactics.create("tactics", {"players": 2})
            got = await answers(tactics, P.BoardRequest(code=tactics.code or ""), P.Board)
            assert isinstance(got[0], P.Error) and got[0].code == "not_worldwar"
            await close_all([host, tactics])

    run(main())


def test_the_host_maps_and_their_artwork(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "maps" / "worldwar"
    folder.mkdir(parents=True)
    (folder / "tiny.map").write_text(DOMINATION)
    (folder / "tiny_pic.png").write_bytes(png(200, 120))
    (folder / "tiny_map.png").write_bytes(png(200, 120))
    (folder / "plain.map").write_text(
        "name Plain\n" + DOMINATION[DOMINATION.index("[continents]") :]
    )  # no [files]: no artwork

    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            client = await connect(server, "ann")
            listing = await answers(client, P.MapsRequest(game="worldwar"), P.MapList)
            maps = listing[0]
            assert isinstance(maps, P.MapList)
            assert [(m.name, m.kind) for m in maps.maps] == [
                ("classic", "classic"),
                ("plain", "domination"),
                ("tiny", "domination"),
                ("random", "random"),
            ]
            assert maps.cards and maps.clocks[0] == 0 and "mission" in maps.modes
            assert maps.territories == (12, 42) and set(maps.defenders) == {"auto", "ask"}
            await client.create("worldwar", {"players": 2, "map": "tiny"})
            board = (await answers(client, P.BoardRequest(code=client.code or ""), P.Board))[0]
            assert isinstance(board, P.Board) and board.artwork is not None
            assert (board.artwork.width, board.artwork.height) == (200, 120)
            status, headers, body = await get(server, board.artwork.url)
            assert status == 200 and body == (folder / "tiny_pic.png").read_bytes()
            assert (
                headers["content-type"] == "image/png" and "immutable" in headers["cache-control"]
            )
            other = await connect(server, "bob")
            await other.create("worldwar", {"players": 2, "map": "plain"})
            plain = (await answers(other, P.BoardRequest(code=other.code or ""), P.Board))[0]
            assert isinstance(plain, P.Board) and plain.artwork is None
            assert len(plain.territories) == 4 and plain.territories[0].polygon
            await close_all([client, other])

    run(main())


def test_image_sizes_are_read_from_their_headers() -> None:
    assert image_size(png(7, 5)) == (7, 5)
    assert image_size(b"GIF89a\x07\x00\x05\x00") == (7, 5)
    assert image_size(b"nothing an image starts with") is None


def test_only_the_host_lists_a_room(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path / "data") as server:
            host = await connect(server, "ann")
            await host.create("worldwar", {"players": 2})
            guest = await connect(server, "bob")
            await guest.join(host.code or "", 1)
            assert await guest.list_rooms() == ()
            assert host.token is not None and guest.token is not None
            await guest.send(P.SetPublic(token=guest.token, public=True))
            await until(lambda: bool(guest.errors))
            assert guest.errors[-1].code == "not_host" and await guest.list_rooms() == ()
            await host.send(P.SetPublic(token=host.token, public=True))
            await until(lambda: host.room is not None and host.room.public)
            watcher = await connect(server, "cat")
            listed = await watcher.list_rooms("worldwar")
            assert [r.code for r in listed] == []  # no free seat: both seats are taken
            await guest.send(P.Leave(token=guest.token))
            await until(
                lambda: bool(watcher and server.rooms[host.code or ""].seats[1].kind == "open")
            )
            assert [r.code for r in await watcher.list_rooms("worldwar")] == [host.code]
            await host.send(P.SetPublic(token=host.token, public=False))
            await until(lambda: host.room is not None and not host.room.public)
            assert await watcher.list_rooms() == ()
            await close_all([host, guest, watcher])

    run(main())


def test_the_generated_typescript_types_match_the_python_ones() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_web_types.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_drift_check_fails_on_a_changed_type(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_web_types
    finally:
        sys.path.remove(str(ROOT / "tools"))
    current = gen_web_types.generate()
    stale = current.replace("readonly attackers: number;", "readonly attackers: string;", 1)
    assert stale != current
    target = gen_web_types.TARGET
    gen_web_types.TARGET = tmp_path / "protocol.gen.ts"
    try:
        gen_web_types.TARGET.write_text(stale)
        assert gen_web_types.main(["--check"]) == 1
        gen_web_types.TARGET.write_text(current)
        assert gen_web_types.main(["--check"]) == 0
    finally:
        gen_web_types.TARGET = target
