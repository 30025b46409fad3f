"""Where the suite finds its shipped assets and the user's folders."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "warsuite"


def assets_dir() -> Path:
    """The shipped assets folder: `suite/assets` in an installed wheel, `assets/` in a source
    tree (where an editable install runs the code from).

    Found beside this module rather than through importlib.resources, because `suite.assets`
    is a namespace package (no __init__) whose resource root is not a plain path.
    """
    here = Path(__file__).resolve().parent
    packaged = here / "assets"
    if packaged.is_dir():
        return packaged
    return here.parent / "assets"


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
