"""Pack sounds are decoded in full and checked before the mixer sees them (issue 24, item
2): a WAV cut to its header, a lying chunk or an odd format is a warning and stays silent;
random damage to a real WAV never reaches SDL as anything but a clean PCM file."""

from __future__ import annotations

import io
import random
import struct
import wave
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from suite.tactics.assets.limits import limits
from suite.tactics.assets.pack import load_pack
from suite.tactics.assets.wav import NotWav, Wav, WavError, read_wav
from suite.tactics.screens.sounds import PackSounds
from suite.ui.audio import Audio

from .conftest import MakePack


def make_wav(channels: int = 1, width: int = 1, rate: int = 11025, frames: int = 200) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(channels)
        handle.setsampwidth(width)
        handle.setframerate(rate)
        handle.writeframes(bytes((i * 7) % 256 for i in range(frames * channels * width)))
    return out.getvalue()


def with_fmt(tag: int = 1, channels: int = 1, rate: int = 11025, align: int = 1, bits: int = 8):
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * align, align, bits)
    body = b"WAVEfmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", 8) + bytes(8)
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.mark.parametrize(("channels", "width"), [(1, 1), (2, 2), (1, 2), (2, 1)])
def test_pcm_reads_back_and_rebuilds(channels: int, width: int) -> None:
    data = make_wav(channels, width, 22050, 300)
    sound = read_wav(data, "a.wav")
    assert (sound.channels, sound.sample_width, sound.rate, sound.frames) == (
        channels,
        width,
        22050,
        300,
    )
    with wave.open(io.BytesIO(sound.canonical()), "rb") as again:
        assert again.getnframes() == 300 and again.getnchannels() == channels
        assert again.readframes(300) == sound.pcm
    assert read_wav(sound.canonical(), "a.wav") == sound


BAD = [
    (b"", "not a WAV file"),
    (b"RIFF\x00\x00\x00\x00WAVX", "not a WAV file"),
    (make_wav()[:44], "the data chunk says 200 bytes, the file holds 0 (cut short)"),
    (make_wav()[:100], "the data chunk says 200 bytes, the file holds 56 (cut short)"),
    (make_wav()[:36], "no sound data"),
    (with_fmt(tag=17), "sound format 17 is not played"),
    (with_fmt(channels=0, align=0), "0 channels"),
    (with_fmt(channels=9, align=9), "9 channels"),
    (with_fmt(bits=24, align=3), "24-bit samples"),
    (with_fmt(rate=0), "a rate of 0 Hz"),
    (with_fmt(rate=10_000_000), "a rate of 10000000 Hz"),
    (with_fmt(align=2), "block align 2"),
    (with_fmt(align=16, channels=2, bits=8)[:-8] + b"", "block align 16"),
    (b"RIFF\x10\x00\x00\x00WAVEdata\x00\x00\x00\x00", "data comes before its format"),
    (b"RIFF\x10\x00\x00\x00WAVEfmt \x04\x00\x00\x00abcd", "the format chunk is 4 bytes"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_sounds_are_refused_with_a_reason(data: bytes, message: str) -> None:
    with pytest.raises(WavError, match="^x.wav: ") as caught:
        read_wav(data, "x.wav")
    assert message in str(caught.value)


def test_a_sound_too_long_is_refused() -> None:
    rules = limits().sound
    rate = rules.min_rate
    data = make_wav(1, 1, rate, rate * rules.max_seconds + 1)
    with pytest.raises(WavError, match="past the limit of"):
        read_wav(data, "long.wav")
    assert read_wav(make_wav(1, 1, rate, rate * rules.max_seconds), "ok.wav").frames > 0


def test_chunks_before_the_sound_are_bounded() -> None:
    many = limits().sound.max_chunks
    body = make_wav()[12:]
    filler = b"junk" + struct.pack("<I", 0)
    for count, ok in ((many - 2, True), (many + 5, False)):
        data = b"RIFF" + struct.pack("<I", 0) + b"WAVE" + filler * count + body
        if ok:
            assert read_wav(data, "c.wav").frames == 200
        else:
            with pytest.raises(WavError, match=f"more than {many} chunks"):
                read_wav(data, "c.wav")


def test_a_wav_cut_to_its_header_warns_and_stays_silent(make_pack: MakePack) -> None:
    """The report's crash: the 44-byte header alone passed check, then SDL freed twice."""
    root = make_pack()
    (root / "sounds" / "hit.wav").write_bytes(make_wav()[:44])
    pack = load_pack(root)
    assert pack.errors == []
    assert [p.message for p in pack.warnings] == [
        "sounds/hit.wav: the data chunk says 200 bytes, the file holds 0 (cut short); "
        "the sound stays silent"
    ]
    audio = Audio(80)
    if not audio.enabled:
        pytest.skip("no mixer, even with the dummy driver")
    sounds = PackSounds(pack, audio, random.Random(1))
    assert sounds.play_set("hit", 1)  # the set still picks; the sound itself is silent
    assert sounds._sound(1) is None
    (root / "sounds" / "hit.wav").write_bytes(make_wav())
    assert PackSounds(pack, audio)._sound(1) is not None


def test_not_a_wav_is_an_error_of_the_pack(make_pack: MakePack) -> None:
    root = make_pack()
    (root / "sounds" / "hit.wav").write_bytes(b"RIFF....nope")
    assert [p.message for p in load_pack(root).errors] == [
        "sounds/hit.wav: not a WAV file (no RIFF/WAVE header)"
    ]
    with pytest.raises(NotWav):
        read_wav(b"RIFF....nope", "hit.wav")


SEEDS = [make_wav(1, 1, 11025, 64), make_wav(2, 2, 44100, 40)]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(SEEDS),
    st.lists(st.tuples(st.integers(0, 120), st.integers(0, 255)), max_size=6),
    st.integers(0, 300),
)
def test_fuzzed_sounds_are_refused_or_rebuilt_clean(
    seed: bytes, flips: list[tuple[int, int]], cut: int
) -> None:
    data = bytearray(seed)
    for at, value in flips:
        if at < len(data):
            data[at] = value
    damaged = bytes(data[: max(cut, 0)] if cut < len(data) else data)
    try:
        sound = read_wav(damaged, "f.wav")
    except WavError:
        return
    assert isinstance(sound, Wav) and sound.frames > 0
    assert len(sound.pcm) == sound.frames * sound.channels * sound.sample_width
    rules = limits().sound
    assert 1 <= sound.channels <= rules.max_channels
    assert rules.min_rate <= sound.rate <= rules.max_rate
    assert read_wav(sound.canonical(), "f.wav") == sound
    if pygame.mixer.get_init():
        pygame.mixer.Sound(file=io.BytesIO(sound.canonical()))  # SDL takes the clean file


def test_fuzzed_files_through_the_game_sound_path(make_pack: MakePack) -> None:
    """Damaged files on disk played through PackSounds: silent or played, never a crash."""
    root = make_pack()
    pack = load_pack(root)
    audio = Audio(80)
    if not audio.enabled:
        pytest.skip("no mixer, even with the dummy driver")
    rng = random.Random(24)
    target: Path = root / "sounds" / "hit.wav"
    played = 0
    for _ in range(150):
        data = bytearray(rng.choice(SEEDS))
        for _ in range(rng.randint(0, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        target.write_bytes(bytes(data[: rng.randint(0, len(data))]))
        sounds = PackSounds(pack, audio, random.Random(1))
        assert sounds.play_set("hit", 1)
        played += sounds._sound(1) is not None
    assert 0 < played < 150
