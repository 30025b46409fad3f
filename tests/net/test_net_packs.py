"""Tactics pack sync: the host's pack is in control; downloads are checked and path-safe."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from suite.net import protocol as P
from suite.net.client.client import sync_pack
from suite.net.client.packs import PackCache
from suite.net.packsync import PackSyncError, describe, digest_of
from suite.tactics.rules.packs import default_pack_dir

from .helpers import connect, run, serving


def _modded(folder: Path) -> Path:
    """A copy of the shipped pack with one changed file (a different content hash)."""
    shutil.copytree(default_pack_dir(), folder)
    ini = folder / "tactics_ini.txt"
    ini.write_bytes(ini.read_bytes() + b"\n")
    return folder


def test_a_client_downloads_the_hosts_pack_into_its_cache(tmp_path: Path) -> None:
    data = tmp_path / "server"
    _modded(data / "packs" / "modded")
    own, _ = describe(default_pack_dir())

    async def main() -> None:
        async with serving(data) as server:
            host = await connect(server, "host")
            await host.create("tactics", {"players": 2, "pack": "modded"})
            assert host.room is not None and host.room.pack is not None
            ref = host.room.pack
            assert ref.digest != own.digest
            guest = await connect(server, "guest")
            await guest.join(host.code or "", 1)
            cache = PackCache(tmp_path / "cache")
            folder = await sync_pack(guest, cache)
            assert folder == tmp_path / "cache" / ref.digest
            assert describe(folder)[0].digest == ref.digest
            assert (folder / "tactics_ini.txt").read_bytes().endswith(b"\n")
            again = await sync_pack(guest, cache)  # cached: no second download
            assert again == folder
            same = await sync_pack(guest, cache, own=data / "packs" / "modded")
            assert same == data / "packs" / "modded"
            assert await sync_pack(guest, cache, own=default_pack_dir()) == folder
            # the room runs the engine on the server's copy of that pack
            room = server.rooms[host.code or ""]
            assert room.config["pack"] == str(data / "packs" / "modded")
            for c in (host, guest):
                await c.close()

    run(main())


def test_rooms_only_use_packs_of_the_server(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(tmp_path) as server:
            c = await connect(server, "c")
            for bad in ("/etc", "../x", "nope", 5):
                before = len(c.errors)
                await c.send(P.Create(game="tactics", config={"players": 2, "pack": bad}))
                await c.wait(lambda c, n=before: len(c.errors) > n)
                assert c.errors[-1].code == "bad_config", c.errors[-1]
            await c.send(P.PackRequest(code="NOROOM"))
            await c.wait(lambda c: c.errors[-1].code == "no_room")
            await c.create("tactics", {"players": 2})
            for path in ("../../etc/passwd", "/etc/passwd", "missing.txt"):
                before = len(c.errors)
                await c.send(P.PackRequest(code=c.code or "", path=path))
                await c.wait(lambda c, n=before: len(c.errors) > n)
                assert c.errors[-1].code == "no_file"
            await c.close()

    run(main())


def _entry(path: str, data: bytes) -> P.FileEntry:
    return P.FileEntry(path=path, size=len(data), sha256=hashlib.sha256(data).hexdigest())


@pytest.mark.parametrize("path", ["../evil.txt", "/abs.txt", "a/../../b.txt", "C:/x.txt", ""])
def test_cache_refuses_paths_that_leave_the_folder(tmp_path: Path, path: str) -> None:
    files = (_entry(path, b"x"),)
    ref = P.PackRef(version=1.0, digest=digest_of(list(files)))
    with pytest.raises(PackSyncError):
        PackCache(tmp_path / "cache").store(ref, files, lambda p, o: b"x"[o:])
    assert not (tmp_path / "evil.txt").exists()
    assert not (tmp_path / "cache" / ref.digest).exists()


def test_cache_refuses_content_that_does_not_match(tmp_path: Path) -> None:
    files = (_entry("a.txt", b"good"),)
    ref = P.PackRef(version=1.0, digest=digest_of(list(files)))
    cache = PackCache(tmp_path / "cache")
    with pytest.raises(PackSyncError, match="does not match"):
        cache.store(ref, files, lambda p, o: b"evil"[o:])
    with pytest.raises(PackSyncError, match="digest"):
        cache.store(P.PackRef(version=1.0, digest="0" * 64), files, lambda p, o: b"good"[o:])
    with pytest.raises(PackSyncError):
        cache.folder(P.PackRef(version=1.0, digest="../../x"))
    folder = cache.store(ref, files, lambda p, o: b"good"[o:])
    assert (folder / "a.txt").read_bytes() == b"good" and cache.has(ref)


def test_a_751_file_pack_syncs_through_the_server(tmp_path: Path) -> None:
    """The file list comes in pages under the message limit (a 91 KB list in one message
    was dropped and the join timed out)."""
    data = tmp_path / "server"
    big = _modded(data / "packs" / "big")
    for i in range(751 - len(describe(big)[1])):
        (big / "extra" / f"unit_{i:04}_attack.wav").parent.mkdir(exist_ok=True)
        (big / "extra" / f"unit_{i:04}_attack.wav").write_bytes(b"RIFF%d" % i)
    ref, files = describe(big)
    assert len(files) == 751
    assert len(P.encode(P.PackFiles(code="X", pack=ref, files=files))) > P.MAX_MESSAGE

    async def main() -> None:
        async with serving(data) as server:
            host = await connect(server, "host")
            await host.create("tactics", {"players": 2, "pack": "big"})
            guest = await connect(server, "guest")
            await guest.join(host.code or "", 1)
            guest.keep_received = True
            folder = await sync_pack(guest, PackCache(tmp_path / "cache"))
            assert folder is not None and describe(folder)[0].digest == ref.digest
            pages = [m for m in guest.received if isinstance(m, P.PackFiles)]
            assert len(pages) == pages[0].pages >= 2
            assert all(len(P.encode(m)) <= P.MAX_MESSAGE for m in pages)
            for c in (host, guest):
                await c.close()

    run(main())


def test_a_pack_sync_waits_out_the_servers_rate_limit(tmp_path: Path) -> None:
    """A pack of many small files asks faster than a tight rate limit allows: refusals
    are waited out, the pack still arrives."""
    data = tmp_path / "server"
    count = len(describe(_modded(data / "packs" / "many"))[1])
    assert count > 10

    async def main() -> None:
        async with serving(data, rate=20.0, burst=5.0) as server:
            host = await connect(server, "host")
            await host.create("tactics", {"players": 2, "pack": "many"})
            guest = await connect(server, "guest")
            await guest.join(host.code or "", 1)
            got = await sync_pack(guest, PackCache(tmp_path / "cache"))
            assert got is not None and len(describe(got)[1]) == count
            assert any(e.code == "rate_limited" for e in guest.errors)
            for c in (host, guest):
                await c.close()

    run(main())
