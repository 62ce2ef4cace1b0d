"""What one OpenEnv server holds at most: past `--max-sessions`, a new `/ws` handshake is refused with 429.

OpenEnv itself accepts the WebSocket and then sends an error message before closing it; refusing the
handshake instead gives the client an HTTP status it can act on (and costs no session). Two handshakes
racing for the last slot can both pass here; OpenEnv's own check still refuses the second.
"""

from __future__ import annotations

from openenv.core import HTTPEnvServer
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

WS_PATH = "/ws"


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
