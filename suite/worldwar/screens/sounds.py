"""World War's own sounds (assets/worldwar/sounds/, made by tools/make_worldwar_sounds.py),
played at the suite's volume through the app's `suite.ui.audio.Audio`: silent when it has
no audio device or the volume is 0."""

from __future__ import annotations

import logging

import pygame

from suite.paths import asset
from suite.ui.audio import Audio

log = logging.getLogger(__name__)
NAMES = ("dice", "conquest", "card", "turn")
_cache: dict[str, pygame.mixer.Sound | None] = {}


def play(audio: Audio, name: str) -> bool:
    """Play World War sound `name` (one of NAMES); True when it played."""
    if not audio.enabled or audio.volume == 0:
        return False
    if name not in _cache:
        path = asset("worldwar", "sounds", f"{name}.wav")
        try:
            _cache[name] = pygame.mixer.Sound(str(path))
        except (pygame.error, FileNotFoundError) as exc:
            log.warning("cannot load sound %s: %s", path, exc)
            _cache[name] = None
    sound = _cache[name]
    if sound is None:
        return False
    sound.set_volume(audio.volume / 100)
    return sound.play() is not None
