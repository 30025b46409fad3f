"""The web client in real Chromium against a real `suite serve`: whole World War matches
played by clicks and keys on the classic and a generated map, a spectator who sees no
hand, a desktop `RemoteSession` in the same room as a browser seat, a server killed and
restarted mid-match, hostile names and chat lines, and screenshots at three sizes."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from suite.net.client.session import RemoteSession

from .browser import (
    Pages,
    create_room,
    play_to_the_end,
    server_process,
    shoot,
    state,
    stop,
)
from .processes import ServerProcess
from .test_net_web import DOMINATION, png

HOSTILE = "<img src=x onerror=__pwned=1>"  # a name: at most 32 characters


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = server_process(tmp_path_factory.mktemp("web-serve"))
    yield running
    stop(running)


def test_a_classic_match_is_played_by_clicks_to_the_end_and_watched(
    pages: Pages, artifacts: Path
) -> None:
    lobby = pages.open("/")
    lobby.wait_for_selector("#create-room")
    shoot(lobby, artifacts, "lobby")
    code = create_room(
        lobby,
        "ann",
        {"map": "classic", "deploy": "auto", "max-turns": "2", "cards": "increasing"},
        {1: "easy"},
    )
    watcher = pages.open(f"/r/{code}/watch")
    watcher.wait_for_selector("svg.board .territory")
    lobby.click("#ready")
    lobby.wait_for_selector("#room-actions h2")
    assert lobby.locator("#room-hand h2").inner_text().lower() == "your cards"
    shoot(lobby, artifacts, "turn")
    play_to_the_end(lobby)
    watcher.wait_for_selector(".end")
    shoot(lobby, artifacts, "end")
    places = lobby.locator(".places li")
    assert places.count() >= 1
    assert "ann" in lobby.locator(".places").inner_text() or "easy" in places.first.inner_text()
    # The spectator saw the same end and never a hand or a mission.
    assert watcher.locator("#room-hand *").count() == 0
    assert watcher.locator(".mission").count() == 0
    assert "watching" in watcher.locator("#room-status").inner_text()


def test_a_generated_map_match_with_a_desktop_seat(pages: Pages, server: ServerProcess) -> None:
    page = pages.open("/")
    code = create_room(
        page,
        "bea",
        {"map": "random", "territories": "12", "continents": "2", "deploy": "auto"}
        | {"max-turns": "2", "clock": "60"},
        {1: "human"},
    )
    desk = RemoteSession.connect(server.url, "desk")
    failures: list[BaseException] = []

    def play_desk() -> None:
        try:
            desk.join(code, 1)
            desk.ready()
            deadline = time.monotonic() + 120
            while desk.outcome() is None and time.monotonic() < deadline:
                desk.poll()
                if 1 in desk.awaiting():
                    legal = list(desk.legal(1))
                    kinds = [msgspec.to_builtins(a)["kind"] for a in legal]
                    wanted = ("place", "occupy", "end_turn", "end_attack", "skip_turn_in")
                    pick = next((a for a, k in zip(legal, kinds, strict=True) if k in wanted), None)
                    desk.act(1, pick if pick is not None else legal[0])
                    time.sleep(0.05)
                else:
                    time.sleep(0.02)
        except BaseException as exc:  # reported by the test below
            failures.append(exc)

    worker = threading.Thread(target=play_desk, daemon=True)
    worker.start()
    page.locator(".seat .name", has_text="desk").wait_for()
    page.click("#ready")
    assert page.locator("#clock").inner_text().endswith(" s left")  # the turn clock runs
    play_to_the_end(page)
    worker.join(timeout=60)
    desk.close()
    assert failures == []
    assert desk.outcome() is not None


def test_a_hosts_domination_map_is_drawn_on_its_own_artwork(
    pages: Pages, server: ServerProcess
) -> None:
    folder = server.data / "maps" / "worldwar"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tiny.map").write_text(DOMINATION)
    (folder / "tiny_pic.png").write_bytes(png(200, 120))
    (folder / "tiny_map.png").write_bytes(png(200, 120))
    page = pages.open("/")
    page.wait_for_selector("#map option[value=tiny]", state="attached")
    create_room(page, "dee", {"map": "tiny", "deploy": "auto"}, {1: "easy"})
    art = page.locator("svg.board image")
    url = art.get_attribute("href") or ""
    assert url.startswith("/art/") and url.endswith(".png")
    assert page.request.get(pages.base + url).body() == (folder / "tiny_pic.png").read_bytes()
    assert page.locator("svg.board .territory").count() == 4
    assert page.locator(".territory title").first.text_content() == "North West"


def test_hostile_names_and_chat_show_as_text(pages: Pages) -> None:
    page = pages.open("/")
    code = create_room(page, HOSTILE, {"map": "random", "territories": "12"}, {1: "human"})
    guest = pages.open(f"/r/{code}")
    guest.click(".take")  # the room's link: take the free seat
    guest.wait_for_selector("#ready")
    page.fill("#chat-text", HOSTILE)
    page.press("#chat-text", "Enter")
    guest.fill("#chat-text", "javascript:window.__pwned=2")
    guest.press("#chat-text", "Enter")
    guest.locator("#room-chat .lines li").nth(1).wait_for()
    for seen in (page, guest):
        text = seen.locator("#room-chat .lines").inner_text()
        assert HOSTILE in text and "javascript:window.__pwned=2" in text
        assert HOSTILE in seen.locator("#room-seats").inner_text()
        assert seen.locator("#room-chat img, #room-seats img").count() == 0
        assert seen.evaluate("window.__pwned") is None
    # host controls: list the room, then let the guest go (its seat is free again)
    page.click("#public")
    page.wait_for_selector("#public:text('Make private')")
    page.click(".seat:nth-child(2) button:text('Kick')")
    guest.wait_for_selector(".take")  # watching now, and offered the free seat
    assert "open seat" in page.locator("#room-seats").inner_text()
    assert "watching" in guest.locator("#room-status").inner_text()


def test_the_page_rejoins_by_itself_after_a_restart(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = tmp_path_factory.mktemp("web-restart")
    first = server_process(data)
    port = first.port
    pages = Pages(browser, f"http://127.0.0.1:{port}")
    try:
        page = pages.open("/")
        code = create_room(
            page,
            "cat",
            {"map": "random", "territories": "12", "deploy": "auto", "max-turns": "2"},
            {1: "easy"},
        )
        page.click("#ready")
        page.wait_for_selector("#room-actions h2")
        seen = state(page)
        stop(first)
        page.wait_for_selector(".banner")
        second = server_process(data, "--port", str(port))
        try:
            page.wait_for_selector(".banner", state="detached", timeout=30_000)
            page.wait_for_selector("#room-actions h2")
            assert state(page) == seen
            assert page.url.endswith(f"/r/{code}")
            page.click("button:text('Pause')")
            page.wait_for_selector("#room-status :text('Paused by the host.')")
            page.click("button:text('Resume')")
            page.wait_for_selector("button:text('Pause')")
            play_to_the_end(page)
        finally:
            stop(second)
    finally:
        stop(first)
        pages.close()
    # While the server was down, Chromium itself logs the refused connections.
    assert pages.errors(lambda text: "ERR_CONNECTION_REFUSED" in text) == []
