"""The proxy's HTTP app: an operator API over attempts, and each attempt's own MCP endpoint.

Operator API (JSON; needs `Authorization: Bearer T` when a token is set):
`POST /attempts`, `GET /attempts/{id}`, `GET /attempts/{id}/effects`,
`DELETE /attempts/{id}`, plus `GET /health` and `GET /ready` for probes.
MCP (streamable HTTP, stateless): `/attempts/{id}/mcp`, where the id is the capability.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from statebox.mcp.errors import ToolServerError
from statebox.mcp.hosted import AttemptFactory, attempt_result
from statebox.mcp.limits import CreationCap
from statebox.mcp.proxy_auth import is_loopback, unauthorized
from statebox.mcp.proxy_registry import AttemptRegistry
from statebox.tools.quoting import without_long_values

DEFAULT_IDLE_TIMEOUT_S = 900.0
DEFAULT_MAX_ATTEMPTS = 256  # live at once; each holds a session (or, for some suites, tool-server processes)
NOT_FOUND = "no such attempt: the id is unknown, or the attempt was destroyed or reclaimed"


class ProxyState:
    """Everything one proxy holds; the Starlette app reaches it as `app.state.proxy`."""

    def __init__(
        self,
        factory: AttemptFactory,
        token: str | None,
        idle_timeout_s: float,
        mcp_security: TransportSecuritySettings | None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    ) -> None:
        self.factory = factory
        self.token = token
        self.registry = AttemptRegistry(idle_timeout_s)
        advice = (f"destroy the attempts you are done with (DELETE /attempts/{{id}}), or wait for idle ones to be "
                  f"reclaimed after {idle_timeout_s:g} s (--idle-timeout); the cap is --max-attempts")
        self.cap = CreationCap(max_attempts, lambda: len(self.registry), "attempts", advice)
        self.mcp_security = mcp_security
        self.ready = False


def create_proxy_app(
    factory: AttemptFactory,
    *,
    token: str | None = None,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    host: str = "127.0.0.1",
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> Starlette:
    """The proxy as an ASGI app; `host` is where it will listen (for Host-header checks)."""
    state = ProxyState(factory, token, idle_timeout_s, _mcp_security(host), max_attempts)
    api = _OperatorApi(state)
    routes = [
        Route("/health", api.health, methods=["GET"]),
        Route("/ready", api.ready, methods=["GET"]),
        Route("/attempts", api.create, methods=["POST"]),
        Route("/attempts/{attempt_id}", api.status, methods=["GET"]),
        Route("/attempts/{attempt_id}", api.destroy, methods=["DELETE"]),
        Route("/attempts/{attempt_id}/effects", api.effects, methods=["GET"]),
        Route("/attempts/{attempt_id}/mcp", _AttemptMcpEndpoint(state)),
    ]
    app = Starlette(routes=routes, lifespan=lambda app: _lifespan(state))
    app.state.proxy = state
    return app


@asynccontextmanager
async def _lifespan(state: ProxyState) -> AsyncIterator[None]:
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(state.registry.reclaim_forever)
            state.ready = True
            yield
            tg.cancel_scope.cancel()
    finally:
        state.ready = False
        with anyio.CancelScope(shield=True):
            await state.registry.close_all()
            closing = getattr(state.factory, "aclose", None)  # a factory holding suites (tool-server templates)
            if closing is not None:
                await closing()


class _OperatorApi:
    """Request handlers of the operator API."""

    def __init__(self, state: ProxyState) -> None:
        self._state = state

    async def health(self, request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def ready(self, request: Request) -> Response:
        if not self._state.ready:
            return _error("not serving yet", 503)
        return JSONResponse({"status": "ready", "attempts": len(self._state.registry)})

    async def create(self, request: Request) -> Response:
        if denied := unauthorized(request, self._state.token):
            return denied
        fields = await _creation_fields(request)
        if isinstance(fields, Response):
            return fields
        if refused := self._state.cap.refused():
            return refused
        try:
            with self._state.cap.making():
                attempt = await self._state.factory(*fields)
        except LookupError as exc:
            return _error(without_long_values(_message(exc), list(fields)), 404)
        except ValueError as exc:
            return _error(without_long_values(_message(exc), list(fields)), 400)
        except ToolServerError as exc:  # the attempt's tool servers did not start: not the operator's doing
            return _error(f"the attempt's tool servers failed to start: {exc}", 502)
        attempt_id = self._state.registry.add(attempt)
        base = str(request.base_url).rstrip("/")
        body = {
            "id": attempt_id,
            "mcp_url": f"{base}/attempts/{attempt_id}/mcp",
            "opening_message": attempt.opening_message,
            "policy": attempt.policy,
        }
        return JSONResponse(body, status_code=201)

    async def status(self, request: Request) -> Response:
        if denied := unauthorized(request, self._state.token):
            return denied
        attempt_id = request.path_params["attempt_id"]
        entry = self._state.registry.get(attempt_id)
        if entry is None:
            return _error(NOT_FOUND, 404)
        return JSONResponse({**entry.attempt.status(), "id": attempt_id})

    async def effects(self, request: Request) -> Response:
        if denied := unauthorized(request, self._state.token):
            return denied
        entry = self._state.registry.get(request.path_params["attempt_id"])
        if entry is None:
            return _error(NOT_FOUND, 404)
        async with self._state.registry.using(entry):
            return JSONResponse(await attempt_result(entry.attempt))

    async def destroy(self, request: Request) -> Response:
        if denied := unauthorized(request, self._state.token):
            return denied
        if not await self._state.registry.destroy(request.path_params["attempt_id"]):
            return _error(NOT_FOUND, 404)
        return Response(status_code=204)


class _AttemptMcpEndpoint:
    """ASGI endpoint serving each attempt's own MCP server (stateless streamable HTTP)."""

    def __init__(self, state: ProxyState) -> None:
        self._state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        registry = self._state.registry
        entry = registry.get(scope["path_params"]["attempt_id"])
        if entry is None:
            await _jsonrpc_not_found()(scope, receive, send)
            return
        async with registry.using(entry):
            # A manager per request costs little and keeps no task alive between requests,
            # so an idle attempt costs only its record; the server object itself is reused.
            manager = StreamableHTTPSessionManager(
                app=entry.server,
                stateless=True,
                json_response=True,
                security_settings=self._state.mcp_security,
            )
            async with manager.run():
                await manager.handle_request(scope, receive, send)


async def _creation_fields(request: Request) -> tuple[str, str, str | None] | Response:
    """`(suite, task, user)` from a creation request, or the 400 saying what is wrong."""
    try:
        body: Any = await request.json()
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python's parser goes
        return _error('body must be JSON like {"suite": "retail", "task": "...", "user": null}', 400)
    if not isinstance(body, dict):
        return _error("body must be a JSON object", 400)
    for name in ("suite", "task"):
        if name not in body:
            return _error(f"missing field '{name}'", 400)
        if not isinstance(body[name], str):
            return _error(f"field '{name}' must be a string", 400)
    user = body.get("user")
    if user is not None and not isinstance(user, str):
        return _error("field 'user' must be a string or null", 400)
    return body["suite"], body["task"], user


def _mcp_security(host: str) -> TransportSecuritySettings | None:
    """Host/Origin checks against DNS rebinding when listening on loopback only."""
    if not is_loopback(host):
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )


def _jsonrpc_not_found() -> Response:
    # JSON-RPC shaped so MCP clients show the message instead of a bare "Not Found".
    error = {"code": types.INVALID_REQUEST, "message": NOT_FOUND}
    return JSONResponse({"jsonrpc": "2.0", "id": None, "error": error}, status_code=404)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _message(exc: Exception) -> str:
    # str(KeyError("x")) is "'x'": prefer the message as given.
    return str(exc.args[0]) if exc.args else type(exc).__name__
