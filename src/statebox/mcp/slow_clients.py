"""A deadline on each request's head: a client that opens a connection and sends its request slowly
(slowloris) gets 408 and the connection closed after `read_timeout_s`; one that sends nothing is closed.

uvicorn has no such timeout (its keep-alive timeout stops as soon as any byte arrives), and an ASGI
app sees a request only once its head is complete, so this is done in uvicorn's HTTP/1.1 protocol
(h11): the one place statebox reaches into uvicorn's H11Protocol, checked when this module is imported.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from statebox.mcp.limits import json_error_bytes
from statebox.private_api import require

LINGER_S = 1.0  # how long a connection cut off with 408 still reads (and drops) what its client sends

# What the subclass below relies on in uvicorn's H11Protocol.
USED = ("connection_made", "connection_lost", "data_received", "handle_events", "on_response_complete",
        "handle_websocket_upgrade")
require(H11Protocol, USED, distribution="uvicorn", needed_by="statebox.mcp.slow_clients")


class _HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on every request head (set by `deadline_protocol`).

    The clock starts when the connection opens, and between keep-alive requests at the first byte of
    the next head (an idle keep-alive connection is uvicorn's to close, silently, as clients expect).
    """

    read_timeout_s = 10.0
    _deadline: asyncio.TimerHandle | None = None
    _head_begun = False  # whether any byte of the awaited head has arrived
    _cut = False  # answered 408: what the client still sends is dropped until the connection closes

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._cut:
            return
        if self.conn.their_state is h11.IDLE:
            self._head_begun = True
            if self._deadline is None:
                self._arm()
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a whole head arrived: the body has its own deadline
            self._disarm()

    def on_response_complete(self) -> None:
        self._disarm()
        super().on_response_complete()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.read_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        self._head_begun = False
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if not self._head_begun:  # nothing was asked: nothing to answer
            self.transport.close()
            return
        message = f"the request head did not arrive within {self.read_timeout_s:g} s (--read-timeout)"
        self.transport.write(json_error_bytes(408, "Request Timeout", message))
        # A lingering close: closed at once, a client still sending would be reset and could lose the 408.
        self._cut = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_S, self.transport.close)


def deadline_protocol(read_timeout_s: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol class with a head deadline of `read_timeout_s`, for `uvicorn.Config(http=...)`."""
    return type("HeadDeadlineProtocol", (_HeadDeadline,), {"read_timeout_s": read_timeout_s})
