"""`suite tactics fetch` against a local web folder on 127.0.0.1 (threaded, in-test)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from suite.cli import main
from suite.tactics.assets.fetch import FetchStatus, fetch_pack, is_locked, local_version
from suite.tactics.assets.pack import load_pack

from .conftest import GOOD_INI, MakePack


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder; `/stream/...` answers without a Content-Length."""

    requested: list[str]

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return

    def do_GET(self) -> None:  # noqa: N802
        self.requested.append(self.path)
        if self.path.startswith("/stream/"):
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for _ in range(64):
                self.wfile.write(b"x" * 1024)
            return
        super().do_GET()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path, list[str]]]:
    """(base URL, served folder, requested paths)."""
    folder = tmp_path / "site"
    folder.mkdir()
    requested: list[str] = []
    handler = functools.partial(
        type("H", (Handler,), {"requested": requested}), directory=str(folder)
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/tactics", folder / "tactics", requested
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def publish(make_pack: MakePack, site_dir: Path, ini: str = GOOD_INI) -> None:
    source = make_pack(ini, name="source")
    if site_dir.exists():
        import shutil

        shutil.rmtree(site_dir)
    source.rename(site_dir)


def test_fetch_then_up_to_date_then_force(site, make_pack, tmp_path: Path) -> None:
    url, site_dir, requested = site
    publish(make_pack, site_dir)
    dest = tmp_path / "world" / "tactics"
    seen: list[tuple[int, int, str]] = []
    result = fetch_pack(url, dest, progress=lambda d, t, n: seen.append((d, t, n)))
    assert result.status is FetchStatus.FETCHED, result.messages
    assert requested[0] == "/tactics/tactics_ini.txt"
    assert sorted(result.files) == sorted(
        [
            "maps/field.bmp",
            "skins/knight.bmp",
            "sounds/hit.wav",
            "tiles/grass.bmp",
            "tactics_ini.txt",
        ]
    )
    assert seen[-1][:2] == (5, 5)
    assert load_pack(dest).problems == []
    assert local_version(dest) == 1.5
    assert not list(dest.parent.glob(".tactics-fetch-*"))

    requested.clear()
    again = fetch_pack(url, dest)
    assert again.status is FetchStatus.UP_TO_DATE
    assert requested == ["/tactics/tactics_ini.txt"]
    forced = fetch_pack(url, dest, force=True)
    assert forced.status is FetchStatus.FETCHED and len(forced.files) == 5


def test_new_version_is_fetched(site, make_pack, tmp_path: Path) -> None:
    url, site_dir, _requested = site
    publish(make_pack, site_dir)
    dest = tmp_path / "dest"
    fetch_pack(url, dest)
    publish(make_pack, site_dir, GOOD_INI.replace("version = 1.5", "version = 1.5001"))
    result = fetch_pack(url, dest)
    assert result.status is FetchStatus.FETCHED
    assert (result.local_version, result.remote_version) == (1.5, 1.5001)
    assert local_version(dest) == 1.5001


def test_locked_folder_is_refused(site, make_pack, tmp_path: Path) -> None:
    url, site_dir, requested = site
    publish(make_pack, site_dir)
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "wosTacticsSettings.ini").write_text("[General]\r\nLocked = 1\r\n")
    assert is_locked(dest)
    result = fetch_pack(url, dest, force=True)
    assert result.status is FetchStatus.LOCKED
    assert requested == []
    assert sorted(p.name for p in dest.iterdir()) == ["wosTacticsSettings.ini"]
    (dest / "wosTacticsSettings.ini").write_text("[general]\nlocked = 0\n")
    assert fetch_pack(url, dest).status is FetchStatus.FETCHED


def test_path_traversal_names_are_never_requested(site, make_pack, tmp_path: Path) -> None:
    url, site_dir, requested = site
    evil = GOOD_INI.replace(
        "sound1 = hit, sounds\\hit",
        "sound1 = hit, sounds\\hit\nsound2 = a, ..\\..\\escape\nsound3 = b, /etc/passwd.wav\n"
        "sound4 = c, C:\\Windows\\x\nsound5 = d, sounds\\..\\..\\up",
    )
    publish(make_pack, site_dir, evil)
    dest = tmp_path / "deep" / "dest"
    result = fetch_pack(url, dest)
    assert result.status is FetchStatus.FETCHED
    assert len([m for m in result.messages if "skipped unsafe file name" in m]) == 4
    assert not any(".." in path or "etc" in path or "Windows" in path for path in requested)
    assert not (tmp_path / "escape.wav").exists() and not (tmp_path / "up.wav").exists()
    inside = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert all(name.startswith(("deep/dest/", "source", "site/")) for name in inside), inside


def test_oversize_file_leaves_the_pack_untouched(site, make_pack, tmp_path: Path) -> None:
    url, site_dir, _requested = site
    publish(make_pack, site_dir)
    dest = tmp_path / "dest"
    assert fetch_pack(url, dest).status is FetchStatus.FETCHED
    before = {p: p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    publish(make_pack, site_dir, GOOD_INI.replace("version = 1.5", "version = 2"))
    (site_dir / "tiles" / "grass.bmp").write_bytes(b"BM" + bytes(40_000))
    result = fetch_pack(url, dest, max_bytes=20_000)
    assert result.status is FetchStatus.FAILED
    assert "over the limit of 20000" in result.messages[-1]
    assert {p: p.read_bytes() for p in dest.rglob("*") if p.is_file()} == before
    assert not list(dest.parent.glob(".tactics-fetch-*"))


def test_stream_without_length_is_cut_at_the_limit(site, tmp_path: Path) -> None:
    url, _site_dir, _requested = site
    base = url.rsplit("/", 1)[0] + "/stream/"
    result = fetch_pack(base, tmp_path / "dest", max_bytes=10_000)
    assert result.status is FetchStatus.FAILED
    assert "over the limit of 10000 bytes" in result.messages[0]
    assert not (tmp_path / "dest").exists()


def test_missing_needed_file_on_the_server_fails_cleanly(site, make_pack, tmp_path) -> None:
    url, site_dir, _requested = site
    publish(make_pack, site_dir)
    (site_dir / "tiles" / "grass.bmp").unlink()
    result = fetch_pack(url, tmp_path / "dest")
    assert result.status is FetchStatus.FAILED
    assert "tiles/grass.bmp: HTTP 404" in result.messages[-1]
    assert not (tmp_path / "dest").exists()


def test_missing_sound_is_a_warning(site, make_pack, tmp_path: Path) -> None:
    """RULINGS T19: a missing sound no longer aborts the fetch."""
    url, site_dir, _requested = site
    publish(make_pack, site_dir)
    (site_dir / "sounds" / "hit.wav").unlink()
    result = fetch_pack(url, tmp_path / "dest")
    assert result.status is FetchStatus.FETCHED
    assert any("warning" in m and "sounds/hit.wav: HTTP 404" in m for m in result.messages)
    assert "sounds/hit.wav" not in result.files and "tiles/grass.bmp" in result.files


def test_only_http_urls(tmp_path: Path) -> None:
    result = fetch_pack("file:///etc", tmp_path / "dest")
    assert result.status is FetchStatus.FAILED
    assert "only http and https URLs are fetched" in result.messages[0]


def test_cli_fetch(site, make_pack, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, site_dir, _requested = site
    publish(make_pack, site_dir)
    dest = tmp_path / "dest"

    def said() -> str:
        """The output as one line (the console wraps it at its width, a long path too)."""
        return " ".join(capsys.readouterr().out.split())

    assert main(["tactics", "fetch", url, str(dest)]) == 0
    assert "fetched 5 files, version 1.5" in said()
    assert main(["tactics", "fetch", url, str(dest)]) == 0
    assert "already has version 1.5" in said()
    (dest / "wosTacticsSettings.ini").write_text("[general]\nlocked=1\n")
    assert main(["tactics", "fetch", "--force", url, str(dest)]) == 1
    assert "is locked" in said()
