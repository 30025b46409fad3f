"""Build the downloadable app: the suite with its own Python, in one folder, and its archive.

Run by `make bundle` (from the project's .venv, with the `bundle` extra installed):

    .venv/bin/python tools/build_bundle.py [--out DIR] [--force]

It runs PyInstaller on packaging/warsuite.spec, which makes ``DIR/warsuite/`` (the
executable ``warsuite`` and its ``_internal`` folder; on macOS also ``War Suite.app``), adds
on Linux a ``warsuite.desktop`` file and the icon beside the executable, and packs
``DIR/warsuite-<version>-<platform>.tar.gz`` (``.zip`` on Windows), e.g.
``warsuite-0.1.0-linux-x86_64.tar.gz``. Finally it writes ``DIR/bundle.json``: the version,
platform, archive name, sizes unpacked and packed, the build's seconds and the fingerprint.

The fingerprint covers every input of the build (the sources, compiled modules, assets,
the spec, this script, pyproject.toml, setup.py, the Python version and every installed
distribution with its version). When it matches the one in ``DIR/bundle.json`` and the
outputs are there, nothing is rebuilt (``--force`` rebuilds anyway): that is how the
bundle test in `make test` builds once and then reuses the app while nothing changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "warsuite.spec"
WORK = ROOT / "build" / "pyinstaller"
NAME = "warsuite"
INPUTS = ("suite", "assets", "packaging", "tools/build_bundle.py", "pyproject.toml", "setup.py")
SKIPPED_PARTS = {"__pycache__", ".mypy_cache"}


def platform_tag() -> str:
    """`linux-x86_64`, `macos-arm64`, `windows-amd64`...: the system and the machine."""
    machine = platform.machine().lower() or "unknown"
    if sys.platform.startswith("linux"):
        return f"linux-{machine}"
    if sys.platform == "darwin":
        return f"macos-{machine}"
    if sys.platform == "win32":
        return f"windows-{machine}"
    return f"{sys.platform}-{machine}"


def version() -> str:
    """The installed package's version (pyproject.toml's, through its metadata)."""
    return metadata.version(NAME)


def archive_name() -> str:
    suffix = "zip" if sys.platform == "win32" else "tar.gz"
    return f"{NAME}-{version()}-{platform_tag()}.{suffix}"


def fingerprint() -> str:
    """A hash of every input of the build (see the module's docstring)."""
    digest = hashlib.sha256()
    for name in INPUTS:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            if SKIPPED_PARTS & set(file.parts) or file.suffix == ".pyc":
                continue
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(file.read_bytes()).digest())
    digest.update(sys.version.encode())
    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(dists).encode())
    return digest.hexdigest()


def folder_size(folder: Path) -> int:
    """Bytes of the regular files under `folder` (symbolic links not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def add_linux_files(app: Path) -> None:
    """The `.desktop` file (starting the executable beside it, see suite.bundled) and the
    icon beside the Linux executable."""
    from suite.bundled import DESKTOP_ENTRY, FOLDER_EXEC

    text = DESKTOP_ENTRY.format(exec=FOLDER_EXEC)
    (app / f"{NAME}.desktop").write_text(text, encoding="utf-8")
    (app / f"{NAME}.desktop").chmod(0o755)
    shutil.copy2(ROOT / "assets" / "icon" / f"{NAME}.png", app / f"{NAME}.png")


def pack(out: Path, folder: Path) -> Path:
    """The archive of `folder` (its name as the archive's top folder)."""
    target = out / archive_name()
    target.unlink(missing_ok=True)
    if target.suffix == ".zip":
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(folder.rglob("*")):
                zf.write(path, path.relative_to(folder.parent).as_posix())
    else:
        with tarfile.open(target, "w:gz", compresslevel=6) as tf:
            tf.add(folder, arcname=folder.name)
    return target


def up_to_date(out: Path) -> dict[str, object] | None:
    """The recorded build when its fingerprint matches and its outputs exist, else None."""
    record = out / "bundle.json"
    try:
        built = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if built.get("fingerprint") != fingerprint():
        return None
    if not (out / NAME / NAME).exists() and not (out / NAME / f"{NAME}.exe").exists():
        return None
    if not (out / str(built.get("archive"))).is_file():
        return None
    return dict(built)


def build(out: Path, *, force: bool = False) -> dict[str, object]:
    """Build the app into `out` (unless up to date) and return what bundle.json records."""
    out = out.resolve()
    if not force:
        built = up_to_date(out)
        if built is not None:
            print(f"bundle up to date: {out / NAME} ({built['archive']})")
            return built
    started = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    (out / "bundle.json").unlink(missing_ok=True)
    command = [
        sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
        "--distpath", str(out), "--workpath", str(WORK), str(SPEC),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    subprocess.run(command, cwd=ROOT, check=True, env=env)
    app = out / NAME
    if sys.platform.startswith("linux"):
        add_linux_files(app)
    mac_app = out / "War Suite.app"
    archive = pack(out, mac_app if mac_app.is_dir() else app)
    unpacked, packed = folder_size(app), archive.stat().st_size
    seconds = round(time.monotonic() - started, 1)
    record: dict[str, object] = {
        "version": version(),
        "platform": platform_tag(),
        "archive": archive.name,
        "unpacked_bytes": unpacked,
        "packed_bytes": packed,
        "build_seconds": seconds,
        "fingerprint": fingerprint(),
    }
    (out / "bundle.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    mb = 1024 * 1024
    print(
        f"built {app} ({unpacked / mb:.0f} MB) and {archive.name} ({packed / mb:.0f} MB) "
        f"in {seconds} s"
    )
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (dist)")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args(argv)
    try:
        build(args.out, force=args.force)
    except subprocess.CalledProcessError as exc:
        print(f"PyInstaller failed (exit {exc.returncode})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
