"""The plain HTTP side of the server's port (next to the websocket upgrade).

`GET /healthz` answers `ok rooms=N connections=M` (a cluster process adds `store=ok
presence=ok`; 503 `degraded ...` while the store or the presence does not answer);
`GET /metrics` gives the Prometheus page; the web client's paths (`/`, `/r/CODE`,
`/assets/...`, `/art/...`) are the `web.WebFront` part's. An address already at its
connection cap is refused with 429 before a page or a handshake; any other path is 404.
HEAD is answered as GET without the body; any other method gets 405 (websockets 16 and
later hand every request to `process_request`, whatever its method).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from suite.net.server.connection import peer_address
from suite.net.server.metrics import Metrics
from suite.net.server.web import WebFront

log = logging.getLogger("suite.net")


class HttpFront:
    """Answers a request before any websocket handshake (`process_request`): None lets a
    websocket upgrade through."""

    def __init__(
        self,
        *,
        metrics: Metrics,
        counts: Callable[[], tuple[int, int]],
        health: Mapping[str, bool],
        admits: Callable[[str], bool],
        web: WebFront | None = None,
    ) -> None:
        self.metrics = metrics
        self._counts = counts
        self._health = health
        self._admits = admits
        self.web = web or WebFront()

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """The answer to a plain HTTP request, or None to let a websocket upgrade through."""
        method = getattr(request, "method", "GET")
        if method not in ("GET", "HEAD"):
            refusal = connection.respond(HTTPStatus.METHOD_NOT_ALLOWED, "use GET or HEAD\n")
            refusal.headers["Allow"] = "GET, HEAD"
            return refusal
        answer = self._get(connection, request)
        if method != "HEAD":
            return answer
        if answer is None:  # a HEAD is never a websocket handshake
            answer = connection.respond(HTTPStatus.BAD_REQUEST, "not a handshake\n")
        return Response(answer.status_code, answer.reason_phrase, answer.headers, b"")

    def _get(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            return self._healthz(connection)
        if request.path == "/metrics":
            headers = Headers([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")])
            return Response(HTTPStatus.OK, "OK", headers, self.metrics.render())
        address = peer_address(connection)
        if not self._admits(address):
            log.info("refused a request from %s: too many connections from there", address)
            self.metrics.refusals.labels("too_many_connections").inc()
            return Response(
                HTTPStatus.TOO_MANY_REQUESTS,
                "Too Many Requests",
                Headers(),
                b"too many connections from your address\n",
            )
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        page = self.web.answer(request)
        if page is not None:
            return page
        return Response(
            HTTPStatus.NOT_FOUND, "Not Found", Headers(), b"not found: try / or /healthz\n"
        )

    def _healthz(self, connection: ServerConnection) -> Response:
        rooms, connections = self._counts()
        body = f"rooms={rooms} connections={connections}"
        body += "".join(f" {k}={'ok' if v else 'down'}" for k, v in self._health.items())
        if all(self._health.values()):
            return connection.respond(HTTPStatus.OK, f"ok {body}\n")
        return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"degraded {body}\n")
