"""`suite tactics fetch` stays all or nothing and inside its folder (issue 12, items 10 and
12): optional buttons/ and misc/, a world's config.ini, the overall deadline, clean OS
errors, the settings file, symlinks and malformed URLs. Served from 127.0.0.1 only."""

from __future__ import annotations

import http.server
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from suite.cli import main
from suite.tactics.assets.fetch import STAGING_PREFIX, FetchStatus, fetch_pack, source_url

from .conftest import GOOD_INI, build_pack


class Site(http.server.SimpleHTTPRequestHandler):
    """Serves `root`; under /drip/ it answers one byte every `drip` seconds; under /any/
    it serves `files` by name and a few bytes for any other name."""

    root: Path
    files: dict[str, bytes]
    drip: float = 0.4

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/drip/"):
            self.send_response(200)
            self.end_headers()
            try:
                for _ in range(200):
                    self.wfile.write(b";")
                    self.wfile.flush()
                    time.sleep(self.drip)
            except OSError:
                return
            return
        if self.path.startswith("/any/"):
            name = self.path[len("/any/") :]
            body = self.files.get(name, b"BM-not-checked")
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path, dict[str, bytes]]]:
    """(http://127.0.0.1:PORT, served folder, files served under /any/)."""
    folder = tmp_path / "site"
    folder.mkdir()
    files: dict[str, bytes] = {}
    handler = type("H", (Site,), {"root": folder, "files": files})

    def make(*args: object, **kwargs: object) -> Site:
        return handler(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make)  # type: ignore[arg-type]
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", folder, files
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def published(folder: Path, ini: str = GOOD_INI) -> Path:
    return build_pack(folder / "tactics", ini)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    }


def test_buttons_and_misc_are_fetched_when_present(server, tmp_path: Path) -> None:
    base, folder, _files = server
    site = published(folder)
    (site / "buttons").mkdir()
    (site / "buttons" / "endTurn.bmp").write_bytes(b"BM button")
    (site / "misc").mkdir()
    (site / "misc" / "readme.txt").write_bytes(b"hello")
    dest = tmp_path / "dest"
    result = fetch_pack(base + "/tactics", dest)
    assert result.status is FetchStatus.FETCHED, result.messages
    assert "buttons/endTurn.bmp" in result.files and "misc/readme.txt" in result.files
    assert (dest / "buttons" / "endTurn.bmp").read_bytes() == b"BM button"
    plain = fetch_pack(base + "/tactics", tmp_path / "other", force=True)
    assert plain.status is FetchStatus.FETCHED


def test_a_worlds_config_ini_names_the_source(server, tmp_path: Path, capsys) -> None:
    base, folder, _files = server
    published(folder)
    config = tmp_path / "world" / "config.ini"
    config.parent.mkdir()
    config.write_text(f"[World]\r\nname = Evergreen\r\ntacticsSourceUrl = {base}/tactics\r\n")
    assert source_url(config) == f"{base}/tactics"
    dest = tmp_path / "world" / "tactics"
    assert main(["tactics", "fetch", str(config), str(dest)]) == 0
    assert (dest / "tactics_ini.txt").is_file()
    config.write_text("[World]\r\nname = Evergreen\r\n")
    assert main(["tactics", "fetch", str(config), str(dest)]) == 1
    assert "no tacticsSourceUrl" in capsys.readouterr().out


def test_a_dripping_server_is_cut_at_the_deadline(server, tmp_path: Path) -> None:
    base, _folder, _files = server
    dest = tmp_path / "dest"
    result = fetch_pack(base + "/drip/tactics", dest, deadline=1.5)
    assert result.status is FetchStatus.FAILED
    assert "took longer than 1.5 s" in result.messages[-1]
    assert not dest.exists() and not list(tmp_path.glob(STAGING_PREFIX + "*"))


def test_a_killed_fetchs_staging_folder_is_removed(server, tmp_path: Path) -> None:
    base, folder, _files = server
    published(folder)
    stale = tmp_path / f"{STAGING_PREFIX}999999999-abc"
    (stale / "tiles").mkdir(parents=True)
    (stale / "tiles" / "half.bmp").write_bytes(b"half")
    result = fetch_pack(base + "/tactics", tmp_path / "dest")
    assert result.status is FetchStatus.FETCHED
    assert not stale.exists()


def any_site(files: dict[str, bytes], ini: str) -> None:
    files["tactics_ini.txt"] = ini.replace("\n", "\r\n").encode("cp1252")


def test_a_name_too_long_is_a_clean_error(server, tmp_path: Path) -> None:
    base, _folder, files = server
    any_site(files, GOOD_INI.replace("tiles\\grass", "tiles\\" + "g" * 300))
    dest = tmp_path / "dest"
    result = fetch_pack(base + "/any/", dest)
    assert result.status is FetchStatus.FAILED
    assert "cannot be written" in result.messages[-1] and "was not changed" in result.messages[-1]
    assert not dest.exists()


def test_a_file_and_a_folder_of_one_name_is_a_clean_error(server, tmp_path: Path) -> None:
    base, _folder, files = server
    ini = GOOD_INI.replace("maps\\field", "tiles\\grass.bmp\\field")
    any_site(files, ini)
    dest = tmp_path / "dest"
    result = fetch_pack(base + "/any/", dest)
    assert result.status is FetchStatus.FAILED, result.messages
    assert "was not changed" in result.messages[-1]
    assert not dest.exists()


def test_a_folder_where_a_file_goes_leaves_the_pack_as_it_was(server, tmp_path: Path) -> None:
    base, folder, _files = server
    published(folder)
    dest = tmp_path / "dest"
    (dest / "tiles" / "grass.bmp").mkdir(parents=True)
    (dest / "tactics_ini.txt").write_bytes(b"[general]\r\nversion = 0.5\r\n")
    before = snapshot(dest)
    result = fetch_pack(base + "/tactics", dest)
    assert result.status is FetchStatus.FAILED
    assert "a folder stands where the file goes" in result.messages[-1]
    assert snapshot(dest) == before and (dest / "tiles" / "grass.bmp").is_dir()


def test_the_settings_file_is_never_overwritten(server, tmp_path: Path) -> None:
    base, folder, _files = server
    ini = GOOD_INI.replace(
        "sound1 = hit, sounds\\hit",
        "sound1 = hit, sounds\\hit\nsound2 = lock, wosTacticsSettings.ini",
    )
    site = published(folder, ini)
    (site / "wosTacticsSettings.ini").write_text("[general]\r\nlocked = 0\r\nremote = 1\r\n")
    dest = tmp_path / "dest"
    dest.mkdir()
    mine = b"[general]\r\nlocked = 0\r\nmine = 1\r\n"
    (dest / "wosTacticsSettings.ini").write_bytes(mine)
    result = fetch_pack(base + "/tactics", dest)
    assert result.status is FetchStatus.FETCHED, result.messages
    assert (dest / "wosTacticsSettings.ini").read_bytes() == mine
    assert any("never fetched" in m for m in result.messages)


def test_a_symlink_inside_the_target_is_never_followed(server, tmp_path: Path) -> None:
    base, folder, _files = server
    published(folder)
    outside = tmp_path / "outside"
    outside.mkdir()
    dest = tmp_path / "dest"
    dest.mkdir()
    os.symlink(outside, dest / "tiles")
    result = fetch_pack(base + "/tactics", dest)
    assert result.status is FetchStatus.FAILED
    assert "symbolic link" in result.messages[-1]
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in dest.iterdir()) == ["tiles"]


@pytest.mark.parametrize(
    "url",
    ["http://[::1", "http:///nohost", "http://exa mple.com/x", "ht!tp://x", "http://h:99999/", ""],
)
def test_a_malformed_url_is_an_error(url: str, tmp_path: Path, capsys) -> None:
    result = fetch_pack(url, tmp_path / "dest")
    assert result.status is FetchStatus.FAILED
    assert "URL" in result.messages[0] and "was not changed" in result.messages[0]
    assert main(["tactics", "fetch", url or "x", str(tmp_path / "dest")]) == 1
    assert "Traceback" not in capsys.readouterr().err
    assert not (tmp_path / "dest").exists()


def test_a_move_failing_half_way_puts_every_file_back(server, tmp_path: Path, monkeypatch) -> None:
    import errno

    import suite.tactics.assets.fetch as fetch

    base, folder, _files = server
    published(folder)
    dest = tmp_path / "dest"
    assert fetch_pack(base + "/tactics", dest).status is FetchStatus.FETCHED
    before = snapshot(dest)
    site = published(folder, GOOD_INI.replace("version = 1.5", "version = 2"))
    (site / "tiles" / "grass.bmp").write_bytes(b"BM changed")
    real = os.replace
    calls = {"n": 0}

    def flaky(src: object, dst: object) -> None:
        calls["n"] += 1
        if calls["n"] == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(fetch.os, "replace", flaky)
    result = fetch_pack(base + "/tactics", dest)
    monkeypatch.setattr(fetch.os, "replace", real)
    assert result.status is FetchStatus.FAILED
    assert "No space left on device" in result.messages[-1]
    assert snapshot(dest) == before
