"""Build the web client into the package data folder `suite/net/server/webroot/`.

Bundles web/src/main.ts with esbuild (minified, no source map) and web/src/style.css,
names both by a hash of their content (`app.<hash>.js`, `app.<hash>.css`: the server
caches them as immutable), and writes index.html from web/index.html pointing at them;
old bundles are removed. Needs `npm ci` in web/ first (the Makefile does both). The
built folder is not checked in: `make` builds it, `pip install .` ships what was built,
and a server without it answers `/` with a page that says so.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
OUT = ROOT / "suite" / "net" / "server" / "webroot"


def esbuild(entry: Path, *options: str) -> bytes:
    """esbuild's output for `entry` (a failure stops the build with esbuild's message)."""
    tool = WEB / "node_modules" / ".bin" / "esbuild"
    if not tool.is_file():
        raise SystemExit("esbuild is missing: run `npm ci` in web/ (make does)")
    done = subprocess.run(
        [str(tool), str(entry), "--minify", "--log-level=warning", *options],
        cwd=WEB,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr.decode("utf-8", "replace"))
    return done.stdout


def named(data: bytes, suffix: str) -> str:
    return f"app.{hashlib.sha256(data).hexdigest()[:16]}{suffix}"


def main() -> int:
    js = esbuild(WEB / "src" / "main.ts", "--bundle", "--format=esm", "--target=es2022")
    css = esbuild(WEB / "src" / "style.css", "--loader:.css=css")
    assets = OUT / "assets"
    if assets.exists():
        shutil.rmtree(assets)
    assets.mkdir(parents=True)
    js_name, css_name = named(js, ".js"), named(css, ".css")
    (assets / js_name).write_bytes(js)
    (assets / css_name).write_bytes(css)
    page = (WEB / "index.html").read_text(encoding="utf-8")
    page = page.replace("{{js}}", js_name).replace("{{css}}", css_name)
    (OUT / "index.html").write_text(page, encoding="utf-8")
    print(f"web client: {len(js)} bytes of script, {len(css)} of style in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
