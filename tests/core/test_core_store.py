"""Atomic, versioned saves: clear errors naming the file, and a good file is never replaced."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from suite.core import store
from suite.core.store import (
    SCHEMA_VERSION,
    SaveError,
    atomic_write_bytes,
    load_document,
    save_document,
)

GOOD = {"turn": 3, "players": ["ann", "bob"], "scores": {"ann": 12.5, "bob": -1}}


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "game.save"
    save_document(path, "save", GOOD)
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_round_trip_and_layout(saved: Path) -> None:
    assert load_document(saved, "save") == GOOD
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert doc == {"schema": SCHEMA_VERSION, "kind": "save", "data": GOOD}
    assert leftovers(saved.parent) == []


def test_save_creates_folders_and_replaces_old_files(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "profile.json"
    save_document(path, "profile", {"name": "ann"})
    save_document(path, "profile", {"name": "bob"})
    assert load_document(path, "profile") == {"name": "bob"}
    assert leftovers(path.parent) == []


def rewrite(path: Path, doc: Any) -> None:
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ({"schema": 2, "kind": "save", "data": {}}, "schema version 2, this suite reads 1"),
        ({"schema": "1", "kind": "save", "data": {}}, "schema version '1'"),
        ({"schema": True, "kind": "save", "data": {}}, "schema version True"),
        ({"kind": "save", "data": {}}, "not a suite save (no schema version)"),
        ([1, 2, 3], "not a suite save"),
        ({"schema": 1, "kind": "replay", "data": {}}, "holds a 'replay', expected a 'save'"),
        ({"schema": 1, "data": {}}, "holds a None, expected a 'save'"),
        ({"schema": 1, "kind": "save"}, "has no data"),
    ],
)
def test_wrong_documents_are_refused_by_name(saved: Path, content: Any, problem: str) -> None:
    rewrite(saved, content)
    with pytest.raises(SaveError) as info:
        load_document(saved, "save")
    assert str(info.value).startswith(f"{saved}: ")
    assert info.value.path == saved
    assert problem in info.value.problem


def test_broken_json(saved: Path) -> None:
    saved.write_text('{"schema": 1, "kind": "save", "data": {"turn": ', encoding="utf-8")
    with pytest.raises(SaveError, match=r"game\.save: broken JSON"):
        load_document(saved, "save")
    saved.write_bytes(b"\x00\xff\xfe")
    with pytest.raises(SaveError, match=r"game\.save: broken JSON"):
        load_document(saved, "save")


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match=r"nothing\.json: no such file"):
        load_document(tmp_path / "nothing.json", "save")
    with pytest.raises(SaveError, match="is a folder"):
        load_document(tmp_path, "save")


def test_unencodable_data_leaves_the_old_file_byte_for_byte(saved: Path) -> None:
    original = saved.read_bytes()
    with pytest.raises(SaveError, match=r"game\.save: cannot encode save"):
        save_document(saved, "save", {"turn": 4, "rng": object()})
    assert saved.read_bytes() == original
    assert leftovers(saved.parent) == []
    assert load_document(saved, "save") == GOOD


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failed_write_leaves_the_old_file_and_no_temp_file(
    saved: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    original = saved.read_bytes()

    def fail(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, failing, fail)
    with pytest.raises(SaveError, match=r"game\.save: cannot write: No space left on device"):
        save_document(saved, "save", {"turn": 99})
    monkeypatch.undo()
    assert saved.read_bytes() == original
    assert leftovers(saved.parent) == []


def test_an_interrupted_write_cleans_up_and_reraises(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = saved.read_bytes()

    def interrupt(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(store.os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(saved, b"half a save")
    monkeypatch.undo()
    assert saved.read_bytes() == original
    assert leftovers(saved.parent) == []


def test_unwritable_target(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(SaveError, match="cannot write"):
        save_document(blocker / "save.json", "save", GOOD)


def test_atomic_write_bytes(tmp_path: Path) -> None:
    target = tmp_path / "a" / "blob.bin"
    atomic_write_bytes(target, b"\x00\x01")
    atomic_write_bytes(target, b"second")
    assert target.read_bytes() == b"second"
    assert os.listdir(target.parent) == ["blob.bin"]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=25,
)


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=json_values)
def test_any_json_data_round_trips(tmp_path: Path, data: Any) -> None:
    path = tmp_path / "any.json"
    save_document(path, "any", data)
    assert load_document(path, "any") == data


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"schema": 1, "kind": "save", "data": "\xff\xfe"}', "invalid UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "recursion"),
        (b"", "broken JSON"),
    ],
)
def test_every_broken_file_is_a_save_error(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "bad.save"
    path.write_bytes(content)
    with pytest.raises(SaveError, match=problem):
        load_document(path, "save")


def test_a_file_past_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.save"
    save_document(path, "save", {"x": "y" * 2000})
    with pytest.raises(SaveError, match="more than the 1000"):
        store.read_limited(path, 1000)


def test_temp_files_of_killed_writes_are_cleaned_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "game.save"
    for n in range(5):  # what five kill -9s in the middle of a write leave behind
        (tmp_path / f".game.save.dead{n}.tmp").write_bytes(b"x" * 1000)
    (tmp_path / ".other.save.dead.tmp").write_bytes(b"keep")  # another file's temp
    save_document(path, "save", GOOD)
    assert leftovers(tmp_path) == [".other.save.dead.tmp"]
    assert load_document(path, "save") == GOOD
