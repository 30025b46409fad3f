"""Settings persist through the core store; a broken file gives defaults and a warning."""

from __future__ import annotations

import pytest

from suite.core.store import save_document
from suite.ui.harness import Harness
from suite.ui.settings import (
    DEFAULT_NAME,
    Settings,
    SettingsWarning,
    clean_name,
    load_settings,
    save_settings,
    settings_path,
)


def test_round_trip(tmp_path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(name="Ada", volume=35, fullscreen=True), path)
    assert load_settings(path) == Settings(name="Ada", volume=35, fullscreen=True)


def test_default_location_is_the_user_config_dir(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    save_settings(Settings(name="Bo"))
    assert settings_path().is_relative_to(tmp_path)
    assert load_settings().name == "Bo"


def test_missing_file_gives_defaults_silently(tmp_path, recwarn) -> None:
    assert load_settings(tmp_path / "none.json") == Settings()
    assert not recwarn.list


@pytest.mark.parametrize(
    "content",
    [b"{not json", b'{"schema": 99, "kind": "settings", "data": {}}', b'{"kind": "x"}', b"[]"],
)
def test_broken_file_gives_defaults_and_a_warning(tmp_path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    with pytest.warns(SettingsWarning, match="settings.json"):
        assert load_settings(path) == Settings()


def test_bad_values_are_replaced_one_by_one(tmp_path) -> None:
    path = tmp_path / "settings.json"
    save_document(path, "settings", {"name": "Cy", "volume": 400, "fullscreen": "yes"})
    with pytest.warns(SettingsWarning) as caught:
        settings = load_settings(path)
    assert settings == Settings(name="Cy")
    messages = " ".join(str(w.message) for w in caught)
    assert "volume 400" in messages and "fullscreen 'yes'" in messages


def test_clean_name() -> None:
    assert clean_name("  Ada   Lovelace ") == "Ada Lovelace"
    assert clean_name("   ") == DEFAULT_NAME
    assert len(clean_name("x" * 100)) == 24


def test_app_with_a_broken_file_starts_with_defaults_and_says_so(tmp_path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("garbage")
    with Harness((400, 300), settings_file=path) as h:
        assert h.app.settings == Settings()
        assert any("settings" in text for text in h.notices)


@pytest.mark.parametrize(
    "content",
    [
        b'{"schema": 1, "kind": "settings", "data": {"name": "\xff\xfe"}}',
        b"[" * 100_000 + b"]" * 100_000,
        b"\x00\x01\x02",
    ],
)
def test_a_broken_file_is_kept_aside_and_defaults_are_used(tmp_path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    with pytest.warns(SettingsWarning, match="kept as settings.json.broken"):
        assert load_settings(path) == Settings()
    assert not path.exists()
    assert (tmp_path / "settings.json.broken").read_bytes() == content
    save_settings(Settings(name="Di"), path)
    assert load_settings(path).name == "Di"


def test_a_second_broken_file_does_not_overwrite_the_first(tmp_path) -> None:
    path = tmp_path / "settings.json"
    for content in (b"one", b"two"):
        path.write_bytes(content)
        with pytest.warns(SettingsWarning):
            load_settings(path)
    assert (tmp_path / "settings.json.broken").read_bytes() == b"one"
    assert (tmp_path / "settings.json.broken-1").read_bytes() == b"two"
