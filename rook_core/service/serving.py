"""Serving the app on uvicorn with bounds on connections (``rook serve``).

uvicorn's HTTP/1.1 protocol (h11) keeps a connection open while a client is
sending its request, however slowly it sends it. :class:`_BoundedH11` adds
two bounds:

* **A read timeout.** A request must arrive whole, headers and body, within
  ``limits.read_timeout`` seconds. The clock starts when the connection is
  opened, and starts again after each answer. The clock stops once the
  request is in, so a long solve is never cut.
* **Connections per client.** One address may hold at most
  ``limits.connections_per_client`` connections at once. A connection past
  that is closed as soon as it is opened.

Idle keep-alive connections close after ``limits.idle_timeout`` seconds.
Past ``limits.connections`` connections in all, uvicorn answers 503.
A client is the address it connects from: headers such as
``X-Forwarded-For`` are not read (uvicorn's ``proxy_headers`` is off), so no
client takes another address, or a fresh one, to escape its limits.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from ..errors import missing_extra
from .limits import Limits

try:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ModuleNotFoundError as e:
    raise missing_extra("rook_core.service.serving", "serve", e) from e

__all__ = ["serve"]


def _protocol(limits: Limits) -> type[H11Protocol]:
    per_client: Counter[str] = Counter()

    class _BoundedH11(H11Protocol):
        _read_timer: asyncio.TimerHandle | None = None
        _counted: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else ""
            if per_client[host] >= limits.connections_per_client:
                transport.close()
                return
            per_client[host] += 1
            self._counted = host
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted is not None:
                per_client[self._counted] -= 1
                if per_client[self._counted] <= 0:
                    del per_client[self._counted]
                self._counted = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
                self._disarm()                       # the request is in: no clock on the answer

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()                          # the next request has the same time to arrive

        def _arm(self) -> None:
            self._disarm()
            self._read_timer = self.loop.call_later(limits.read_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._read_timer is not None:
                self._read_timer.cancel()
                self._read_timer = None

        def _too_slow(self) -> None:
            self._read_timer = None
            if not self.transport.is_closing() and self.conn.their_state not in (h11.DONE, h11.MUST_CLOSE):
                self.transport.close()

    return _BoundedH11


def serve(app: Any, host: str, port: int, limits: Limits) -> None:
    """Run ``app`` on ``host:port`` until stopped, within ``limits``' connection bounds;
    once it listens, print its address (the port it got, for ``port`` 0) on stdout."""
    import uvicorn

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                for server in self.servers:
                    for sock in server.sockets:
                        at, bound = sock.getsockname()[:2]
                        name = f"[{at}]" if ":" in at else at
                        print(f"rook serve: listening on http://{name}:{bound}/ (the browser table; the API "
                              f"reader at /docs)", flush=True)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", http=_protocol(limits),
                            timeout_keep_alive=limits.idle_timeout, limit_concurrency=limits.connections,
                            proxy_headers=False)
    Announcing(config).run()
