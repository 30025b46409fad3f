"""Net tests: no server process a test started outlives it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .processes import stop_started


@pytest.fixture(autouse=True)
def _no_server_left_behind() -> Iterator[None]:
    yield
    stop_started()
