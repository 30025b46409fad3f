"""`suite serve` as a real process: kill -9 mid-game and restart, SIGTERM, TLS."""

from __future__ import annotations

import asyncio
import signal
import socket
import ssl
import subprocess
from pathlib import Path

import pytest

from suite.core.match import game_spec
from suite.net.client.client import Client, play_bot

from .helpers import close_all, run, serving, until
from .processes import ServerProcess


def test_kill_9_mid_game_then_restart_and_rejoin(tmp_path: Path) -> None:
    easy = game_spec("worldwar").bots["easy"]

    async def first_half() -> tuple[str, str, int, bytes, bytes]:
        server = ServerProcess(tmp_path)
        a = await Client.connect(server.url, "a")
        await a.create("worldwar", {"players": 2})
        b = await Client.connect(server.url, "b")
        await b.join(a.code or "", 1)
        await a.ready()
        await b.ready()
        tasks = [asyncio.ensure_future(play_bot(c, easy())) for c in (a, b)]
        await until(lambda: a.view is not None and a.view.state_id >= 30, timeout=30)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0.3)  # let the last accepted action reach both
        assert a.view is not None and b.view is not None
        assert a.view.state_id == b.view.state_id
        seen = (
            a.token or "",
            b.token or "",
            a.view.state_id,
            bytes(a.view.view),
            bytes(b.view.view),
        )
        server.proc.kill()  # SIGKILL: no chance to clean up
        server.proc.wait(timeout=10)
        await close_all([a, b])
        return seen

    ta, tb, sid, view_a, view_b = run(first_half())

    async def second_half() -> None:
        server = ServerProcess(tmp_path)
        a = await Client.connect(server.url, "a")
        b = await Client.connect(server.url, "b")
        await a.rejoin(ta)
        await b.rejoin(tb)
        assert a.view is not None and b.view is not None
        assert a.view.state_id == sid == b.view.state_id
        assert bytes(a.view.view) == view_a and bytes(b.view.view) == view_b
        await asyncio.gather(play_bot(a, easy()), play_bot(b, easy()))
        assert a.game_over is not None, (a.closed, a.errors[-3:], server.log[-5:])
        assert a.game_over.outcome is not None
        await close_all([a, b])
        server.proc.send_signal(signal.SIGTERM)
        code, log = server.finish()
        assert code == 0, log
        assert "rebuilt from" in log

    run(second_half())


def test_sigterm_closes_connections_gracefully(tmp_path: Path) -> None:
    async def main() -> None:
        server = ServerProcess(tmp_path)
        c = await Client.connect(server.url, "c")
        await c.create("tactics", {"players": 2})
        server.proc.send_signal(signal.SIGTERM)
        await until(lambda: c.closed, timeout=10)
        assert c.ws.close_code == 1001
        code, log = server.finish()
        assert code == 0 and "server stopped" in log
        assert "created by 'c'" in log and "joined seat 0" in log  # one line per room event

    run(main())


def _self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.mark.skipif(not Path("/usr/bin/openssl").exists(), reason="needs openssl")
def test_tls_with_cert_and_key(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)

    async def main() -> None:
        async with serving(tmp_path / "data", cert=cert, key=key) as server:
            context = ssl.create_default_context(cafile=str(cert))
            c = await Client.connect(f"wss://127.0.0.1:{server.port}", "tls", ssl_context=context)
            assert c.welcome is not None
            await c.close()
            with pytest.raises(Exception):  # noqa: B017 - plain ws is refused by a TLS server
                await Client.connect(f"ws://127.0.0.1:{server.port}", "plain", timeout=2)
            # without the certificate, the system's authorities do not vouch for it
            with pytest.raises(ssl.SSLCertVerificationError):
                await Client.connect(f"wss://127.0.0.1:{server.port}", "untrusting", timeout=2)
            # the web client is served over HTTPS on the same port as over HTTP
            answer = await asyncio.to_thread(_https_get, server.port, context, "/r/ABC123")
            assert answer.startswith(b"HTTP/1.1 200") and b"Content-Security-Policy" in answer

    run(main())


def _https_get(port: int, context: ssl.SSLContext, path: str) -> bytes:
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname="127.0.0.1") as sock,
    ):
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data
