"""The wire protocol: every kind round-trips, bad input is a ProtocolError with a code."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.net import protocol as P

CLIENT = [
    P.Hello(name="ann", client="t", tactics_pack=P.PackRef(version=1.5, digest="ab" * 32)),
    P.Create(game="worldwar", config={"players": 3}, public=True),
    P.Join(code="ABCDEF", seat=2),
    P.Join(code="ABCDEF"),
    P.Rejoin(token="tok"),
    P.Rejoin(token="tok", since=12),
    P.Spectate(code="ABCDEF"),
    P.Ready(token="t"),
    P.Unready(token="t"),
    P.Act(token="t", state_id=3, action={"kind": "end_turn"}),
    P.LegalRequest(token="t", state_id=3, page=1),
    P.Chat(text="hi", token="t"),
    P.Chat(text="hi"),
    P.Leave(token=None),
    P.Poke(token="t"),
    P.RunNow(token="t"),
    P.SeatBot(token="t", seat=1, bot="easy"),
    P.Kick(token="t", seat=1),
    P.Pause(token="t"),
    P.Resume(token="t"),
    P.End(token="t"),
    P.PackRequest(code="ABCDEF", path="tiles/a.bmp", offset=10),
    P.WokHistoryRequest(turn=3, token="t"),
    P.WokHistoryRequest(turn=0),
]

SERVER = [
    P.Welcome(
        protocol=1,
        server="s",
        games=(P.GameInfo(name="wok", title="WoK", players=(2, 10), bots=("random",)),),
    ),
    P.Seated(code="ABCDEF", seat=0, token="t", host=True),
    P.Room(
        code="ABCDEF",
        game="wok",
        title="WoK",
        phase="lobby",
        seats=(P.SeatInfo(seat=0, kind="human", name="a", connected=True),),
        config={"players": 2},
        host_seat=0,
        spectators=0,
    ),
    P.ViewMsg(
        code="ABCDEF",
        seat=1,
        state_id=7,
        view=msgspec.Raw(b'{"kind":"x","a":[1,2]}'),
        awaiting=(1,),
        events=msgspec.Raw(b'[{"kind":"e"}]'),
        actor=0,
        action=msgspec.Raw(b'{"kind":"end_turn"}'),
        legal=msgspec.Raw(b"[]"),
    ),
    P.Events(
        code="ABCDEF",
        state_id=9,
        first=8,
        updates=(
            P.Missed(state_id=8, actor=1, action=msgspec.Raw(b'{"kind":"a"}')),
            P.Missed(state_id=9, actor=0, events=msgspec.Raw(b'[{"kind":"e"}]')),
        ),
    ),
    P.LegalPage(state_id=1, page=0, pages=2, actions=msgspec.Raw(b'[{"kind":"a"}]')),
    P.Error(code="stale", message="m", ref="act"),
    P.ClockMsg(code="ABCDEF", now=5.0, waiting=(1,), deadline=9.0, can_poke=True),
    P.ChatLine(code="ABCDEF", seat=None, name="w", text="hi", at=1.0),
    P.GameOverMsg(code="ABCDEF", outcome=None, reason="ended by the host"),
    P.PackFiles(
        code="ABCDEF",
        pack=P.PackRef(version=1.0, digest="0" * 64),
        files=(P.FileEntry(path="a.txt", size=1, sha256="1" * 64),),
    ),
    P.PackChunk(code="ABCDEF", path="a.txt", offset=0, data="YQ==", eof=True),
    P.WokHistoryTurn(
        code="ABCDEF",
        turn=1,
        newest=2,
        seat=None,
        reports=msgspec.Raw(b"[]"),
        top_ten=msgspec.Raw(b"[]"),
        series_from=0,
        provinces=((3, 4), (2, 5)),
        scores=((10, 12), (9, 15)),
    ),
]


def _same(a: P.Message, b: P.Message) -> bool:
    return bool(P.encode(a) == P.encode(b))


@pytest.mark.parametrize("message", CLIENT, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip(message: P.Message) -> None:
    data = P.encode(message)
    assert json.loads(data)["type"]
    assert _same(P.decode_client(data), message)


@pytest.mark.parametrize("message", SERVER, ids=lambda m: type(m).__name__)
def test_server_messages_round_trip(message: P.Message) -> None:
    assert _same(P.decode_server(P.encode(message)), message)


def test_every_kind_of_the_issue_is_covered() -> None:
    client = {json.loads(P.encode(m))["type"] for m in CLIENT}
    assert {"hello", "create", "join", "rejoin", "spectate", "ready", "unready"} <= client
    assert {"action", "chat", "leave"} <= client
    server = {json.loads(P.encode(m))["type"] for m in SERVER}
    assert {"welcome", "room", "view", "events", "error", "clock", "game_over"} <= server


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"{not json", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        (b"[]", "bad_message"),
        (b'{"type":"teleport"}', "bad_message"),
        (b'{"type":"join"}', "bad_message"),
        (b'{"type":"join","code":5}', "bad_message"),
        (b'{"type":"action","token":"t","state_id":"3","action":{}}', "bad_message"),
        (b'{"type":"action","token":"t","state_id":1.5,"action":{}}', "bad_message"),
        (b'{"type":"hello","name":["x"]}', "bad_message"),
        (b'"hello"', "bad_message"),
        (b"null", "bad_message"),
    ],
)
def test_bad_input_is_an_error_with_a_code(data: bytes, code: str) -> None:
    with pytest.raises(P.ProtocolError) as info:
        P.decode_client(data)
    assert info.value.error.code == code
    assert info.value.error.message


def test_size_limit_counts_bytes() -> None:
    text = "é" * (P.MAX_MESSAGE // 2)  # two bytes each in UTF-8: just over the limit
    data = json.dumps({"type": "chat", "text": text}, ensure_ascii=False)
    assert len(data) < P.MAX_MESSAGE < len(data.encode())
    with pytest.raises(P.ProtocolError) as info:
        P.decode_client(data)
    assert info.value.error.code == "too_large"
    fits = json.dumps({"type": "chat", "text": "x" * (P.MAX_MESSAGE - 100)})
    assert isinstance(P.decode_client(fits), P.Chat)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
kinds = st.sampled_from([json.loads(P.encode(m))["type"] for m in CLIENT] + ["nope", ""])


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200),
        json_values.map(json.dumps),
        st.builds(
            lambda k, d: json.dumps({**d, "type": k}),
            kinds,
            st.dictionaries(
                st.sampled_from(["name", "code", "seat", "token", "state_id", "action", "text"]),
                json_values,
            ),
        ),
    )
)
def test_decoding_never_raises_anything_else(data: str | bytes) -> None:
    try:
        message = P.decode_client(data)
    except P.ProtocolError as exc:
        assert exc.error.code in {"bad_json", "bad_message", "too_large"}
    else:
        assert isinstance(message, P.Message)
