"""Regenerate the suite's application icon in assets/icon/ from the emblem the window draws.

Run from the repository root: ``python tools/make_icon.py``. It renders
`suite.ui.widgets.draw_emblem` (the brass shield with one pip per game, the window's own
icon) with pygame, headless, and writes:

- ``warsuite.png``: 256x256, the Linux icon (the `.desktop` file's Icon);
- ``warsuite.ico``: Windows, PNG-compressed entries of 16 to 256 pixels;
- ``warsuite.icns``: macOS, PNG entries of 32 to 512 pixels.

The ICO and ICNS containers are written here byte by byte (both may hold PNG data), so no
imaging library beyond pygame is needed. The output is deterministic: running the script
again gives the same files.
"""

from __future__ import annotations

import io
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "icon"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = {32: b"ic11", 64: b"ic12", 128: b"ic07", 256: b"ic08", 512: b"ic09"}


def render_png(size: int) -> bytes:
    """The emblem on a transparent square of `size` pixels, as PNG bytes.

    Drawn four times larger and scaled down smoothly, so small sizes have soft edges."""
    import pygame

    from suite.ui.widgets import draw_emblem

    big = pygame.Surface((size * 4, size * 4), pygame.SRCALPHA)
    draw_emblem(big, big.get_rect())
    small = pygame.transform.smoothscale(big, (size, size))
    buffer = io.BytesIO()
    pygame.image.save(small, buffer, "icon.png")
    return buffer.getvalue()


def ico(images: dict[int, bytes]) -> bytes:
    """An ICO file holding each PNG of `images` (size -> PNG bytes)."""
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = len(head) + 16 * len(images)
    entries, data = b"", b""
    for size, png in sorted(images.items()):
        side = 0 if size >= 256 else size  # 0 means 256 in an ICO directory entry
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        data += png
        offset += len(png)
    return head + entries + data


def icns(images: dict[int, bytes]) -> bytes:
    """An ICNS file holding each PNG of `images` under its ICNS type code."""
    body = b"".join(
        ICNS_TYPES[size] + struct.pack(">I", 8 + len(png)) + png
        for size, png in sorted(images.items())
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def write_icons(folder: Path) -> list[Path]:
    """Write the three icon files into `folder`; their paths."""
    sizes = sorted({*ICO_SIZES, *ICNS_TYPES})
    pngs = {size: render_png(size) for size in sizes}
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "warsuite.png": pngs[256],
        "warsuite.ico": ico({s: pngs[s] for s in ICO_SIZES}),
        "warsuite.icns": icns({s: pngs[s] for s in ICNS_TYPES}),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return [folder / name for name in files]


def main() -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    sys.path.insert(0, str(ROOT))
    for path in write_icons(OUT):
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
