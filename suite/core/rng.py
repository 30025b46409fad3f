"""A seeded, serialisable random source.

`Rng` draws raw 64-bit words from numpy's PCG64 bit generator and builds every
distribution itself (rejection sampling for integers, 53-bit floats), so the same
seed gives the same sequence on every machine and every numpy version: the raw
PCG64 stream is fixed by its specification, while numpy's `Generator` methods are
allowed to change between releases.

Words are fetched from the bit generator a batch at a time (`random_raw(n)` yields the
same words as n single draws), which makes a draw several times cheaper; the state that
`to_dict` reports, `==` compares and `_bits` exposes is always the one of the words
actually used, exactly as if they had been drawn one by one.

A new `Rng(seed)` is seeded as `np.random.PCG64(seed)` is, to the bit: `_seed_words` is
numpy's `SeedSequence(seed).generate_state(4, np.uint64)` worked out here (numpy's own
takes about 15 microseconds, as long as a few hundred draws; self-play seeds two
generators a game and the expert one a playout), handed to the bit generator through
`_SeedWords`. A test checks it against numpy's for many seeds.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, Final, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr
from numpy.random.bit_generator import ISeedSequence

T = TypeVar("T")

_U64: Final = 1 << 64
_FLOAT_SCALE: Final = 1.0 / (1 << 53)
_BATCH: Final = 256
"""The most raw words fetched from the bit generator at a time."""
_FIRST_BATCH: Final = 32
"""The words fetched by a new generator's first batch (each next one doubles)."""
_U128: Final = 1 << 128
_LIMITS: Final = tuple(_U64 - (_U64 % n) if n else 0 for n in range(257))
"""`randbelow(n)` takes words below `_LIMITS[n]` (whole buckets), for n up to 256."""

# numpy's SeedSequence constants (numpy/random/bit_generator.pyx), 32-bit arithmetic.
_M32: Final = 0xFFFFFFFF
_INIT_A: Final = 0x43B0D7E5
_MULT_A: Final = 0x931E8875
_INIT_B: Final = 0x8B51F9DD
_MULT_B: Final = 0x58F38DED
_MIX_L: Final = 0xCA01F9DD
_MIX_R: Final = 0x4973F715
_POOL: Final = 4


def _mul32(a: int, b: int) -> int:
    """a * b mod 2**32 for 32-bit a and b, by 16-bit halves: the compiled module
    multiplies ints below 2**30 unboxed and falls back to Python's ints above."""
    a0, b0 = a & 0xFFFF, b & 0xFFFF
    cross = (a >> 16) * b0 + a0 * (b >> 16)
    return (a0 * b0 + ((cross & 0xFFFF) << 16)) & _M32


def _seed_words(seed: int) -> list[int]:
    """`SeedSequence(seed).generate_state(4, np.uint64)` as ints (seed >= 0): the seed's
    32-bit words (least significant first) hashed into a pool of four, which is then
    hashed out into eight 32-bit words, paired little-endian."""
    entropy: list[int] = []
    n = seed
    while True:
        entropy.append(n & _M32)
        n >>= 32
        if n == 0:
            break
    # hashmix(v): v ^= h; h *= MULT_A; v *= h; v ^= v >> 16 (all mod 2**32);
    # mix(x, y) = (MIX_L * x - MIX_R * y) ^ (that >> 16).
    pool: list[int] = []
    h = _INIT_A
    for i in range(_POOL):
        v = (entropy[i] if i < len(entropy) else 0) ^ h
        h = _mul32(h, _MULT_A)
        v = _mul32(v, h)
        pool.append(v ^ (v >> 16))
    for k in range(_POOL + max(0, len(entropy) - _POOL)):
        # The pool's words mixed into each other, then the entropy beyond the pool's size.
        for dst in range(_POOL):
            if dst == k:
                continue
            v = (pool[k] if k < _POOL else entropy[k]) ^ h
            h = _mul32(h, _MULT_A)
            v = _mul32(v, h)
            v ^= v >> 16
            r = (_mul32(_MIX_L, pool[dst]) - _mul32(_MIX_R, v)) & _M32
            pool[dst] = r ^ (r >> 16)
    out: list[int] = []
    h = _INIT_B
    for i in range(2 * _POOL):
        v = pool[i % _POOL] ^ h
        h = _mul32(h, _MULT_B)
        v = _mul32(v, h)
        out.append(v ^ (v >> 16))
    return [out[2 * k] | (out[2 * k + 1] << 32) for k in range(_POOL)]


class _SeedWords:
    """A seed sequence (numpy's `ISeedSequence`, registered below) that hands the bit
    generator words already worked out (`_seed_words`)."""

    def __init__(self, words: list[int]) -> None:
        self.words = words

    def __reduce__(self) -> tuple[type[_SeedWords], tuple[list[int]]]:
        """Pickled with its words (the bit generator keeps it and pickles it along: an
        `Rng` crosses to a bot's worker process so)."""
        return _SeedWords, (self.words,)

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> Any:
        assert n_words == _POOL and np.dtype(dtype) == np.uint64, "PCG64's request only"
        return np.array(self.words, dtype=np.uint64)


ISeedSequence.register(_SeedWords)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests script draws in a subclass
class Rng:
    """Deterministic random numbers for engines, bots and map generators.

    The only state is the PCG64 state; `to_dict`/`from_dict` round-trip it through
    JSON-safe values (big integers are written as decimal strings). Internally the
    generator runs up to a batch of words ahead: `_buf` holds the words not used yet
    (the next one last), and `_sync` winds the generator back over them when its state
    is read. Batches start small and double up to `_BATCH` (`_size`: the next one's),
    so a short-lived generator (one per expert playout, two per self-play game) turns
    few words it never uses into Python ints.
    """

    __slots__ = ("_gen", "_buf", "_size")

    def __init__(self, seed: int = 0) -> None:
        if seed < 0:
            raise ValueError(f"seed must be >= 0, got {seed}")
        words: Any = _SeedWords(_seed_words(seed))  # a seed sequence numpy's stubs omit
        self._gen = np.random.PCG64(words)  # the same generator as PCG64(seed)
        self._buf: list[int] = []
        self._size = _FIRST_BATCH

    # -- raw material -------------------------------------------------------
    def _refill(self) -> None:
        """Fetch the next batch of words (only when the current one is used up)."""
        size = self._size
        words: list[int] = self._gen.random_raw(size).tolist()
        words.reverse()
        self._buf = words
        if size < _BATCH:
            self._size = min(_BATCH, 2 * size)

    def _sync(self) -> None:
        """Bring the bit generator back to the words actually used; drop the batch.

        PCG64 jumps any distance mod 2**128, so advancing by 2**128 - k rewinds k words;
        the jump clears numpy's buffered 32-bit half-word, which is put back."""
        ahead = len(self._buf)
        if ahead:
            gen = self._gen
            before = gen.state
            gen.advance(_U128 - ahead)
            if before["has_uint32"] or before["uinteger"]:
                after = gen.state
                after["has_uint32"] = before["has_uint32"]
                after["uinteger"] = before["uinteger"]
                gen.state = after
            self._buf = []

    @property
    def _bits(self) -> np.random.PCG64:
        """The bit generator, positioned exactly after the words used so far (for code
        that draws from it directly; the batch ahead is dropped)."""
        self._sync()
        return self._gen

    def _raw(self) -> int:
        buf = self._buf
        if not buf:
            self._refill()
            buf = self._buf
        return buf.pop()

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n); ValueError unless 1 <= n <= 2**64."""
        if n < 2:
            if n == 1:
                return 0
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if n > _U64:
            raise ValueError(f"randbelow needs n <= 2**64, got {n}")
        # Reject the top partial bucket so every value is equally likely.
        limit = _LIMITS[n] if n < 256 else _U64 - (_U64 % n)
        buf = self._buf
        while True:
            if not buf:
                self._refill()
                buf = self._buf
            word: int = buf.pop()
            if word < limit:
                return word % n

    def randbelows(self, n: int, count: int) -> list[int]:
        """`count` draws of `randbelow(n)` at once (the same numbers, in order)."""
        if count <= 0:
            return []
        if n < 2:
            return [self.randbelow(n)] * count  # 0s, or the ValueError of a bad n
        if n > _U64:
            raise ValueError(f"randbelow needs n <= 2**64, got {n}")
        limit = _LIMITS[n] if n < 256 else _U64 - (_U64 % n)
        buf = self._buf
        out: list[int] = []
        while True:
            if not buf:
                self._refill()
                buf = self._buf
            word: int = buf.pop()
            if word < limit:
                out.append(word % n)
                if len(out) == count:
                    return out

    # -- public draws -------------------------------------------------------
    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        if high < low:
            raise ValueError(f"randint needs low <= high, got {low} > {high}")
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        buf = self._buf
        if not buf:
            self._refill()
            buf = self._buf
        return (buf.pop() >> 11) * _FLOAT_SCALE

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        if len(items) > 256:
            draw = self.randbelow
            for i in range(len(items) - 1, 255, -1):
                j = draw(i + 1)
                items[i], items[j] = items[j], items[i]
        # `randbelow(i + 1)` inlined for the short ranges (games shuffle boards and decks).
        buf = self._buf
        for i in range(min(len(items) - 1, 255), 0, -1):
            limit = _LIMITS[i + 1]
            while True:
                if not buf:
                    self._refill()
                    buf = self._buf
                word: int = buf.pop()
                if word < limit:
                    break
            j = word % (i + 1)
            items[i], items[j] = items[j], items[i]

    def roll(self, n: int, sides: int = 6) -> list[int]:
        """`n` dice of `sides` faces, in the order rolled."""
        if n < 0:
            raise ValueError(f"cannot roll {n} dice")
        draw = self.randbelow
        return [1 + draw(sides) for _ in range(n)]

    def percent(self, p: float) -> bool:
        """True with probability p percent (p <= 0 never, p >= 100 always)."""
        if p <= 0:
            return False
        if p >= 100:
            return True
        return self.random() * 100.0 < p

    def spawn(self) -> Rng:
        """A new independent Rng seeded from this one (advances this one by one draw)."""
        return Rng(self._raw())

    # -- serialisation ------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        st = self._bits.state
        return {
            "bit_generator": "PCG64",
            "state": str(st["state"]["state"]),
            "inc": str(st["state"]["inc"]),
            "has_uint32": int(st["has_uint32"]),
            "uinteger": int(st["uinteger"]),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rng:
        """The Rng that `to_dict` described; ValueError names what is missing or malformed."""
        if d.get("bit_generator") != "PCG64":
            raise ValueError(f"unknown bit generator {d.get('bit_generator')!r}")
        rng = cls(0)
        try:
            rng._gen.state = {
                "bit_generator": "PCG64",
                "state": {"state": int(d["state"]), "inc": int(d["inc"])},
                "has_uint32": int(d["has_uint32"]),
                "uinteger": int(d["uinteger"]),
            }
        except KeyError as exc:
            raise ValueError(f"Rng state has no {exc.args[0]!r}") from exc
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"malformed Rng state: {exc}") from exc
        return rng

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(tuple(self.to_dict().items()))

    def __repr__(self) -> str:
        return f"Rng(state={self.to_dict()['state'][:12]}...)"
