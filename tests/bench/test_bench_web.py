"""The web client's figures against a real `suite serve` in Debian's chromium (printed
with `make bench`; nothing asserts on time): the bytes a cold load of a room link
transfers (target: at most 300 KB compressed; the board itself comes over the
websocket), the time from opening the link to the first drawn board on loopback
(target: at most 1 s), and the animation frames an idle page asks for in 10 s (target:
0, counted by a requestAnimationFrame wrapper injected before the page's script)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from suite.net.client.session import RemoteSession

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IDLE_SECONDS = 10.0
COUNT_FRAMES = """
window.__frames = 0;
const ask = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => { window.__frames += 1; return ask(callback); };
"""


def test_bench_web_client(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen(
        [sys.executable, "-m", "suite", "serve", "--port", "0", "--data", str(tmp_path)]
        + ["--bot-delay", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        port = 0
        for line in server.stderr:
            if "serving on" in line:
                port = int(line.split("serving on ")[1].split(" ")[0].rsplit(":", 1)[1])
                break
        session = RemoteSession.connect(f"ws://127.0.0.1:{port}", "host")
        session.create("worldwar", {"players": 2, "map": "classic"})
        session.seat_bot(1, "easy")
        session.ready()
        code = session.code
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_init_script(COUNT_FRAMES)
            page = context.new_page()
            started = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/r/{code}/watch")
            page.wait_for_selector("svg.board .territory")
            first_board = time.perf_counter() - started
            sizes = page.evaluate(
                "performance.getEntriesByType('navigation').concat("
                "performance.getEntriesByType('resource'))"
                ".map(e => [e.name, e.transferSize, e.decodedBodySize])"
            )
            page.wait_for_timeout(500)  # the last messages of the opening land
            before = page.evaluate("window.__frames")
            page.wait_for_timeout(IDLE_SECONDS * 1000)
            frames = page.evaluate("window.__frames") - before
            browser.close()
        session.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    transferred = sum(int(s[1]) for s in sizes)
    decoded = sum(int(s[2]) for s in sizes)
    print(
        f"\nweb client: {transferred / 1000:.1f} KB transferred ({decoded / 1000:.1f} KB "
        f"uncompressed) in {len(sizes)} requests (target <= 300 KB)"
    )
    print(f"web client: room link to first drawn board {first_board * 1000:.0f} ms (target <= 1 s)")
    print(f"web client: {frames} animation frames in {IDLE_SECONDS:g} s of an idle page (target 0)")
