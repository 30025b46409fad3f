"""Theme: the palette, the pygame_gui theme file and silent audio without a device."""

from __future__ import annotations

import json

import pygame
import pytest

from suite.paths import asset
from suite.ui import theme
from suite.ui.audio import Audio


def test_player_palette_has_eight_distinct_named_colours() -> None:
    names = [c.name for c in theme.PLAYER_COLOURS]
    colours = [c.rgb for c in theme.PLAYER_COLOURS]
    assert len(theme.PLAYER_COLOURS) >= 8
    assert len(set(names)) == len(names) and len(set(colours)) == len(colours)
    assert theme.player_colour(len(colours)) == theme.PLAYER_COLOURS[0]


def test_gui_theme_uses_the_shipped_fonts_and_the_accent_colour() -> None:
    raw = json.loads(asset("theme", "theme.json").read_text())
    assert raw["defaults"]["colours"]["hovered_border"] == "#{:02X}{:02X}{:02X}".format(
        *theme.ACCENT
    )
    font = theme.gui_theme()["defaults"]["font"]
    for key in ("regular_path", "bold_path"):
        assert asset(*raw["defaults"]["font"][key].split("/")).is_file()
        assert font[key].endswith(raw["defaults"]["font"][key])


def test_ui_manager_and_fonts_load() -> None:
    pygame.display.init()
    manager = theme.make_ui_manager((320, 200))
    assert manager.window_resolution == (320, 200)
    assert theme.font(20, bold=True).get_height() > 20


def test_audio_without_a_device_is_silent(monkeypatch) -> None:
    def no_device() -> None:
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    audio = Audio(volume=50)
    assert not audio.enabled
    assert audio.play("ui/click") is False


@pytest.mark.parametrize("name", ["click", "hover", "open", "notice"])
def test_shipped_sounds_load(name: str) -> None:
    audio = Audio(volume=100)
    if audio.enabled:
        assert audio._load(f"ui/{name}") is not None
    assert asset("sounds", "ui", f"{name}.wav").is_file()
    audio.volume = 250
    assert audio.volume == 100
