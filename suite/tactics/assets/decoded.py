"""Each file of a pack decoded once (issue 24, item 4): 8,766 pieces naming one skin decode
it once, not 8,766 times.

`Decoded` belongs to one loaded `Pack` and holds its bitmaps by (file, kind), failures
included (a bad file is not read again; every line naming it still gets its problem). A
file whose size or modification time changed since is decoded again (a modder edited it);
one that cannot even be looked at is a failure kept like the others. It is
bounded by `[pack] max_pixels` of limits.toml: the pixels of every distinct image decoded
for the pack together; past that a further image is refused with `PackLimitError`, which
also bounds the memory a pack keeps. `decodes` counts the files actually decoded (tests
assert on work done, never on time).
"""

from __future__ import annotations

from pathlib import Path

from suite.tactics.assets.bmp import Bitmap, load_bmp
from suite.tactics.assets.limits import PackLimitError, limits


class Decoded:
    """Bitmaps of one pack by (path, kind); see the module docstring."""

    def __init__(self) -> None:
        self._bitmaps: dict[tuple[str, str], tuple[tuple[int, int], Bitmap | Exception]] = {}
        self.pixels = 0
        self.decodes = 0

    def bitmap(self, path: Path, kind: str) -> Bitmap:
        """The bitmap of `kind` at `path`, decoded at most once; raises what `load_bmp`
        raised the first time (BmpError, PackLimitError, OSError), or PackLimitError past
        the pack's pixel budget."""
        key = (str(path), kind)
        found: Bitmap | Exception
        try:
            status = path.stat()
        except OSError as exc:
            stamp, found = (-1, -1), exc
        else:
            stamp = (status.st_size, status.st_mtime_ns)
            kept = self._bitmaps.get(key)
            if kept is not None and kept[0] == stamp:
                found = kept[1]
            else:
                if kept is not None and isinstance(kept[1], Bitmap):
                    self.pixels -= kept[1].width * kept[1].height  # a modder changed it
                found = self._decode(path, kind)
        self._bitmaps[key] = (stamp, found)
        if isinstance(found, Exception):
            raise found
        return found

    def _decode(self, path: Path, kind: str) -> Bitmap | Exception:
        budget = limits().pack.max_pixels
        if self.pixels >= budget:
            return PackLimitError(
                f"{path.name}: the pack's images already hold {self.pixels} pixels, "
                f"past the limit of {budget}"
            )
        self.decodes += 1
        try:
            image = load_bmp(path, kind)
        except (OSError, ValueError) as exc:
            return exc
        self.pixels += image.width * image.height
        return image
