"""Frames between server processes carry their payload byte for byte (issue 31.3)."""

from __future__ import annotations

import msgspec
import pytest

from suite.net.cluster.frames import Frame, decode_frame, encode_frame


def test_a_payload_travels_unchanged_after_its_header() -> None:
    payload = b'{"type":"chat","text":"two\\nlines \\"quoted\\" \\u00e9"}\n\x00tail'
    frame = Frame(k="in", p="proc-1", c=7, n="ann\nbob", a="203.0.113.9", d=payload)
    data = encode_frame(frame)
    assert data.endswith(payload)  # not escaped into the header
    assert decode_frame(data) == frame


@pytest.mark.parametrize("data", [b"", b"no header line", b'{"k":1}\n', b"[1]\nx"])
def test_a_malformed_frame_is_refused(data: bytes) -> None:
    with pytest.raises((msgspec.DecodeError, msgspec.ValidationError)):
        decode_frame(data)
