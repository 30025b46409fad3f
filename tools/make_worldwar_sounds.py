"""Regenerate World War's sounds in assets/worldwar/sounds/ (synthesised WAV files).

Run from the repository root: ``python tools/make_worldwar_sounds.py``. The output is
deterministic (seeded noise), so running it again gives byte-identical files:
dice.wav (dice rattling on a table), conquest.wav (a short brass fanfare),
card.wav (a card slid off the deck) and turn.wav (a two-note bell for your turn).
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
from make_theme_assets import RATE, _envelope, _tone

OUT = Path(__file__).resolve().parent.parent / "assets" / "worldwar" / "sounds"


def _noise(seconds: float, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, int(RATE * seconds))


def dice() -> np.ndarray:
    """Five clicks of filtered noise, each dying faster, like dice settling."""
    out = np.zeros(int(RATE * 0.55))
    for k, start in enumerate((0.0, 0.09, 0.17, 0.26, 0.33)):
        click = _noise(0.06, 10 + k)
        click = np.convolve(click, np.ones(3) / 3, mode="same")  # soften the hiss
        click *= _envelope(len(click), 0.001, 0.012) * (0.8 - 0.1 * k)
        tok = _tone([1900 + 230 * k], 0.06, 0.01, 0.35)
        i = int(RATE * start)
        out[i : i + len(click)] += click + tok
    return out


def conquest() -> np.ndarray:
    """A rising three-note brass call (root, fifth, octave)."""
    notes = [_tone([f, 2 * f, 3 * f], 0.16, 0.12, 0.45) for f in (392.0, 587.3)]
    last = _tone([784.0, 1568.0, 2352.0], 0.42, 0.22, 0.5)
    return np.concatenate([*notes, last])


def card() -> np.ndarray:
    """A short swish: noise with a falling band."""
    n = int(RATE * 0.22)
    noise = _noise(0.22, 7)
    width = np.linspace(2, 14, n).astype(int)
    smooth = np.array([noise[max(0, i - w) : i + 1].mean() for i, w in enumerate(width)])
    return 1.4 * smooth * _envelope(n, 0.03, 0.06)


def turn() -> np.ndarray:
    """Two bell tones: it is your turn."""
    first = _tone([660.0, 1320.0, 1980.0], 0.22, 0.18, 0.4)
    second = _tone([880.0, 1760.0, 2640.0], 0.5, 0.3, 0.4)
    return np.concatenate([first, second])


def _write(name: str, samples: np.ndarray) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    data = (np.clip(samples, -1.0, 1.0) * 32000).astype("<i2").tobytes()
    with wave.open(str(OUT / f"{name}.wav"), "wb") as fh:
        fh.setnchannels(1)
        fh.setsampwidth(2)
        fh.setframerate(RATE)
        fh.writeframes(data)


def main() -> None:
    for name, make in (("dice", dice), ("conquest", conquest), ("card", card), ("turn", turn)):
        _write(name, make())
        print(f"wrote {OUT / name}.wav")


if __name__ == "__main__":
    main()
