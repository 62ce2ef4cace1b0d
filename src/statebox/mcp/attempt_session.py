"""How a `statebox serve --http` attempt ends: when the agent's MCP session closes.

Streamable HTTP gives an attempt a natural end: the server names a session (`Mcp-Session-Id`) when the
client initializes, and a client done with it sends `DELETE` (the official SDK does when its
`streamable_http_client` block exits). So the attempt ends when the last open session is deleted; the
verdict is written then, while the server still runs. After that every request is refused (410) with a
message saying why, so a client that reconnects learns the attempt is over instead of changing its end state.

The session-less era of MCP (protocol 2026-07-28: one self-contained POST per request) has no such end;
its requests are answered with the standard unsupported-version error naming the handshake versions,
which makes a client in `auto` mode fall back to the session handshake.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from mcp_types import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_HEADER = b"mcp-session-id"
VERSION_HEADER = b"mcp-protocol-version"

ENDED_MESSAGE = (
    "this attempt ended when its MCP session closed; its effects and verdict went to the operator. "
    "Each `statebox serve` serves one attempt: start another for a new one"
)


class EndsWithItsSession:
    """ASGI middleware that calls `end()` once, when the last MCP session opened through it is deleted."""

    def __init__(self, app: ASGIApp, end: Callable[[], Awaitable[None]]) -> None:
        """Wrap a stateful streamable HTTP app; `end` runs after the closing DELETE is answered."""
        self._app = app
        self._end = end
        self._open: set[str] = set()
        self._ended = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        version = headers.get(VERSION_HEADER, b"").decode("latin-1")
        if self._ended:
            await _json_error(send, 410, -32600, ENDED_MESSAGE)
            return
        if scope["method"] == "GET":  # the attempt never speaks first, so it offers no stream (the spec's 405)
            await _respond(send, 405, b"", [(b"allow", b"POST, DELETE")])
            return
        if version in MODERN_PROTOCOL_VERSIONS:
            await _json_error(send, 400, UNSUPPORTED_PROTOCOL_VERSION, _SESSIONLESS_MESSAGE,
                              {"supported": list(HANDSHAKE_PROTOCOL_VERSIONS), "requested": version})  # fmt: skip
            return
        status, named = await _answered(self._app, scope, receive, send)
        if named is not None and status is not None and status < 300:
            self._open.add(named)
        closing = headers.get(SESSION_HEADER, b"").decode("latin-1")
        if scope["method"] == "DELETE" and closing in self._open and status is not None and status < 300:
            self._open.discard(closing)
            if not self._open:
                self._ended = True
                await self._end()


_SESSIONLESS_MESSAGE = (
    "statebox serve delimits an attempt by its MCP session, which protocol 2026-07-28 does not have; "
    "use the initialize handshake"
)


async def _answered(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> tuple[int | None, str | None]:
    """Run `app` for one request: the status it answered and the session it named, if any."""
    status: int | None = None
    named: str | None = None

    async def watching(message: Message) -> None:
        nonlocal status, named
        if message["type"] == "http.response.start":
            status = message["status"]
            named = dict(message.get("headers", [])).get(SESSION_HEADER, b"").decode("latin-1") or None
        await send(message)

    await app(scope, receive, watching)
    return status, named


async def _json_error(send: Send, status: int, code: int, message: str, data: object = None) -> None:
    error: dict[str, object] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
    await _respond(send, status, body, [(b"content-type", b"application/json")])


async def _respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    length = (b"content-length", str(len(body)).encode())
    await send({"type": "http.response.start", "status": status, "headers": [*headers, length]})
    await send({"type": "http.response.body", "body": body})
