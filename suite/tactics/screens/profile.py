"""The player's Tactics profile: which pack to play, the army formation per pack, the
guild, whether End Turn asks first, and where replays go.

Kept as a `suite.core.store` document (kind "tactics-profile") in the user's config
folder. Reading never fails: a missing file gives the defaults; a broken one gives the
defaults too and `problem` says why (the screens show it), and it is kept aside.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from suite.core.store import SaveError, load_document, save_document
from suite.paths import user_config_dir, user_data_dir
from suite.ui.settings import keep_aside

KIND = "tactics-profile"
FILE_NAME = "tactics.json"
DEFAULT_PACK = ""  # the shipped pack


class TacticsProfile(msgspec.Struct, kw_only=True):
    """`pack` is a folder ("" = the shipped pack); `armies` maps a pack key (its folder,
    "" for the shipped one) to its 3x3 formation, row by row (0 = empty slot)."""

    pack: str = DEFAULT_PACK
    armies: dict[str, list[int]] = msgspec.field(default_factory=dict)
    guild: str = ""
    confirm_end_turn: bool = True
    bot_speed: int = 1
    bots_use_locked: bool = False  # the host lets bots field pieces with requirements
    # the Book's last set-up, kept when it is left and opened again
    seats: list[list[str]] = msgspec.field(default_factory=list)  # [name, kind] after yours
    map_id: int = 0  # 0: the first playable map
    pieces_per_turn: int = -1  # -1: the rules' default
    army_size: int = 0  # 0: the rules' limit


def profile_path() -> Path:
    return user_config_dir() / FILE_NAME


def load_profile(path: Path | None = None) -> tuple[TacticsProfile, str | None]:
    """The saved profile (defaults when absent) and a problem text when it was unusable."""
    source = path or profile_path()
    if not source.exists():
        return TacticsProfile(), None
    try:
        data = load_document(source, KIND)
        return msgspec.convert(data, type=TacticsProfile), None
    except (SaveError, msgspec.ValidationError) as exc:
        aside = keep_aside(source)
        kept = f"; the old file is kept as {aside.name}" if aside else ""
        return TacticsProfile(), f"Your Tactics profile was unreadable ({exc}){kept}"


def save_profile(profile: TacticsProfile, path: Path | None = None) -> str | None:
    """Write the profile; None when saved, else the reason it could not be."""
    try:
        save_document(path or profile_path(), KIND, msgspec.to_builtins(profile))
    except (SaveError, OSError) as exc:
        return f"Could not save your Tactics profile: {exc}"
    return None


def replays_dir() -> Path:
    """Where finished battles' replays are saved."""
    return user_data_dir() / "tactics" / "replays"


def autosave_path() -> Path:
    """The unfinished battle, saved at each turn (removed when the battle ends)."""
    return user_data_dir() / "tactics" / "autosave.json"


def ratings_path() -> Path:
    """The ratings database the screens record battles in."""
    return user_data_dir() / "tactics.sqlite"
