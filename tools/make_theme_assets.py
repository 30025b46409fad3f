"""Regenerate the interface sounds in assets/sounds/ui/ (short synthesised WAV files).

Run from the repository root: ``python tools/make_theme_assets.py``. The output is
deterministic, so running it again gives byte-identical files. With ``--screenshot PATH``
it also saves a screenshot of the launcher (headless, 1280x800), e.g. for docs/launcher.png.
The fonts in assets/fonts/ are Noto Sans (SIL Open Font License, see assets/fonts/OFL.txt),
shipped as they are.
"""

from __future__ import annotations

import argparse
import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds" / "ui"


def _envelope(n: int, attack: float, decay: float) -> np.ndarray:
    """A linear attack followed by an exponential decay, both in seconds."""
    t = np.arange(n) / RATE
    rise = np.clip(t / max(attack, 1e-4), 0.0, 1.0)
    return rise * np.exp(-t / decay)


def _tone(freqs: list[float], seconds: float, decay: float, gain: float) -> np.ndarray:
    n = int(RATE * seconds)
    t = np.arange(n) / RATE
    wave_sum = sum(np.sin(2 * np.pi * f * t) / (i + 1) for i, f in enumerate(freqs))
    return gain * np.asarray(wave_sum) * _envelope(n, 0.004, decay)


def _sweep(start: float, end: float, seconds: float, gain: float) -> np.ndarray:
    n = int(RATE * seconds)
    freq = np.linspace(start, end, n)
    phase = 2 * np.pi * np.cumsum(freq) / RATE
    return gain * np.sin(phase) * _envelope(n, 0.01, seconds / 3)


def _write(name: str, samples: np.ndarray) -> None:
    pcm = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    OUT.mkdir(parents=True, exist_ok=True)
    with wave.open(str(OUT / f"{name}.wav"), "wb") as fh:
        fh.setnchannels(1)
        fh.setsampwidth(2)
        fh.setframerate(RATE)
        fh.writeframes(pcm.tobytes())


def launcher_screenshot(path: Path) -> None:
    """Save the launcher as a player first sees it (nothing hovered) to `path`."""
    from suite.ui.harness import Harness
    from suite.ui.launcher import LauncherScene

    with Harness((1280, 800), root=LauncherScene) as harness:
        harness.move((4, 4))
        harness.frames(30)
        harness.screenshot(path)
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", type=Path, help="also save a launcher screenshot here")
    args = parser.parse_args()
    _write("hover", _tone([1320.0, 2640.0], 0.05, 0.012, 0.18))
    _write("click", _tone([660.0, 990.0, 1980.0], 0.09, 0.025, 0.45))
    _write("open", _sweep(330.0, 880.0, 0.28, 0.4))
    _write(
        "notice", np.concatenate([_tone([784.0], 0.09, 0.05, 0.3), _tone([587.0], 0.16, 0.07, 0.3)])
    )
    print(f"wrote 4 sounds to {OUT}")
    if args.screenshot:
        launcher_screenshot(args.screenshot)


if __name__ == "__main__":
    main()
