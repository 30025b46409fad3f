"""The web client on the server's port: the page, its assets and the maps' artwork.

`WebFront` is one part of the plain HTTP side (`http.HttpFront` asks it first); it
answers these paths and nothing else (None lets the request go on):

- `/`, `/r/CODE` and `/r/CODE/watch`: the page (`index.html`; a room's link opens the
  room, `/watch` watches it), revalidated on every load (`no-cache` with an ETag);
- `/assets/NAME`: the built bundle, whose names carry a hash of their content, so they
  are cached for a year as immutable;
- `/art/SHA256.EXT`: a Domination map's picture, published by `publish` under the hash
  of its bytes, and its index image as the server made it (`publish_bytes`, kept in
  memory); the `board` message names them; immutable too;
- `/pack/SHA256.EXT`: what a browser draws and plays a Tactics battle with (its JSON
  document, PNG tiles and skins, WAV sounds), made from the room's pack by
  `tactics_art.ArtBook` under the hash of their bytes (`pack_files` looks them up);
  immutable too.

Every answer carries a strict Content-Security-Policy (scripts, styles, images and
connections from this origin only: no inline script, no other host) and `nosniff`.
Text files over `GZIP_FROM` bytes are sent gzipped to a client that accepts it; the
compressed bytes are made at the first request and kept. The files are the package data
folder `suite/net/server/webroot/` that `make` builds (tools/build_web.py) and `pip
install .` ships; when it was not built, `/` says so in a plain page.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

WEBROOT = Path(__file__).resolve().parent / "webroot"
"""Where the build puts the page and its assets (package data)."""
GZIP_FROM = 1024
"""Smaller bodies are sent as they are (compressing them does not pay)."""
PACK_FILES_KEPT = 512
"""Tactics art files kept ready to serve (see `WebFront._forget_packs`)."""
MAX_ART_BYTES = 32 * 1024 * 1024
"""A map picture larger than this is not published (the board is drawn without it)."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".bmp": "image/bmp",
    ".wav": "audio/wav",
    ".ico": "image/x-icon",
    ".map": "application/json",
}
COMPRESSIBLE = {".html", ".js", ".css", ".json", ".svg", ".map"}
_ROOM_LINK = re.compile(r"/r/[A-Za-z0-9]{1,16}(/watch)?/?")
_ASSET = re.compile(r"/assets/([A-Za-z0-9][A-Za-z0-9._-]{0,127})")
_ART = re.compile(r"/art/([0-9a-f]{64}\.[a-z]{3,4})")
_PACK = re.compile(r"/pack/([0-9a-f]{64}\.(png|wav|json))")
NOT_BUILT = (
    b"<!doctype html><meta charset=utf-8><title>warsuite</title>"
    b"<h1>The web client was not built</h1>"
    b"<p>This server runs, but its web page was not built: run <code>make</code> "
    b"(it needs Node.js and npm) in the project's folder, then start the server again. "
    b"The suite's desktop client can join this server meanwhile.</p>\n"
)


@dataclass(frozen=True)
class _File:
    body: bytes
    content_type: str
    etag: str
    immutable: bool
    compressible: bool


class WebFront:
    """Serves the web client from `root` (see the module docstring)."""

    def __init__(self, root: Path = WEBROOT) -> None:
        self.root = root
        self._files: dict[str, _File] = {}
        self._gzipped: dict[str, bytes] = {}
        self._art: dict[str, Path] = {}
        self._published: dict[Path, str | None] = {}
        self.pack_files: Callable[[str], bytes | None] = lambda name: None
        """The bytes of `/pack/NAME` (set by the server: `tactics_art.ArtBook.file`)."""

    @property
    def built(self) -> bool:
        """Whether the page was built (its index.html is there)."""
        return (self.root / "index.html").is_file()

    def answer(self, request: Request) -> Response | None:
        """The response to a GET of one of this part's paths (None: not one of them).
        A HEAD is answered by `http.HttpFront` from this GET answer without its body."""
        path = request.path.split("?", 1)[0]
        if path in ("/", "/index.html") or _ROOM_LINK.fullmatch(path):
            if not self.built:
                return _response(HTTPStatus.OK, NOT_BUILT, TYPES[".html"], "no-store")
            return self._serve("index.html", self.root / "index.html", request)
        match = _ASSET.fullmatch(path)
        if match is not None:
            name = match.group(1)
            return self._serve(f"assets/{name}", self.root / "assets" / name, request)
        match = _ART.fullmatch(path)
        if match is not None and match.group(1) in self._art:
            name = match.group(1)
            return self._serve(f"art/{name}", self._art[name], request)
        match = _PACK.fullmatch(path)
        if match is not None:
            return self._serve_pack(match.group(1), request)
        if path.startswith(("/assets/", "/art/", "/pack/")):
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        return None

    def publish(self, picture: Path) -> str | None:
        """The URL of `picture` (a map's artwork) under the hash of its bytes, served from
        now on; None when it is not a readable image of a known kind within
        `MAX_ART_BYTES`. The same file is hashed once."""
        if picture in self._published:
            return self._published[picture]
        url = None
        suffix = picture.suffix.lower()
        if suffix in TYPES and TYPES[suffix].startswith("image/") and suffix != ".svg":
            try:
                size = picture.stat().st_size
                data = picture.read_bytes() if size <= MAX_ART_BYTES else None
            except OSError:
                data = None
            if data:
                name = f"{hashlib.sha256(data).hexdigest()}{suffix}"
                self._art[name] = picture
                url = f"/art/{name}"
        self._published[picture] = url
        return url

    def _serve_pack(self, name: str, request: Request) -> Response:
        """`/pack/NAME`: a file of a Tactics battle's art, immutable (its name is the hash
        of its bytes); 404 once no kept battle has it."""
        key = f"pack/{name}"
        if key not in self._files:
            body = self.pack_files(name)
            if body is None:
                return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
            suffix = "." + name.rsplit(".", 1)[1]
            self._files[key] = _File(
                body=body,
                content_type=TYPES[suffix],
                etag='"' + name[:32] + '"',
                immutable=True,
                compressible=suffix in COMPRESSIBLE and len(body) >= GZIP_FROM,
            )
            self._forget_packs()
        return self._serve(key, Path(name), request)

    def _forget_packs(self) -> None:
        """Keep at most `PACK_FILES_KEPT` served pack files (the oldest go first; the art
        book still has them and they are loaded again when asked for)."""
        kept = [k for k in self._files if k.startswith("pack/")]
        for key in kept[: max(0, len(kept) - PACK_FILES_KEPT)]:
            del self._files[key]
            self._gzipped.pop(key, None)

    def publish_bytes(self, data: bytes, suffix: str) -> str:
        """The URL of `data` (an image the server made: a map's index image) under the
        hash of its bytes, served from memory from now on."""
        name = f"{hashlib.sha256(data).hexdigest()}{suffix}"
        key = f"art/{name}"
        if key not in self._files:
            self._files[key] = _File(
                body=data,
                content_type=TYPES.get(suffix, "application/octet-stream"),
                etag='"' + hashlib.sha256(data).hexdigest()[:32] + '"',
                immutable=True,
                compressible=False,
            )
            self._art[name] = Path(name)
        return f"/art/{name}"

    def _load(self, key: str, path: Path) -> _File | None:
        cached = self._files.get(key)
        if cached is not None:
            return cached
        try:
            if not path.is_file():
                return None
            body = path.read_bytes()
        except OSError:
            return None
        suffix = path.suffix.lower()
        loaded = _File(
            body=body,
            content_type=TYPES.get(suffix, "application/octet-stream"),
            etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
            immutable=key != "index.html",
            compressible=suffix in COMPRESSIBLE and len(body) >= GZIP_FROM,
        )
        self._files[key] = loaded
        return loaded

    def _serve(self, key: str, path: Path, request: Request) -> Response:
        found = self._load(key, path)
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        cache = IMMUTABLE if found.immutable else "no-cache"
        extra = [("ETag", found.etag)]
        if found.compressible:
            extra.append(("Vary", "Accept-Encoding"))
        if request.headers.get("If-None-Match", "") == found.etag:
            return _response(HTTPStatus.NOT_MODIFIED, b"", found.content_type, cache, extra)
        body = found.body
        if found.compressible and "gzip" in request.headers.get("Accept-Encoding", ""):
            packed = self._gzipped.get(key)
            if packed is None:
                packed = gzip.compress(found.body, compresslevel=9, mtime=0)
                self._gzipped[key] = packed
            if len(packed) < len(body):
                body = packed
                extra.append(("Content-Encoding", "gzip"))
        return _response(HTTPStatus.OK, body, found.content_type, cache, extra)


def security_headers() -> list[tuple[str, str]]:
    """The headers every answer of the web part carries."""
    return [
        ("Content-Security-Policy", CSP),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ]


def _response(
    status: HTTPStatus,
    body: bytes,
    content_type: str,
    cache: str = "no-store",
    extra: list[tuple[str, str]] | None = None,
) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", cache),
            *security_headers(),
            *(extra or []),
        ]
    )
    return Response(status.value, status.phrase, headers, body)
