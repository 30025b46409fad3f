"""Sounds from the pack's sound sets: a random pick of the set per event, at the suite's
volume; silent without an audio device, at volume 0, or when the set is empty or its
files are missing or cannot be played (a warning of the pack, never an error). A sound is
decoded and checked in full (`suite.tactics.assets.wav`) and the mixer is given a clean PCM
copy, never the pack's file.

A piece names its sets per event (`ready`, `go`, `attack`, `pain`, `death`) and its weapon
per result (`hit`, `miss`, `crit`); turn, win and lose sounds are the pack's sets of those
names when it has them, else the suite's interface sounds.
"""

from __future__ import annotations

import io
import logging
import random

import pygame

from suite.tactics.assets.model import Pack
from suite.tactics.assets.wav import load_wav
from suite.ui.audio import Audio

log = logging.getLogger(__name__)

PIECE_EVENTS = ("ready", "go", "attack", "pain", "death")
WEAPON_EVENTS = {"hit": "set_hit", "miss": "set_miss", "crit": "set_crit"}
FALLBACK = {"turn": "ui/notice", "win": "ui/notice", "lose": "ui/click"}


class PackSounds:
    """Plays `pack`'s sound sets through `audio` (the app's); `played` records every
    (event, sound id) played, for tests."""

    def __init__(self, pack: Pack, audio: Audio, rng: random.Random | None = None) -> None:
        self.pack = pack
        self.audio = audio
        self.rng = rng or random.Random()
        self._cache: dict[int, pygame.mixer.Sound | None] = {}
        self.played: list[tuple[str, int]] = []
        self._named = {s.name.strip().lower(): s.id for s in pack.sound_sets.values()}

    def _sound(self, sound_id: int) -> pygame.mixer.Sound | None:
        if sound_id not in self._cache:
            record = self.pack.sounds.get(sound_id)
            sound = None
            if record is not None and self.audio.enabled:
                try:
                    # decoded and checked in full first: SDL never reads the pack's file
                    wav = load_wav(self.pack.path(record.wav), record.wav)
                    sound = pygame.mixer.Sound(file=io.BytesIO(wav.canonical()))
                except (pygame.error, OSError, ValueError) as exc:
                    log.info("sound %s not played: %s", record.wav, exc)
            self._cache[sound_id] = sound
        return self._cache[sound_id]

    def play_set(self, event: str, set_id: int) -> bool:
        """Play one sound of set `set_id` (0 = silent); True when one was picked."""
        sound_set = self.pack.sound_sets.get(set_id)
        if sound_set is None or not sound_set.sounds:
            return False
        choice = self.rng.choice(sound_set.sounds)
        self.played.append((event, choice))
        if not self.audio.enabled or self.audio.volume == 0:
            return True
        sound = self._sound(choice)
        if sound is not None:
            sound.set_volume(self.audio.volume / 100)
            sound.play()
        return True

    def piece(self, event: str, kind: int) -> bool:
        """A piece kind's sound for `event` (one of PIECE_EVENTS)."""
        piece = self.pack.pieces.get(kind)
        if piece is None:
            return False
        return self.play_set(event, piece.sound_sets.get(event, 0))

    def weapon(self, result: str, kind: int) -> bool:
        """The sound of piece kind `kind`'s weapon for an attack's `result`."""
        piece = self.pack.pieces.get(kind)
        weapon = self.pack.weapons.get(piece.weapon) if piece else None
        if weapon is None or result not in WEAPON_EVENTS:
            return False
        return self.play_set(result, int(getattr(weapon, WEAPON_EVENTS[result])))

    def named(self, event: str) -> bool:
        """The pack's set called `event` ("turn", "win", "lose"), else the suite's sound."""
        set_id = self._named.get(event)
        if set_id is not None and self.play_set(event, set_id):
            return True
        fallback = FALLBACK.get(event)
        self.played.append((event, 0))
        return bool(fallback) and self.audio.play(fallback or "")
