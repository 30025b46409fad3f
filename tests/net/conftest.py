"""Net tests: no server process a test started outlives it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .browser import CHROMIUM_ARGS, Pages, chromium
from .processes import ServerProcess, stop_started


@pytest.fixture(autouse=True)
def _no_server_left_behind() -> Iterator[None]:
    yield
    stop_started()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright, one per browser test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def pages(browser: Any, server: ServerProcess) -> Iterator[Pages]:
    """Pages of the module's own `server` fixture; no page may have logged an error."""
    opened = Pages(browser, f"http://127.0.0.1:{server.port}")
    yield opened
    opened.close()
    assert opened.errors() == []
