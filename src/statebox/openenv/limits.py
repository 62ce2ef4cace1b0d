"""What one OpenEnv server takes from its clients: at most `--max-sessions` sessions, and JSON objects only.

Past the cap a new `/ws` handshake is refused with 429: OpenEnv itself accepts the WebSocket and then
sends an error message before closing it; refusing the handshake gives the client an HTTP status it
can act on (and costs no session). Two handshakes racing for the last slot can both pass here;
OpenEnv's own check still refuses the second. A message that is not a JSON object is answered with
OpenEnv's own INVALID_JSON error here, before OpenEnv, which would end the session on it.
"""

from __future__ import annotations

import json
from typing import Any

from openenv.core import HTTPEnvServer
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

WS_PATH = "/ws"
INVALID_JSON = "INVALID_JSON"  # OpenEnv's WSErrorCode for a message it cannot parse


class SessionCap:
    """Refuses a WebSocket handshake with 429 while every session slot is taken."""

    def __init__(self, app: ASGIApp, server: HTTPEnvServer, idle_timeout_s: float) -> None:
        self.app, self.server, self.idle_timeout_s = app, server, idle_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        full = self.server.active_sessions >= self.server.max_concurrent_envs
        if scope["type"] != "websocket" or scope["path"] != WS_PATH or not full:
            await self.app(scope, receive, send)
            return
        message = (
            f"too many live sessions: {self.server.max_concurrent_envs} (the cap, --max-sessions); close the "
            f"sessions you are done with, or wait for idle ones to be closed after {self.idle_timeout_s:g} s "
            "(--idle-timeout)"
        )
        if "websocket.http.response" not in scope.get("extensions", {}):  # a server that cannot answer in HTTP
            await send({"type": "websocket.close", "code": 1013, "reason": message[:120]})
            return
        response = JSONResponse({"error": message}, status_code=429)
        await send({"type": "websocket.http.response.start", "status": 429, "headers": response.raw_headers})
        await send({"type": "websocket.http.response.body", "body": response.body})


class JsonObjectMessages:
    """Answers a `/ws` message that is not a JSON object with an error; passes on every other message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope["path"] != WS_PATH:
            await self.app(scope, receive, send)
            return

        async def objects_only() -> Message:
            while True:
                message = await receive()
                problem = _not_an_object(message)
                if problem is None:
                    return message
                error = {"type": "error", "data": {"message": problem, "code": INVALID_JSON}}
                await send({"type": "websocket.send", "text": json.dumps(error)})

        await self.app(scope, objects_only, send)


def _not_an_object(message: Message) -> str | None:
    """Why a received WebSocket message is not a JSON object, or None (also for every other event)."""
    if message["type"] != "websocket.receive":
        return None
    text = message.get("text")
    if text is None:
        return "binary messages are not understood: send each message as JSON text"
    try:
        parsed: Any = json.loads(text)
    except (ValueError, RecursionError) as e:  # RecursionError: nested deeper than Python's parser goes
        return f"Invalid JSON: {type(e).__name__}: {str(e)[:200]}"
    return None if isinstance(parsed, dict) else f"a message must be a JSON object, not {type(parsed).__name__}"
