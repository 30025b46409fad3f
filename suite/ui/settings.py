"""The player's profile and settings, kept in the user's config folder.

The file is a `suite.core.store` document of kind "settings". Reading never fails: a missing
file gives the defaults silently; a broken one (bad JSON, wrong version, wrong kind, bad
values) gives the defaults for what is unusable plus a `SettingsWarning` naming the file and
the problem. Saving is atomic, so a crash never leaves a half-written file.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from suite.core.store import SaveError, load_document, save_document
from suite.paths import user_config_dir

KIND = "settings"
FILE_NAME = "settings.json"
DEFAULT_NAME = "Commander"
MAX_NAME_LENGTH = 24
UI_SCALE_MIN, UI_SCALE_MAX = 0.75, 2.0


class SettingsWarning(UserWarning):
    """The settings file could not be used as it is; defaults were taken instead."""


@dataclass
class Settings:
    """Profile name, master volume (0-100), whether the window starts fullscreen, and the
    UI scale (UI_SCALE_MIN..UI_SCALE_MAX, 1.0 = the size the screens are drawn for; screens
    multiply it with what the window size allows)."""

    name: str = DEFAULT_NAME
    volume: int = 80
    fullscreen: bool = False
    ui_scale: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def clean_name(text: str) -> str:
    """A usable profile name: trimmed, at most MAX_NAME_LENGTH characters, never empty."""
    name = " ".join(text.split())[:MAX_NAME_LENGTH]
    return name or DEFAULT_NAME


def settings_path() -> Path:
    """Where the settings live: `settings.json` in suite.paths.user_config_dir()."""
    return user_config_dir() / FILE_NAME


def _from_data(data: Any, source: Path) -> Settings:
    """Build Settings from a document's data, warning about each field it cannot use."""
    if not isinstance(data, dict):
        warnings.warn(
            SettingsWarning(f"{source}: settings are not a table; using defaults"), stacklevel=3
        )
        return Settings()
    result = Settings()
    name = data.get("name", result.name)
    if isinstance(name, str):
        result.name = clean_name(name)
    else:
        warnings.warn(SettingsWarning(f"{source}: name {name!r} is not text"), stacklevel=3)
    volume = data.get("volume", result.volume)
    if isinstance(volume, int) and not isinstance(volume, bool) and 0 <= volume <= 100:
        result.volume = volume
    else:
        warnings.warn(
            SettingsWarning(f"{source}: volume {volume!r} is not a whole number 0-100"),
            stacklevel=3,
        )
    fullscreen = data.get("fullscreen", result.fullscreen)
    if isinstance(fullscreen, bool):
        result.fullscreen = fullscreen
    else:
        warnings.warn(
            SettingsWarning(f"{source}: fullscreen {fullscreen!r} is not true/false"),
            stacklevel=3,
        )
    scale = data.get("ui_scale", result.ui_scale)
    if (
        isinstance(scale, (int, float))
        and not isinstance(scale, bool)
        and UI_SCALE_MIN <= scale <= UI_SCALE_MAX
    ):
        result.ui_scale = float(scale)
    else:
        warnings.warn(
            SettingsWarning(
                f"{source}: ui_scale {scale!r} is not a number {UI_SCALE_MIN}-{UI_SCALE_MAX}"
            ),
            stacklevel=3,
        )
    return result


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or defaults (with a SettingsWarning when the file is broken)."""
    source = path or settings_path()
    if not source.exists():
        return Settings()
    try:
        data = load_document(source, KIND)
    except SaveError as exc:
        aside = keep_aside(source)
        where = f"; the broken file is kept as {aside.name}" if aside else ""
        warnings.warn(SettingsWarning(f"{exc}; using default settings{where}"), stacklevel=2)
        return Settings()
    return _from_data(data, source)


def keep_aside(source: Path) -> Path | None:
    """Rename a broken settings file to `<name>.broken[-N]` so the next save does not
    destroy it; returns the new path, or None when it could not be moved."""
    for n in range(100):
        aside = source.with_name(f"{source.name}.broken" + (f"-{n}" if n else ""))
        if aside.exists():
            continue
        try:
            source.rename(aside)
        except OSError:
            return None
        return aside
    return None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically; raises suite.core.store.SaveError when it cannot."""
    save_document(path or settings_path(), KIND, settings.to_dict())
