"""The plain HTTP side of the server's port (next to the websocket upgrade).

`GET /healthz` answers `ok rooms=N connections=M` (a cluster process adds `store=ok
presence=ok`; 503 `degraded ...` while the store or the presence does not answer);
`GET /metrics` gives the Prometheus page. An upgrade from an address already at its
connection cap is refused with 429 before the handshake; any other request is 404.
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
    ) -> None:
        self.metrics = metrics
        self._counts = counts
        self._health = health
        self._admits = admits

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            return self._healthz(connection)
        if request.path == "/metrics":
            headers = Headers([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")])
            return Response(HTTPStatus.OK, "OK", headers, self.metrics.render())
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return Response(
                HTTPStatus.NOT_FOUND, "Not Found", Headers(), b"not found: try /healthz\n"
            )
        address = peer_address(connection)
        if not self._admits(address):
            log.info("refused a connection from %s: too many from that address", address)
            self.metrics.refusals.labels("too_many_connections").inc()
            return Response(
                HTTPStatus.TOO_MANY_REQUESTS,
                "Too Many Requests",
                Headers(),
                b"too many connections from your address\n",
            )
        return None

    def _healthz(self, connection: ServerConnection) -> Response:
        rooms, connections = self._counts()
        body = f"rooms={rooms} connections={connections}"
        body += "".join(f" {k}={'ok' if v else 'down'}" for k, v in self._health.items())
        if all(self._health.values()):
            return connection.respond(HTTPStatus.OK, f"ok {body}\n")
        return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"degraded {body}\n")
