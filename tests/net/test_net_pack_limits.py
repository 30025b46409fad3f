"""Pack sync against a hostile server: limits checked before any download, a paged file
list, refused paths, no staging folder left after a failure, and the lobby's message."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from suite.net import protocol as P
from suite.net.client.client import Client, sync_pack
from suite.net.client.packs import STAGING_PREFIX, STALE_STAGING, PackCache, client_cache_dir
from suite.net.client.session import RemoteSession
from suite.net.packsync import PackSyncError, SyncLimits, describe, list_pages
from suite.net.screens.lobby import LobbyScene
from suite.ui.harness import Harness

from .fake_pack_host import CODE, FakePackHost, chunk, entry, listing, ref_of, serving_folder
from .helpers import run
from .screen_helpers import frames_until

TIB = 1 << 40


def _sync(host: FakePackHost, cache: PackCache) -> Path | None:
    async def main() -> Path | None:
        client = await Client.connect(host.url, "you")
        try:
            await client.join(CODE)
            return await sync_pack(client, cache)
        finally:
            await client.close()

    folder: Path | None = run(main(), timeout=60)
    return folder


def _hosting(
    files: tuple[P.FileEntry, ...], contents: dict[str, bytes], **extra: int
) -> FakePackHost:
    """A host announcing `files` (one page, `extra` fields) and serving `contents`."""

    def answer(request: P.PackRequest) -> list[P.Message]:
        if request.path is None:
            return [listing(files, **extra)]
        data = contents.get(request.path, b"")
        return [chunk(request.path, request.offset, data[request.offset : request.offset + 4096])]

    return FakePackHost(ref_of(files), answer)


def _left_in(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


@pytest.mark.parametrize(
    ("sizes", "extra", "reason"),
    [
        ([TIB], {}, "past the limit"),  # one file of 1 TiB
        ([1, 2], {"total_bytes": TIB, "total_files": 2}, "announces"),
        ([1, 2], {"total_files": 10**9}, "announces"),
        ([1], {"pages": 10**9}, "pages"),
    ],
)
def test_a_server_announcing_too_much_gets_nothing_downloaded(
    tmp_path: Path, sizes: list[int], extra: dict[str, int], reason: str
) -> None:
    files = tuple(
        P.FileEntry(path=f"sounds/s{i}.wav", size=size, sha256="0" * 64)
        for i, size in enumerate(sizes)
    )
    host = _hosting(files, {}, **extra)
    cache = PackCache(tmp_path / "cache")
    try:
        with pytest.raises(PackSyncError, match=reason):
            _sync(host, cache)
    finally:
        host.close()
    assert [r.path for r in host.requests] == [None]  # the first page only, no file
    assert _left_in(tmp_path / "cache") == []


def test_the_whole_pack_is_checked_before_the_first_file(tmp_path: Path) -> None:
    """Every file under the per-file limit, together past the pack's limit (limits.toml)."""
    bounds = SyncLimits.shipped()
    count = bounds.pack_bytes // bounds.file_bytes + 1
    files = tuple(
        P.FileEntry(path=f"f{i:03}.wav", size=bounds.file_bytes, sha256="0" * 64)
        for i in range(count)
    )
    host = _hosting(files, {})
    try:
        with pytest.raises(PackSyncError, match=f"limit of {bounds.pack_bytes} bytes"):
            _sync(host, PackCache(tmp_path / "cache"))
    finally:
        host.close()
    assert all(r.path is None for r in host.requests)


def test_limits_come_from_the_tactics_limits_file() -> None:
    from suite.tactics.assets.limits import limits

    bounds = SyncLimits.shipped()
    assert bounds.pack_bytes == limits().pack.max_bytes
    assert bounds.files == limits().pack.max_files
    assert bounds.file_bytes == max(limits().sound.max_bytes, limits().skin.max_bytes)


def _big_pack(folder: Path, count: int) -> None:
    for i in range(count):
        path = folder / f"sounds/unit_{i:04}_attack.wav"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"sound {i}".encode() * (1 + i % 7))


def test_a_751_file_pack_comes_in_pages_under_the_message_limit(tmp_path: Path) -> None:
    packs = tmp_path / "server" / "packs"
    _big_pack(packs / "big", 751)
    ref, answer = serving_folder(packs / "big", packs)
    _, files = describe(packs / "big")
    whole = P.encode(P.PackFiles(code=CODE, pack=ref, files=files))
    assert len(whole) > P.MAX_MESSAGE  # about 91 KB in one message: it would be dropped
    host = FakePackHost(ref, answer)
    cache = PackCache(tmp_path / "cache")
    try:
        folder = _sync(host, cache)
    finally:
        host.close()
    assert folder == cache.folder(ref) and describe(folder)[0].digest == ref.digest
    pages = [r.offset for r in host.requests if r.path is None]
    assert pages == list(range(len(list_pages(files)))) and len(pages) >= 2
    assert host.largest <= P.MAX_MESSAGE
    assert _left_in(tmp_path / "cache") == [ref.digest]


def test_list_pages_keep_order_and_budget() -> None:
    files = [entry(f"d/{'n' * (i % 50)}{i}.bmp", b"%d" % i) for i in range(500)]
    pages = list_pages(files, budget=4096)
    assert [e for page in pages for e in page] == files
    assert len(pages) > 1
    for page in pages:
        assert len(P.encode(P.PackFiles(code=CODE, pack=ref_of(files), files=page))) < 4096 + 300
    assert list_pages([]) == ((),)


@pytest.mark.parametrize(
    "paths",
    [
        ["x", "x/y"],
        ["x/y", "x"],
        ["X", "x/y"],
        ["a.txt", "a.txt"],
        ["A.txt", "a.txt"],
        ["/abs.txt"],
        ["../up.txt"],
        ["a/../../b.txt"],
        ["maps\\m.bmp"],
        ["./a.txt"],
        ["a//b.txt"],
        ["C:/x.txt"],
        ["bad\nname.txt"],
        ["maps/CON.bmp"],
        ["trailing./a.bmp"],
        ["caf\u00e9.wav", "cafe\u0301.wav"],
        [""],
    ],
)
def test_a_list_with_clashing_or_unsafe_paths_is_refused(tmp_path: Path, paths: list[str]) -> None:
    files = tuple(entry(p, b"data") for p in paths)
    with pytest.raises(PackSyncError):
        PackCache(tmp_path / "cache").check(ref_of(files), files)


def test_x_and_x_slash_y_is_refused_before_any_download(tmp_path: Path) -> None:
    files = (entry("x", b"file"), entry("x/y", b"inside"))
    host = _hosting(files, {"x": b"file", "x/y": b"inside"})
    try:
        with pytest.raises(PackSyncError, match="file"):
            _sync(host, PackCache(tmp_path / "cache"))
    finally:
        host.close()
    assert all(r.path is None for r in host.requests)
    assert _left_in(tmp_path / "cache") == []


@pytest.mark.parametrize("fault", ["wrong_bytes", "too_many_bytes", "not_base64", "drop", "short"])
def test_no_staging_folder_is_left_after_a_failure(tmp_path: Path, fault: str) -> None:
    good, second = b"first file " * 100, b"second file " * 100
    files = (entry("a.txt", good), entry("b.txt", second))

    def answer(request: P.PackRequest) -> list[P.Message] | None:
        if request.path is None:
            return [listing(files)]
        if request.path == "a.txt":
            return [chunk("a.txt", request.offset, good[request.offset :])]
        bad = {
            "wrong_bytes": chunk("b.txt", 0, b"X" * len(second)),
            "too_many_bytes": chunk("b.txt", 0, second + b"more"),
            "not_base64": P.PackChunk(code=CODE, path="b.txt", offset=0, data="!!", eof=True),
            "short": chunk("b.txt", request.offset, b""),
        }
        return None if fault == "drop" else [bad[fault]]

    host = FakePackHost(ref_of(files), answer)
    try:
        with pytest.raises(PackSyncError):
            _sync(host, PackCache(tmp_path / "cache"))
    finally:
        host.close()
    assert [r.path for r in host.requests if r.path] >= ["a.txt", "b.txt"]  # a.txt was staged
    assert _left_in(tmp_path / "cache") == []


def test_a_cancelled_download_removes_its_staging_folder(tmp_path: Path) -> None:
    files = (entry("a.txt", b"staged"), entry("b.txt", b"never sent"))
    asked = threading.Event()

    def answer(request: P.PackRequest) -> list[P.Message]:
        if request.path is None:
            return [listing(files)]
        if request.path == "a.txt":
            return [chunk("a.txt", 0, b"staged")]
        asked.set()
        return []  # the server goes quiet

    host = FakePackHost(ref_of(files), answer)
    session = RemoteSession.connect(host.url, "you")
    try:
        session.join(CODE)
        cache = tmp_path / "cache"
        future = session.sync_pack_later(cache)
        assert asked.wait(20)
        (staging,) = _left_in(cache)
        assert staging.startswith(STAGING_PREFIX)
        assert (cache / staging / "a.txt").read_bytes() == b"staged"
        future.cancel()
        end = time.monotonic() + 10
        while _left_in(cache) and time.monotonic() < end:
            time.sleep(0.01)
        assert _left_in(cache) == []
    finally:
        session.close()
        host.close()


def test_stale_staging_folders_of_killed_clients_are_removed(tmp_path: Path) -> None:
    cache = PackCache(tmp_path / "cache")
    old = tmp_path / "cache" / f"{STAGING_PREFIX}killed"
    recent = tmp_path / "cache" / f"{STAGING_PREFIX}running"
    for folder in (old, recent):
        (folder / "maps").mkdir(parents=True)
    past = time.time() - STALE_STAGING - 60
    os.utime(old, (past, past))
    files = (entry("a.txt", b"good"),)
    folder = cache.store(ref_of(files), files, lambda p, o: b"good"[o:])
    assert _left_in(tmp_path / "cache") == sorted([folder.name, recent.name])


def _lobby_on(host: FakePackHost, h: Harness) -> LobbyScene:
    session = RemoteSession.connect(host.url, "Ann")
    session.join(CODE)
    lobby = LobbyScene(h.app, session)
    h.push(lobby)
    return lobby


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_lobby_shows_a_failed_pack_sync_as_a_message(
    tmp_path: Path, artifacts: Path, size: tuple[int, int]
) -> None:
    files = (
        entry("tactics_ini.txt", b"[general]"),
        P.FileEntry(path="huge.wav", size=TIB, sha256="0" * 64),
    )
    host = _hosting(files, {})
    try:
        with Harness(size=size) as h:
            lobby = _lobby_on(host, h)
            frames_until(h, lambda: lobby.pack_problem is not None)
            assert "past the limit" in (lobby.pack_problem or "")
            assert any("host's pack could not be loaded" in n for n in h.notices)
            assert h.scene is lobby and lobby.pack_state(lobby.session.room) == "failed"
            for i in range(10):  # chat lines as the server sends them: the newest that fit
                lobby.session.client._note(
                    P.ChatLine(code=CODE, seat=0, name="host", text=f"line {i}", at=0.0)
                )
            h.frames(2)
            h.screenshot(artifacts / f"net_lobby_pack_failed_{size[0]}x{size[1]}.png")
            asked = len(host.requests)
            h.click(lobby.ready_button)  # not ready: the pack is fetched again, not readied
            assert any("pack again" in n for n in h.notices)
            frames_until(h, lambda: lobby.pack_problem is not None and len(host.requests) > asked)
            assert all(r.path is None for r in host.requests)
            assert h.scene is lobby
            h.key(27)  # Escape leaves the lobby
        assert _left_in(client_cache_dir()) == []
    finally:
        host.close()


def test_the_lobby_opens_the_battle_only_with_the_pack(tmp_path: Path) -> None:
    """The match begins while the pack failed: the lobby follows it itself, no exception
    escapes and the game's screen is not opened."""
    from suite.net.screens import games as online

    online.register()
    files = (P.FileEntry(path="huge.wav", size=TIB, sha256="0" * 64),)
    host = _hosting(files, {})
    try:
        with Harness(size=(1280, 800)) as h:
            lobby = _lobby_on(host, h)
            frames_until(h, lambda: lobby.pack_problem is not None)
            client = lobby.session.client
            client._note(host.room("playing"))  # as the server's room message when it starts
            h.frames(3)
            assert h.scene is lobby and not lobby.handed_over
    finally:
        host.close()


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_lobby_downloads_the_hosts_pack_in_the_background(
    tmp_path: Path, artifacts: Path, size: tuple[int, int]
) -> None:
    packs = tmp_path / "server" / "packs"
    _big_pack(packs / "modded", 40)
    ref, answer = serving_folder(packs / "modded", packs)
    host = FakePackHost(ref, answer)
    try:
        with Harness(size=size) as h:
            lobby = _lobby_on(host, h)
            frames_until(h, lambda: lobby.pack_state(lobby.session.room) == "ready")
            h.frames(2)
            assert lobby.pack_problem is None and lobby.pack_progress[0] == lobby.pack_progress[1]
            cached = client_cache_dir() / ref.digest
            assert describe(cached)[0].digest == ref.digest
            assert _left_in(client_cache_dir()) == [ref.digest]
            h.screenshot(artifacts / f"net_lobby_pack_ready_{size[0]}x{size[1]}.png")
            assert lobby.session.sync_pack(client_cache_dir()) == cached  # no second download
            assert sum(1 for r in host.requests if r.path is None) == 1
            h.key(27)
    finally:
        host.close()


def test_leaving_the_lobby_mid_download_stops_it_and_removes_the_staging(
    artifacts: Path,
) -> None:
    first = b"first" * 50_000
    files = (entry("a.wav", first), entry("b.wav", b"never sent"))

    def answer(request: P.PackRequest) -> list[P.Message]:
        if request.path is None:
            return [listing(files)]
        if request.path == "a.wav":
            part = first[request.offset : request.offset + 30_000]
            return [chunk("a.wav", request.offset, part)]
        return []  # the server goes quiet

    host = FakePackHost(ref_of(files), answer)
    try:
        with Harness(size=(800, 560)) as h:
            lobby = _lobby_on(host, h)
            frames_until(h, lambda: any(r.path == "b.wav" for r in host.requests))
            h.frames(2)
            assert lobby.pack_state(lobby.session.room) == "syncing"
            assert lobby.pack_progress == (len(first), len(first) + len(b"never sent"))
            h.screenshot(artifacts / "net_lobby_pack_downloading.png")
            assert [p.name[: len(STAGING_PREFIX)] for p in client_cache_dir().iterdir()] == [
                STAGING_PREFIX
            ]
            h.key(27)  # leave: the download is cancelled
            frames_until(h, lambda: _left_in(client_cache_dir()) == [])
    finally:
        host.close()


@pytest.mark.parametrize("names", [["A.wav", "a.wav"], ["maps/nul.bmp"], ["big.wav"]])
def test_the_server_refuses_to_host_a_pack_clients_would_refuse(
    tmp_path: Path, names: list[str]
) -> None:
    from suite.net.server.errors import Refused
    from suite.net.server.packs import PackServer

    folder = tmp_path / "packs" / "odd"
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        size = SyncLimits.shipped().file_bytes + 1 if name == "big.wav" else 4
        with (folder / name).open("wb") as fh:
            fh.truncate(size)  # sparse: nothing is written
    with pytest.raises(Refused) as refused:
        PackServer(tmp_path / "packs").host_pack({"pack": "odd"})
    assert refused.value.code == "bad_config"
