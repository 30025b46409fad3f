"""Where the suite finds its shipped assets and the user's folders."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import platformdirs

APP_NAME = "warsuite"


def assets_dir() -> Path:
    """The shipped assets folder: `suite.assets` in a wheel, `assets/` in a source tree."""
    try:
        root = resources.files("suite.assets")
        path = Path(str(root))
        if path.is_dir():
            return path
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parent.parent / "assets"


def asset(*parts: str) -> Path:
    """A path inside the assets folder."""
    return assets_dir().joinpath(*parts)


def user_data_dir() -> Path:
    """The player's data folder (saves, profiles, ratings), created on demand."""
    path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_config_dir() -> Path:
    """The player's settings folder, created on demand."""
    path = Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
