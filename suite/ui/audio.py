"""Interface sounds played at the player's volume; silent when the machine has no audio.

Sounds are the suite's own WAV files under assets/sounds/ (`play("ui/click")` plays
assets/sounds/ui/click.wav). When pygame.mixer cannot start (no audio device, no driver)
every call quietly does nothing, so screens never need to check.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator

import pygame

from suite.paths import asset

log = logging.getLogger(__name__)


@contextlib.contextmanager
def _quiet_native_stderr() -> Iterator[None]:
    """Silence C libraries writing to fd 2 (ALSA lists every missing sound card there)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Audio:
    """Loads and caches sounds; `volume` is 0-100 and applies to every sound played."""

    def __init__(self, volume: int = 80) -> None:
        self._volume = max(0, min(100, volume))
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        try:
            if not pygame.mixer.get_init():
                with _quiet_native_stderr():
                    pygame.mixer.init()
            self.enabled = True
        except pygame.error as exc:
            log.info("no audio: %s", exc)
            self.enabled = False

    @property
    def volume(self) -> int:
        return self._volume

    @volume.setter
    def volume(self, value: int) -> None:
        self._volume = max(0, min(100, int(value)))

    def _load(self, name: str) -> pygame.mixer.Sound | None:
        if name not in self._sounds:
            path = asset("sounds", *f"{name}.wav".split("/"))
            try:
                self._sounds[name] = pygame.mixer.Sound(str(path))
            except (pygame.error, FileNotFoundError) as exc:
                log.warning("cannot load sound %s: %s", path, exc)
                self._sounds[name] = None
        return self._sounds[name]

    def play(self, name: str) -> bool:
        """Play sound `name` (a path under assets/sounds without .wav); True when it played."""
        if not self.enabled or self._volume == 0:
            return False
        sound = self._load(name)
        if sound is None:
            return False
        sound.set_volume(self._volume / 100)
        return sound.play() is not None
