"""Safe WAV decoding: a pack's sound is read and checked here in full before any of it
reaches SDL's mixer (a WAV cut to its 44-byte header made SDL free memory twice).

`inspect_wav` walks the RIFF chunks (at most `[sound] max_chunks`) with every length
checked against the bytes actually there; `load_wav` (a file) and `read_wav` (bytes) return
a `Wav` (uncompressed PCM: channels, sample width, rate and whole frames), `check_wav` (what
`suite tactics check` runs) the same checks without reading the samples; each raises
`WavError` naming the file and what is wrong (`NotWav` for no RIFF/WAVE at all). The mixer is then
given `Wav.canonical()`, a plain 44-byte-header WAV rebuilt from the checked samples, never
the pack's file. The accepted formats (channels, sample bits, rates, length) are in
`assets/tactics/rules/limits.toml` (`[sound]`).
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from suite.tactics.assets.limits import check_size, limits, open_regular

PCM = 1
EXTENSIBLE = 0xFFFE
_HEADER = struct.Struct("<4sI4s")
_CHUNK = struct.Struct("<4sI")
_FMT = struct.Struct("<HHIIHH")
_FMT_MOST = 64  # bytes of a fmt chunk looked at (WAVE_FORMAT_EXTENSIBLE needs 40)


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
    """Decode the WAV at `path` (`name` is how the pack names it) with its samples, for the
    mixer. PackLimitError past the size limit, OSError, or WavError."""
    size = check_size(path, limits().sound.max_bytes, "a sound")
    with open_regular(path) as handle:
        info = inspect_wav(handle, size, name)
        handle.seek(info.offset)
        pcm = handle.read(info.frames * info.align)
    if len(pcm) < info.frames * info.align:
        raise WavError(f"{name}: the file shrank while it was read")
    return Wav(info.channels, info.sample_width, info.rate, info.frames, pcm)


def check_wav(path: Path, name: str) -> WavInfo:
    """Check the WAV at `path` in full without reading its samples (any bytes are valid
    samples once the format and the data's length are checked)."""
    size = check_size(path, limits().sound.max_bytes, "a sound")
    with open_regular(path) as handle:
        return inspect_wav(handle, size, name)


def read_wav(data: bytes, name: str) -> Wav:
    """Decode a whole WAV file held in `data` (see the module docstring)."""
    info = inspect_wav(io.BytesIO(data), len(data), name)
    pcm = data[info.offset : info.offset + info.frames * info.align]
    return Wav(info.channels, info.sample_width, info.rate, info.frames, pcm)


@dataclass(frozen=True)
class WavInfo:
    """What `inspect_wav` found: the format and where the whole frames are."""

    channels: int
    sample_width: int
    rate: int
    frames: int
    offset: int  # of the first sample in the file

    @property
    def align(self) -> int:
        return self.channels * self.sample_width


def inspect_wav(handle: BinaryIO, size: int, name: str) -> WavInfo:
    """Walk the RIFF chunks of a `size`-byte file: every length is checked against the
    bytes really there, at most `[sound] max_chunks` chunks are looked at, and only chunk
    headers and the format are read."""
    head = handle.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise NotWav(f"{name}: not a WAV file (no RIFF/WAVE header)")
    riff, _, wave_id = _HEADER.unpack(head)
    if riff != b"RIFF" or wave_id != b"WAVE":
        raise NotWav(f"{name}: not a WAV file (no RIFF/WAVE header)")
    fmt: tuple[int, int, int, int] | None = None
    pos = _HEADER.size
    for _ in range(limits().sound.max_chunks):
        if pos + _CHUNK.size > size:
            break
        handle.seek(pos)
        chunk, length = _CHUNK.unpack(handle.read(_CHUNK.size))
        start = pos + _CHUNK.size
        held = size - start
        if chunk == b"fmt ":
            fmt = _read_fmt(handle.read(min(length, held, _FMT_MOST)), name)
        elif chunk == b"data":
            if fmt is None:
                raise WavError(f"{name}: the sound data comes before its format (fmt chunk)")
            if length > held:
                raise WavError(
                    f"{name}: the data chunk says {length} bytes, the file holds {held} (cut short)"
                )
            return _frames(length, start, fmt, name)
        pos = start + length + (length & 1)
    else:
        raise WavError(f"{name}: more than {limits().sound.max_chunks} chunks before the sound")
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


def _frames(length: int, offset: int, fmt: tuple[int, int, int, int], name: str) -> WavInfo:
    channels, width, rate, align = fmt
    frames = length // align
    if frames == 0:
        raise WavError(f"{name}: the sound holds no samples")
    longest = limits().sound.max_seconds
    if frames > longest * rate:
        raise WavError(f"{name}: {frames / rate:.1f} s long, past the limit of {longest} s")
    return WavInfo(channels, width, rate, frames, offset)
