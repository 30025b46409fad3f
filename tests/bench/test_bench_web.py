"""The web client's figures against a real `suite serve` in Debian's chromium (printed
with `make bench`; nothing asserts on time): the bytes a cold load of a room link
transfers (target: at most 300 KB compressed; the board itself comes over the
websocket), the time from opening the link to the first drawn board on loopback
(target: at most 1 s), and the animation frames an idle page asks for in 10 s (target:
0, counted by a requestAnimationFrame wrapper injected before the page's script)."""

from __future__ import annotations

import time
from pathlib import Path

from suite.net.client.session import RemoteSession

from .webbench import COUNT_FRAMES, IDLE_SECONDS, chromium_page, idle_frames, served


def test_bench_web_client(tmp_path: Path) -> None:
    with served(tmp_path, bot_delay=0) as port:
        session = RemoteSession.connect(f"ws://127.0.0.1:{port}", "host")
        session.create("worldwar", {"players": 2, "map": "classic"})
        session.seat_bot(1, "easy")
        session.ready()
        with chromium_page(1280, 800, COUNT_FRAMES) as page:
            started = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/r/{session.code}/watch")
            page.wait_for_selector("svg.board .territory")
            first_board = time.perf_counter() - started
            sizes = page.evaluate(
                "performance.getEntriesByType('navigation').concat("
                "performance.getEntriesByType('resource'))"
                ".map(e => [e.name, e.transferSize, e.decodedBodySize])"
            )
            page.wait_for_timeout(500)  # the last messages of the opening land
            frames = idle_frames(page)
        session.close()
    transferred = sum(int(s[1]) for s in sizes)
    decoded = sum(int(s[2]) for s in sizes)
    print(
        f"\nweb client: {transferred / 1000:.1f} KB transferred ({decoded / 1000:.1f} KB "
        f"uncompressed) in {len(sizes)} requests (target <= 300 KB)"
    )
    print(f"web client: room link to first drawn board {first_board * 1000:.0f} ms (target <= 1 s)")
    print(f"web client: {frames} animation frames in {IDLE_SECONDS:g} s of an idle page (target 0)")
