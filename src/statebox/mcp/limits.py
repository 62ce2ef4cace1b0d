"""What a served surface accepts from clients it does not control: bounded bodies, bounded waits, capped counts.

`ServingLimits` is given to every HTTP server statebox runs (http_serving.py): request bodies over
`max_body_bytes` are refused with 413 (also WebSocket messages, by the server's own cap), a request
whose head or body does not arrive within `read_timeout_s` gets 408 and its connection is closed
(slow_clients.py does the head). `CreationCap` caps what a server holds alive (429 past it), and
`IdleWebSockets` closes a WebSocket whose client has gone quiet.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_MAX_BODY_BYTES = 1_048_576  # a tool call's JSON is a few KB; 1 MiB leaves room for large arguments
DEFAULT_READ_TIMEOUT_S = 10.0  # a request's head, then its body, each within this on loopback or a LAN
JSONRPC_INVALID_REQUEST = -32600


@dataclass(frozen=True)
class ServingLimits:
    """How much of a request a server reads, and how long it waits for it."""

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    read_timeout_s: float = DEFAULT_READ_TIMEOUT_S

    def __post_init__(self) -> None:
        if self.max_body_bytes < 1 or self.read_timeout_s <= 0:
            raise ValueError(f"limits must be positive: {self}")


def refusal(scope: Scope, status: int, message: str) -> JSONResponse:
    """A refusal the client can read: JSON-RPC shaped on an MCP endpoint, else `{"error": ...}`.

    The connection is closed after it: what is left of the request is not read.
    """
    path = str(scope.get("path", ""))
    body: dict[str, Any] = {"error": message}
    if path.endswith("/mcp"):
        body = {"jsonrpc": "2.0", "id": None, "error": {"code": JSONRPC_INVALID_REQUEST, "message": message}}
    return JSONResponse(body, status_code=status, headers={"connection": "close"})


class BodyLimit:
    """Reads each HTTP request's body first, refusing it over the size cap (413) or when too slow (408)."""

    LINGER_FACTOR = 16  # after a 413, up to this many times the cap is read and dropped before closing

    def __init__(self, app: ASGIApp, limits: ServingLimits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = await self._read(scope, receive)
        if isinstance(body, bytes):
            await self.app(scope, _replaying(body, receive), send)
        elif body == 413:
            await refusal(scope, 413, f"request body over {self.limits.max_body_bytes} bytes (--max-body-bytes)")(
                scope, receive, send)
        elif body == 408:
            slow = f"the request body did not arrive within {self.limits.read_timeout_s:g} s (--read-timeout)"
            await refusal(scope, 408, slow)(scope, receive, send)

    async def _read(self, scope: Scope, receive: Receive) -> bytes | int:
        """The whole body, or the status refusing it: 413 over the cap, 408 too slow, 499 the client left."""
        cap = self.limits.max_body_bytes
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        over = declared.isdigit() and int(declared) > cap
        body = bytearray()
        with anyio.move_on_after(self.limits.read_timeout_s) as waited:
            while not over:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return 499
                body += message.get("body", b"")
                over = len(body) > cap
                if not over and not message.get("more_body", False):
                    return bytes(body)
        if over:
            await self._drop_the_rest(receive)
            return 413
        return 408 if waited.cancelled_caught else 499

    async def _drop_the_rest(self, receive: Receive) -> None:
        """Read what is left of a refused body, within bounds: a connection closed with unread data is
        reset, and the client could lose the 413 with it."""
        dropped = 0
        with anyio.move_on_after(self.limits.read_timeout_s):
            while dropped < self.LINGER_FACTOR * self.limits.max_body_bytes:
                message = await receive()
                if message["type"] == "http.disconnect" or not message.get("more_body", False):
                    return
                dropped += len(message.get("body", b""))


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then whatever the client sends next (its disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


class CreationCap:
    """At most `limit` live things (attempts, sessions), counting those being made now; 429 past it."""

    def __init__(self, limit: int, live: Callable[[], int], what: str, advice: str) -> None:
        if limit < 1:
            raise ValueError(f"a cap on live {what} must be at least 1, not {limit}")
        self.limit, self._live, self._what, self._advice = limit, live, what, advice
        self._making = 0

    def refused(self) -> JSONResponse | None:
        """The 429 to answer when no more may be made now, else None."""
        if self._live() + self._making < self.limit:
            return None
        message = f"too many live {self._what}: {self.limit} (the cap); {self._advice}"
        return JSONResponse({"error": message}, status_code=429)

    @contextmanager
    def making(self) -> Iterator[None]:
        """Count one being made for the block, so that concurrent creations cannot pass the cap together."""
        self._making += 1
        try:
            yield
        finally:
            self._making -= 1


class IdleWebSockets:
    """Ends a WebSocket whose client sent nothing for `idle_s`: the app sees the client disconnect.

    A client that went away without closing (or never spoke) would otherwise hold its connection,
    and whatever the app keeps per connection, for as long as the operating system keeps the socket.
    """

    def __init__(self, app: ASGIApp, idle_s: float) -> None:
        self.app, self.idle_s = app, idle_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def receive_or_give_up() -> Message:
            with anyio.move_on_after(self.idle_s):
                return await receive()
            with contextlib.suppress(RuntimeError, OSError):  # the connection may be closing already
                await send({"type": "websocket.close", "code": 1001, "reason": f"idle for {self.idle_s:g} s"})
            return {"type": "websocket.disconnect", "code": 1001}

        await self.app(scope, receive_or_give_up, send)


def json_error_bytes(status: int, phrase: str, message: str) -> bytes:
    """A whole HTTP/1.1 response refusing a request, written before the request's head is complete."""
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body
