"""The OpenEnv server over a suite: `/ws` sessions (one episode each), `/health`, `/schema`, `/metadata`, `/ready`.

A token, when set, is needed on every route but the probes (`/health`, `/ready`), the WebSocket
included (`Authorization: Bearer`, or Basic credentials whose password is the token: what OpenEnv's
own clients send for a base URL `http://statebox:<token>@host:port`). The plain HTTP `/reset` and
`/step` of OpenEnv are stateless (a new environment per request), so multi-step episodes go over `/ws`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hmac
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from openenv.core import HTTPEnvServer
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from statebox.mcp.limits import IdleWebSockets
from statebox.openenv.environment import StateboxEnvironment
from statebox.openenv.limits import JsonObjectMessages, SessionCap
from statebox.openenv.models import StateboxAction, StateboxObservation
from statebox.openenv.source import EpisodeSource
from statebox.openenv.upstream import SessionSlots

OPEN_PATHS = frozenset({"/health", "/ready"})


def create_openenv_app(source: EpisodeSource, *, max_sessions: int = 64, token: str | None = None) -> FastAPI:
    """The app; `source.prepare()` must have run (tasks checked, references replayed).

    While it serves, the app holds what the suite's episodes share (`source.running()`) and
    closes every episode idle longer than `source.idle_timeout_s`, freeing its session slot.
    """
    server = HTTPEnvServer(
        functools.partial(StateboxEnvironment, source), StateboxAction, StateboxObservation,
        max_concurrent_envs=max_sessions,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with source.running():
            reaper = asyncio.create_task(source.reap_forever(), name="openenv idle reaper")
            try:
                yield
            finally:
                reaper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reaper

    app = FastAPI(title=f"statebox {source.suite.name} (OpenEnv)", docs_url=None, redoc_url=None, lifespan=lifespan)
    server.register_routes(app)
    # OpenEnv keeps its sessions in a private table; the WebSocket stays open and the client's next
    # step gets the `SessionExpired` answer from the environment it still holds.
    source.on_expired = SessionSlots(server).free

    @app.get("/ready")
    def ready() -> JSONResponse:
        report = readiness(source, server)
        return JSONResponse(report, status_code=200 if report["ready"] else 503)

    app.add_middleware(QuietDisconnects)
    app.add_middleware(JsonObjectMessages)
    # A client silent for twice the idle timeout (its episode expired at once) has gone: its socket is closed.
    app.add_middleware(IdleWebSockets, idle_s=2 * source.idle_timeout_s)
    app.add_middleware(SessionCap, server=server, idle_timeout_s=source.idle_timeout_s)
    if token is not None:
        app.add_middleware(BearerToken, token=token)
    return app


def readiness(source: EpisodeSource, server: HTTPEnvServer) -> dict[str, Any]:
    """Each component an episode depends on, and whether it is there."""
    prepared = source.prepared()
    components: dict[str, dict[str, Any]] = {
        "suite": {"ok": bool(source.task_ids), "name": source.suite.name, "split": source.split,
                  "tasks": len(source.task_ids)},
        "references": {"ok": prepared == len(source.task_ids), "replayed": prepared},
        "customer": {"ok": True, **source.customer_kind()},
        "sessions": {"ok": server.active_sessions < server.max_concurrent_envs, "active": server.active_sessions,
                     "max": server.max_concurrent_envs},
    }
    return {"ready": all(c["ok"] for c in components.values()), "components": components}


class QuietDisconnects:
    """A client that closed its WebSocket first is no server error.

    OpenEnv's `/ws` handler closes the socket once the session ends, and a client that has already
    closed it makes that raise `WebSocketDisconnect`; uncaught, every finished episode would log a traceback.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        with contextlib.suppress(WebSocketDisconnect):
            await self.app(scope, receive, send)


class BearerToken:
    """Refuses HTTP requests and WebSocket handshakes without the token (401; a server that cannot answer a
    handshake in HTTP closes it, 1008).

    The token is taken as `Authorization: Bearer <token>` (statebox's client) or as the password of HTTP
    Basic credentials, which OpenEnv's stock clients send for a base URL with user info
    (`http://statebox:<token>@host:port`: the WebSocket library and httpx both turn it into the header).
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"] in OPEN_PATHS or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        response = JSONResponse({"error": REFUSED}, status_code=401, headers={"WWW-Authenticate": "Bearer"})
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 401, "headers": response.raw_headers})
            await send({"type": "websocket.http.response.body", "body": response.body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": REFUSED[:120]})

    def _allowed(self, scope: Scope) -> bool:
        headers = dict(scope.get("headers") or [])
        presented = presented_token(headers.get(b"authorization", b"").decode("latin-1"))
        return presented is not None and hmac.compare_digest(presented.encode(), self.token.encode())


REFUSED = ("missing or invalid token: send 'Authorization: Bearer <token>', or put it in the base URL "
           "as http://statebox:<token>@host:port")


def presented_token(authorization: str) -> str | None:
    """The token in an Authorization header: a bearer token, or the password of Basic credentials."""
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() == "bearer":
        return value.strip()
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    _, colon, password = decoded.partition(":")  # clients percent-decode the URL's user info before encoding it
    return password if colon else None
