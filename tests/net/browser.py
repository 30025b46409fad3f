"""Real Chromium (Debian's `chromium`, driven by Playwright) against a real `suite serve`.

`server_process` starts a server that outlives the per-test clean-up (several browser
tests share one); `Pages` opens pages that record every console message and page error,
so a test can assert that none was an error. A page is driven only by clicks and keys,
as a person plays; it is read through what it shows (and the `data-state` attribute its
room carries: the state id of the view it shows).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .processes import STARTED, ServerProcess

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Playwright gives every launch a fresh temporary --user-data-dir of its own."""
SIZES = {"phone": (390, 844), "laptop": (1280, 800), "desktop": (1920, 1080)}


def chromium() -> str:
    """Debian's chromium; a clear failure when it is missing (in CI and anywhere)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail(
            "the browser tests need Debian's chromium: apt-get install chromium "
            "(.ci/run installs it); they are never skipped"
        )
    return path


def server_process(data: Path, *extra: str) -> ServerProcess:
    """A `suite serve` the per-test clean-up leaves alone (its fixture stops it)."""
    server = ServerProcess(data, *extra)
    STARTED.remove(server.proc)
    return server


def stop(server: ServerProcess) -> None:
    if server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait(timeout=10)


@dataclass
class Pages:
    """Opens pages on one browser and keeps what their consoles said."""

    browser: Any
    base: str
    messages: list[tuple[str, str]] = field(default_factory=list)
    pages: list[Any] = field(default_factory=list)

    def open(
        self, path: str = "/", size: str = "laptop", before: Callable[[Any], None] | None = None
    ) -> Any:
        """A page on `path` in a context of its own; `before(page)` runs before it loads
        (to listen to its websocket from the start, say)."""
        width, height = SIZES[size]
        context = self.browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("console", lambda m: self.messages.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.messages.append(("pageerror", str(e))))
        if before is not None:
            before(page)
        page.goto(self.base + path)
        self.pages.append(page)
        return page

    def errors(self, allowed: Callable[[str], bool] = lambda text: False) -> list[str]:
        """Console errors and page errors, except those `allowed` forgives."""
        return [
            f"{kind}: {text}"
            for kind, text in self.messages
            if kind in ("error", "pageerror") and not allowed(text)
        ]

    def close(self) -> None:
        for page in self.pages:
            page.context.close()
        self.pages.clear()


def state(page: Any) -> int:
    """The state id of the view the room page shows (-1 before its first view)."""
    value = page.get_attribute("main.room", "data-state")
    return -1 if value is None else int(value)


def shoot(page: Any, artifacts: Path, name: str) -> None:
    """Screenshots of the page at every size of SIZES (the page keeps the last)."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts / f"web-{name}-{size}.png"))
    page.set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})


def create_room(page: Any, name: str, settings: dict[str, str], seats: dict[int, str]) -> str:
    """Fill the lobby's World War form by hand and create the room; its code."""
    page.fill("#name", name)
    page.press("#name", "Tab")
    page.wait_for_selector("#create-room")
    for select in ("map", "players", "cards", "mode", "clock", "defender", "deploy"):
        if select in settings:
            page.select_option(f"#{select}", settings[select])
    for text in ("territories", "continents", "max-turns"):
        if text in settings:
            page.fill(f"#{text}", settings[text])
    for seat, kind in seats.items():
        page.select_option(f"#seat-{seat}", kind)
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("svg.board .territory")
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def my_turn(page: Any) -> bool:
    return bool(page.locator("#room-actions h2").count())


def act(page: Any, selector: str) -> None:
    """Click what `selector` finds and wait for the view that follows."""
    before = state(page)
    page.click(selector)
    # Waits read the page through selectors only: its CSP forbids the eval that a
    # script predicate (wait_for_function) would need.
    page.wait_for_selector(f"main.room:not([data-state='{before}']), .end")


def play_turn(page: Any, attacked: set[str]) -> None:
    """One move of this seat by clicks and keys: place everything on one territory, take
    one attack a turn to the end (picking the target with the keyboard, moving every army
    in), then end the turn. `attacked` keeps the turns already attacked in."""
    if page.locator("#place-amount").count():
        options = page.locator("#place-amount option")
        page.select_option("#place-amount", options.nth(options.count() - 1).get_attribute("value"))
        act(page, ".territory.pickable .disc")  # a shape's middle may be another's land
        return
    if page.locator("#occupy").count():
        act(page, "#occupy")
        return
    turn = page.get_attribute("main.room", "data-turn") or ""
    if turn not in attacked:
        attacked.add(turn)
        sources = page.locator(".territory.pickable .disc")
        for i in range(min(sources.count(), 6)):
            sources.nth(i).click()
            targets = page.locator(".territory.pickable")
            if targets.count():
                targets.first.focus()
                page.keyboard.press("Enter")
                if page.locator("[data-kind=blitz]").count():
                    page.wait_for_selector(".odds")
                    act(page, "[data-kind=blitz]")
                    return
            page.keyboard.press("Escape")
    for kind in ("end_turn", "end_attack", "skip_turn_in"):
        if page.locator(f"[data-kind={kind}]").count():
            act(page, f"[data-kind={kind}]")
            return


def play_to_the_end(page: Any, limit: float = 120.0) -> None:
    """Play this page's seat by clicks until the match is over."""
    import time

    attacked: set[str] = set()
    end = time.monotonic() + limit
    while not page.locator(".end").count():
        assert time.monotonic() < end, "the match did not end in time"
        if my_turn(page):
            play_turn(page, attacked)
        else:
            page.wait_for_timeout(50)
