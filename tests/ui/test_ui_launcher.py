"""The launcher, driven with real mouse and key events through the harness."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from suite.core.match import GameSpec, registered_games
from suite.ui import game_cards as game_cards_module
from suite.ui.app import App, Scene
from suite.ui.card_art import placeholder_art
from suite.ui.dialogs import ConfirmScene
from suite.ui.game_cards import GameUI, load_ui
from suite.ui.harness import Harness
from suite.ui.launcher import NO_DISPLAY, SAVE_DELAY, LauncherScene, run_launcher
from suite.ui.settings import Settings, load_settings


class FakeSetup(Scene):
    """Stands in for a game's set-up scene."""

    def __init__(self, app: App, game: str) -> None:
        super().__init__(app)
        self.game = game


UI_MODULE = "fake_screens_{}"


def _spec(name: str, title: str, order: int) -> GameSpec:
    return GameSpec(
        name=name,
        title=title,
        create=lambda config, seed: None,  # type: ignore[arg-type,return-value]
        load=lambda data: None,  # type: ignore[arg-type,return-value]
        action_type=None,
        players=(2, 2),
        blurb=f"{title}: a staged game for the launcher tests.",
        ui=f"{UI_MODULE.format(name)}:UI",
        order=order,
    )


@pytest.fixture
def staged_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """World War has screens, WoK has none yet, Tactics has a module without a GameUI."""
    specs = {
        "worldwar": _spec("worldwar", "World War", 1),
        "wok": _spec("wok", "WoK", 2),
        "tactics": _spec("tactics", "WoS Tactics", 3),
    }
    world = types.ModuleType(UI_MODULE.format("worldwar"))
    world.UI = GameUI(  # type: ignore[attr-defined]
        open_setup=lambda app: FakeSetup(app, "worldwar"),
        art=placeholder_art("World War"),
        tooltip="Conquer the world",
        tags=("Dice", "Cards"),
    )
    monkeypatch.setitem(sys.modules, UI_MODULE.format("worldwar"), world)
    monkeypatch.setitem(sys.modules, UI_MODULE.format("wok"), None)
    monkeypatch.setitem(sys.modules, UI_MODULE.format("tactics"), types.ModuleType("broken"))
    monkeypatch.setattr(game_cards_module, "registered_games", lambda: specs)


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[Harness]:
    with Harness((1280, 800), settings_file=tmp_path / "settings.json", root=LauncherScene) as h:
        yield h


def _launcher(h: Harness) -> LauncherScene:
    scene = h.app.stack[0]
    assert isinstance(scene, LauncherScene)
    return scene


def test_load_ui_tells_ready_missing_and_broken_apart(staged_games: None) -> None:
    specs = game_cards_module.registered_games()
    ui, problem = load_ui(specs["worldwar"])
    assert ui is not None and problem is None
    assert load_ui(specs["wok"]) == (None, None)
    ui, problem = load_ui(specs["tactics"])
    assert ui is None and problem is not None and "not a GameUI" in problem


def test_every_card_comes_from_a_registered_spec() -> None:
    cards = game_cards_module.game_cards()
    specs = registered_games()
    assert {card.info.key for card in cards} == set(specs)
    for card in cards:
        spec = specs[card.info.key]
        assert card.info.title == spec.title and card.info.blurb == spec.blurb


def test_each_card_opens_its_game_or_says_why_not(
    staged_games: None, tmp_path: Path, artifacts: Path
) -> None:
    with Harness((1280, 800), settings_file=tmp_path / "s.json", root=LauncherScene) as h:
        launcher = _launcher(h)
        world, wok, tactics = launcher.cards
        assert [c.status for c in launcher.cards] == ["Play", "Coming soon", "Unavailable"]
        h.move(world.rect)
        h.seconds(0.8)
        h.screenshot(artifacts / "launcher_staged_hover.png")

        h.click(world.rect)
        assert isinstance(h.scene, FakeSetup) and h.scene.game == "worldwar"
        h.key(pygame.K_ESCAPE)
        assert h.scene is launcher

        h.click(wok.rect)
        assert h.scene is launcher
        assert h.notices[-1] == "WoK is coming soon."
        h.click(tactics.rect)
        assert h.scene is launcher
        assert "WoS Tactics cannot start" in h.notices[-1]
        h.screenshot(artifacts / "launcher_staged_notices.png")


def test_clicking_each_real_card(launcher: Harness, artifacts: Path) -> None:
    """Whatever games exist now: a ready card pushes its set-up scene, Esc comes back;
    a card without screens only shows a notice."""
    scene = _launcher(launcher)
    launcher.screenshot(artifacts / "launcher.png")
    for card in scene.cards:
        launcher.click(card.rect)
        if card.available:
            assert launcher.scene is not scene, launcher.notices
            launcher.frames(10)
            launcher.screenshot(artifacts / f"launcher_opened_{card.info.key}.png")
            launcher.key(pygame.K_ESCAPE)
        else:
            assert card.info.title in launcher.notices[-1]
            launcher.screenshot(artifacts / f"launcher_notice_{card.info.key}.png")
        assert launcher.scene is scene
        assert launcher.running


def test_a_drag_onto_a_card_does_not_open_it(staged_games: None, launcher: Harness) -> None:
    scene = _launcher(launcher)
    launcher.press((5, 5))
    launcher.release(scene.cards[0].rect)
    assert launcher.scene is scene


def test_keyboard_chooses_and_opens_a_card(staged_games: None, launcher: Harness) -> None:
    scene = _launcher(launcher)
    launcher.key(pygame.K_RIGHT)
    launcher.key(pygame.K_RIGHT)
    launcher.key(pygame.K_RIGHT)
    assert scene.focus == 0
    launcher.key(pygame.K_RETURN)
    assert isinstance(launcher.scene, FakeSetup)


def test_escape_at_the_root_asks_before_quitting(launcher: Harness, artifacts: Path) -> None:
    launcher.key(pygame.K_ESCAPE)
    assert isinstance(launcher.scene, ConfirmScene)
    launcher.screenshot(artifacts / "launcher_quit_dialog.png")
    launcher.key(pygame.K_ESCAPE)
    assert isinstance(launcher.scene, LauncherScene) and launcher.running
    launcher.key(pygame.K_ESCAPE)
    dialog = launcher.scene
    assert isinstance(dialog, ConfirmScene)
    launcher.click(dialog.cancel_button)
    assert isinstance(launcher.scene, LauncherScene) and launcher.running
    launcher.key(pygame.K_ESCAPE)
    launcher.key(pygame.K_RETURN)
    assert not launcher.running


def test_profile_name_is_edited_and_saved(launcher: Harness, tmp_path: Path) -> None:
    scene = _launcher(launcher)
    assert scene.name_entry is not None
    launcher.click(scene.name_entry)
    launcher.key(pygame.K_a, mod=pygame.KMOD_CTRL)
    launcher.type_text("Ada")
    launcher.key(pygame.K_RETURN, unicode="\r")
    launcher.frames(2)
    assert launcher.app.settings.name == "Ada"
    assert load_settings(tmp_path / "settings.json").name == "Ada"


def test_volume_slider_and_fullscreen_button(launcher: Harness, tmp_path: Path) -> None:
    scene = _launcher(launcher)
    slider = scene.volume_slider
    assert slider is not None and launcher.app.settings.volume == 80
    handle = slider.sliding_button
    assert handle is not None
    launcher.press(handle)
    launcher.move((slider.rect.x + 4, slider.rect.centery), frames=2)
    launcher.release((slider.rect.x + 4, slider.rect.centery))
    assert launcher.app.settings.volume < 20
    assert launcher.app.audio.volume == launcher.app.settings.volume
    launcher.seconds(SAVE_DELAY + 0.2)
    assert load_settings(tmp_path / "settings.json").volume == launcher.app.settings.volume

    launcher.click(scene.fullscreen_button)
    assert launcher.app.fullscreen and scene.fullscreen_button.label == "Fullscreen: On"
    assert load_settings(tmp_path / "settings.json").fullscreen is True
    launcher.click(scene.fullscreen_button)
    assert not launcher.app.fullscreen


def test_quit_button_quits(launcher: Harness) -> None:
    launcher.click(_launcher(launcher).quit_button)
    assert not launcher.running


def test_layout_follows_a_resize(launcher: Harness, artifacts: Path) -> None:
    launcher.resize((900, 620))
    scene = _launcher(launcher)
    assert all(launcher.app.screen.get_rect().contains(c.rect) for c in scene.cards)
    assert scene.quit_button.rect.right <= 900
    launcher.screenshot(artifacts / "launcher_small.png")


def test_run_launcher_without_a_display_says_so(monkeypatch, capsys) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert run_launcher() == 1
    captured = capsys.readouterr()
    assert captured.err == NO_DISPLAY + "\n"
    assert captured.out == ""


def test_harness_settings_default_to_memory_only() -> None:
    with Harness((640, 480), root=LauncherScene) as h:
        assert h.app.settings == Settings() and h.app.settings_file is None


def test_tooltips_follow_the_mouse_over_cards_and_fields(
    staged_games: None, launcher: Harness
) -> None:
    scene = _launcher(launcher)
    assert scene.name_entry is not None
    launcher.move(scene.name_entry)
    launcher.seconds(0.8)
    assert scene.name_hint.hover.tooltip_due
    launcher.move(scene.cards[2].rect)
    assert not scene.name_hint.hover.inside
    assert not scene.cards[2].hover.tooltip_due
    launcher.seconds(0.8)
    assert scene.cards[2].hover.tooltip_due
    assert scene.cards[2].lift > 0.9


def test_typing_a_name_does_not_trigger_shortcuts(staged_games: None, launcher: Harness) -> None:
    scene = _launcher(launcher)
    assert scene.name_entry is not None
    launcher.click(scene.name_entry)
    launcher.type_text(" Jr")
    launcher.key(pygame.K_RIGHT)
    assert launcher.scene is scene and scene.focus == 0
    assert scene.name_entry.get_text() == "Commander Jr"


def test_run_launcher_when_the_window_cannot_open(monkeypatch, capsys) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    assert run_launcher() == 1
    err = capsys.readouterr().err
    assert err.startswith("The suite could not open its window:") and err.count("\n") == 1


def test_run_launcher_when_no_window_system_answers(monkeypatch, capsys) -> None:
    """A DISPLAY naming no X server: SDL would fall back to drawing off screen and the
    suite would run unseen; it says so and stops instead."""
    monkeypatch.delenv("SDL_VIDEODRIVER")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":4999")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/nonexistent")
    pygame.display.quit()
    try:
        assert run_launcher() == 1
    finally:
        pygame.display.quit()
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "The suite could not open its window: no desktop session answered (display :4999)."
    )


def test_escape_in_the_name_field_leaves_the_field_first(launcher: Harness) -> None:
    scene = _launcher(launcher)
    assert scene.name_entry is not None
    launcher.click(scene.name_entry)
    assert scene.name_entry.is_focused
    launcher.key(pygame.K_ESCAPE)
    assert launcher.scene is scene and not scene.name_entry.is_focused
    launcher.key(pygame.K_ESCAPE)
    assert isinstance(launcher.scene, ConfirmScene)


def test_hover_open_and_notice_sounds(
    staged_games: None, launcher: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[str] = []
    monkeypatch.setattr(launcher.app.audio, "play", lambda name: played.append(name) or True)
    scene = _launcher(launcher)
    launcher.move(scene.cards[1].rect)
    launcher.click(scene.cards[1].rect)
    launcher.click(scene.cards[0].rect)
    assert played == ["ui/hover", "ui/notice", "ui/hover", "ui/open"]


@pytest.mark.parametrize("size", [(800, 560), (1280, 800), (1920, 1080)])
def test_online_opens_the_online_screen_by_click_and_key(
    tmp_path: Path, artifacts: Path, size: tuple[int, int]
) -> None:
    from suite.net.screens.lobby import OnlineScene

    with Harness(size, settings_file=tmp_path / "settings.json", root=LauncherScene) as h:
        scene = _launcher(h)
        footer = [scene.fullscreen_button, scene.online_button, scene.quit_button]
        for a, b in zip(footer, footer[1:], strict=False):
            assert a.rect.right < b.rect.left  # side by side, never over each other
        assert scene.volume_rect.right < scene.fullscreen_button.rect.left
        assert all(scene.footer.contains(b.rect) for b in footer)
        h.frames(2)
        h.screenshot(artifacts / f"launcher_online_{size[0]}x{size[1]}.png")
        h.move(scene.online_button)
        h.seconds(0.8)
        assert scene.online_button.hover.tooltip_due
        h.screenshot(artifacts / f"launcher_online_tooltip_{size[0]}x{size[1]}.png")
        h.click(scene.online_button)
        assert isinstance(h.scene, OnlineScene)
        h.key(pygame.K_ESCAPE)
        assert h.scene is scene
        h.key(pygame.K_o)
        assert isinstance(h.scene, OnlineScene)
        h.app.pop()
        h.seconds(2.0)  # the launcher goes back to sleeping between inputs
        assert h.app.idle and not scene.animating()
