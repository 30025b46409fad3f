"""A finished match's replay as the server sends it (`replay_chunk` documents)."""

from __future__ import annotations

import msgspec

from suite.core.match import Replay


def decode_replay(data: bytes) -> Replay:
    """A replay document as `Replays.answer` sends it (ValueError when malformed)."""
    try:
        return msgspec.json.decode(data, type=Replay)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ValueError(f"not a replay: {exc}") from exc
