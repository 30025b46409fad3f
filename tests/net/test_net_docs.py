"""docs/protocol.md: its Python example runs against a live server as written."""

from __future__ import annotations

import re
from pathlib import Path

from suite.net.server.app import MatchServer

from .test_net_session import server  # noqa: F401 - the threaded server fixture

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_protocol_doc_example_runs(server: MatchServer) -> None:  # noqa: F811
    (block,) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    code = block.replace("ws://127.0.0.1:8765", f"ws://127.0.0.1:{server.port}")
    assert code != block
    exec(compile(code, str(DOC), "exec"), {"__name__": "doc_example"})
    (room,) = server.rooms.values()
    assert room.phase == "playing" and [s.kind for s in room.seats] == ["human", "bot", "bot"]


def test_hosting_doc_lists_every_setting() -> None:
    from suite.net.server.settings import Settings

    hosting = (DOC.parent / "hosting.md").read_text(encoding="utf-8")
    missing = [name for name in Settings.__struct_fields__ if f"`{name}`" not in hosting]
    assert not missing, f"docs/hosting.md does not list {missing}"
