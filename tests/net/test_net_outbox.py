"""The server's `Outbox`: the store commits before any write, writes wait for the end of
the loop's turn (or less in a long turn), and a turn that only wrote to the store commits
at its end."""

from __future__ import annotations

import asyncio

from suite.net.server.outbox import Outbox

from .helpers import run


def test_writes_wait_for_the_end_of_the_turn_after_the_commit() -> None:
    async def main() -> None:
        said: list[str] = []
        outbox = Outbox(flush_after=60.0, before_write=lambda: said.append("commit"))
        outbox.due(lambda: said.append("a"))
        outbox.due(lambda: said.append("b"))
        assert said == []
        await asyncio.sleep(0)
        assert said == ["commit", "a", "b"]
        await asyncio.sleep(0)
        assert said == ["commit", "a", "b"]  # nothing more due: no commit either

    run(main())


def test_a_long_turn_writes_what_waited_too_long_at_once() -> None:
    async def main() -> None:
        said: list[str] = []
        outbox = Outbox(flush_after=0.0, before_write=lambda: said.append("commit"))
        outbox.due(lambda: said.append("a"))
        assert said == ["commit", "a"]
        outbox.due(lambda: said.append("b"))
        assert said == ["commit", "a", "commit", "b"]
        await asyncio.sleep(0)
        assert said == ["commit", "a", "commit", "b"]

    run(main())


def test_a_turn_that_only_stored_commits_at_its_end() -> None:
    async def main() -> None:
        said: list[str] = []
        outbox = Outbox(before_write=lambda: said.append("commit"))
        outbox.commit_due()
        outbox.commit_due()
        assert said == []
        await asyncio.sleep(0)
        assert said == ["commit"]

    run(main())
    said: list[str] = []
    Outbox(before_write=lambda: said.append("commit")).commit_due()
    assert said == ["commit"]  # no event loop: at once
