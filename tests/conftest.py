"""Test-wide settings: headless SDL, an artifacts folder, a private user-data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture
def artifacts() -> Path:
    """Folder for screenshots and other generated files (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _private_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep tests away from the real user's saves and settings."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))


@pytest.fixture(autouse=True)
def _bots_answer_within_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """Screen tests step frames in simulated time: the shared bot worker's answer is
    waited for (`Thinker.patience`), so a bot acts in the frame that asks it, as it did
    in-process. Tests of thinking in the background set it back to 0."""
    from suite.core.thinking import shared_thinker

    monkeypatch.setattr(shared_thinker(), "patience", 60.0)
