"""What the web client's benches share: a real `suite serve` on a free port, a headless
Debian chromium page that counts the animation frames it asks for, and the idle count."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.net.browser import CHROMIUM_ARGS, chromium
from tests.net.processes import ServerProcess

IDLE_SECONDS = 10.0
COUNT_FRAMES = """
window.__frames = 0;
const ask = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => { window.__frames += 1; return ask(callback); };
"""
"""Counts the animation frames the page asks for (injected before the page's script)."""


@contextmanager
def served(data: Path, bot_delay: float) -> Iterator[int]:
    """A `suite serve` process on data folder `data`; its port while the block runs."""
    server = ServerProcess(data, "--bot-delay", str(bot_delay))
    try:
        yield server.port
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=10)


@contextmanager
def chromium_page(width: int, height: int, init_script: str) -> Iterator[Any]:
    """A page of a headless chromium at `width`x`height` running `init_script` first."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_init_script(init_script)
            yield context.new_page()
        finally:
            browser.close()


def idle_frames(page: Any) -> int:
    """The animation frames the page asks for in `IDLE_SECONDS` of doing nothing."""
    before = int(page.evaluate("window.__frames"))
    page.wait_for_timeout(IDLE_SECONDS * 1000)
    return int(page.evaluate("window.__frames")) - before
