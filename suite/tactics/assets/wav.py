"""Safe WAV decoding: a pack's sound is read and checked here in full before any of it
reaches SDL's mixer (a WAV cut to its 44-byte header made SDL free memory twice).

`read_wav(data, name)` walks the RIFF chunks with every length checked against the bytes
actually there and returns a `Wav` (uncompressed PCM: channels, sample width, rate and
whole frames), or raises `WavError` naming the file and what is wrong. The mixer is then
given `Wav.canonical()`, a plain 44-byte-header WAV rebuilt from the checked samples, never
the pack's file. The accepted formats (channels, sample bits, rates, length) are in
`assets/tactics/rules/limits.toml` (`[sound]`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from suite.tactics.assets.limits import limits, read_limited

PCM = 1
EXTENSIBLE = 0xFFFE
_HEADER = struct.Struct("<4sI4s")
_CHUNK = struct.Struct("<4sI")
_FMT = struct.Struct("<HHIIHH")


class WavError(ValueError):
    """A sound that cannot be played (the message names the file and why)."""


class NotWav(WavError):
    """A file that is no RIFF/WAVE file at all (an error of the pack, not a warning)."""


@dataclass(frozen=True)
class Wav:
    """Checked PCM sound: `len(pcm) == frames * channels * sample_width`."""

    channels: int
    sample_width: int  # bytes per sample: 1 (unsigned) or 2 (signed little-endian)
    rate: int
    frames: int
    pcm: bytes

    @property
    def seconds(self) -> float:
        return self.frames / self.rate

    def canonical(self) -> bytes:
        """A plain PCM WAV file of these samples (what the mixer is given)."""
        align = self.channels * self.sample_width
        bits = 8 * self.sample_width
        fmt = _FMT.pack(PCM, self.channels, self.rate, self.rate * align, align, bits)
        body = b"WAVE" + _CHUNK.pack(b"fmt ", len(fmt)) + fmt
        body += _CHUNK.pack(b"data", len(self.pcm)) + self.pcm
        return b"RIFF" + struct.pack("<I", len(body)) + body


def load_wav(path: Path, name: str) -> Wav:
    """Read (at most the sound size limit) and decode the WAV at `path`; `name` is how the
    pack names it. PackLimitError past the size limit, OSError, or WavError."""
    return read_wav(read_limited(path, limits().sound.max_bytes, "a sound"), name)


def read_wav(data: bytes, name: str) -> Wav:
    """Decode a whole WAV file held in `data` (see the module docstring)."""
    if len(data) < _HEADER.size:
        raise NotWav(f"{name}: not a WAV file (no RIFF/WAVE header)")
    riff, _, wave_id = _HEADER.unpack_from(data)
    if riff != b"RIFF" or wave_id != b"WAVE":
        raise NotWav(f"{name}: not a WAV file (no RIFF/WAVE header)")
    fmt: tuple[int, int, int, int] | None = None
    pos = _HEADER.size
    while pos + _CHUNK.size <= len(data):
        chunk, size = _CHUNK.unpack_from(data, pos)
        start = pos + _CHUNK.size
        held = len(data) - start
        if chunk == b"fmt ":
            fmt = _read_fmt(data[start : start + min(size, held)], name)
        elif chunk == b"data":
            if fmt is None:
                raise WavError(f"{name}: the sound data comes before its format (fmt chunk)")
            if size > held:
                raise WavError(
                    f"{name}: the data chunk says {size} bytes, the file holds {held} (cut short)"
                )
            return _samples(data[start : start + size], fmt, name)
        pos = start + size + (size & 1)
    raise WavError(f"{name}: no sound data (no complete data chunk)")


def _read_fmt(body: bytes, name: str) -> tuple[int, int, int, int]:
    """(channels, sample width, rate, block align) of a PCM fmt chunk."""
    if len(body) < _FMT.size:
        raise WavError(f"{name}: the format chunk is {len(body)} bytes, at least 16 are needed")
    tag, channels, rate, _, align, bits = _FMT.unpack_from(body)
    if tag == EXTENSIBLE and len(body) >= 26:
        tag = struct.unpack_from("<H", body, 24)[0]
    if tag != PCM:
        raise WavError(f"{name}: sound format {tag} is not played (only PCM, format 1)")
    rules = limits().sound
    if not 1 <= channels <= rules.max_channels:
        raise WavError(f"{name}: {channels} channels (1 to {rules.max_channels} are played)")
    if bits not in rules.sample_bits:
        allowed = " or ".join(str(b) for b in rules.sample_bits)
        raise WavError(f"{name}: {bits}-bit samples ({allowed} bits are played)")
    if not rules.min_rate <= rate <= rules.max_rate:
        raise WavError(
            f"{name}: a rate of {rate} Hz ({rules.min_rate} to {rules.max_rate} Hz are played)"
        )
    width = bits // 8
    if align != channels * width:
        raise WavError(f"{name}: block align {align}, {channels} x {width} bytes expected")
    return channels, width, rate, align


def _samples(body: bytes, fmt: tuple[int, int, int, int], name: str) -> Wav:
    channels, width, rate, align = fmt
    frames = len(body) // align
    if frames == 0:
        raise WavError(f"{name}: the sound holds no samples")
    longest = limits().sound.max_seconds
    if frames > longest * rate:
        raise WavError(f"{name}: {frames / rate:.1f} s long, past the limit of {longest} s")
    return Wav(channels, width, rate, frames, bytes(body[: frames * align]))
