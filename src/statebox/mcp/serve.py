"""Serving one attempt as an MCP server, over stdio or streamable HTTP (`statebox serve`).

The attempt ends when the agent's MCP connection does: over stdio when stdin closes, over HTTP
when the agent's MCP session is closed (DELETE; see attempt_session.py), and either way when the
server gets SIGINT or SIGTERM first. Then `on_end(attempt)` runs, once, so the operator can collect
effects and verdict, and the attempt is closed. Nothing about the ending is sent to the agent.
"""

from __future__ import annotations

import inspect
import os
import signal
from collections.abc import Callable

import anyio
from mcp.server.stdio import stdio_server

from statebox.mcp.attempt_session import EndsWithItsSession
from statebox.mcp.hosted import HostedAttempt, OnEnd
from statebox.mcp.http_serving import bind_socket, serve_socket_until_signalled, watching_signals
from statebox.mcp.server import build_server

MCP_PATH = "/mcp"


async def serve_stdio(attempt: HostedAttempt, on_end: OnEnd | None = None) -> None:
    """Serve `attempt` on this process's stdin/stdout until stdin closes or a signal arrives."""
    ending = _Ending(attempt, on_end)
    server = build_server(attempt)
    try:
        async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as tg:
            tg.start_soon(_end_on_signal, ending)
            await server.run(read_stream, write_stream, server.create_initialization_options())
            tg.cancel_scope.cancel()
    finally:
        await ending.run()


async def serve_http(
    attempt: HostedAttempt,
    host: str = "127.0.0.1",
    port: int = 8000,
    on_end: OnEnd | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve `attempt` over streamable HTTP at `http://HOST:PORT/mcp` until a signal.

    The attempt ends (`on_end` runs) when the agent's MCP session closes, or at the signal if it is
    still open; after its end the server answers every request 410 until it is stopped.
    `on_ready` gets the endpoint URL once it accepts connections (port 0 picks a free port).
    Raises CannotListenError, before the attempt is served or ended, when the address cannot be bound.
    """
    sock = bind_socket(host, port)
    ending = _Ending(attempt, on_end)
    mcp_app = build_server(attempt).streamable_http_app(
        streamable_http_path=MCP_PATH, json_response=True, host=host, session_idle_timeout=None
    )
    app = EndsWithItsSession(mcp_app, ending.run)

    def announce(url: str) -> None:
        if on_ready is not None:
            on_ready(url + MCP_PATH)

    try:
        await serve_socket_until_signalled(app, sock, on_ready=announce)
    finally:
        await ending.run()


class _Ending:
    """The end of a served attempt, which runs once however the serving stops."""

    def __init__(self, attempt: HostedAttempt, on_end: OnEnd | None) -> None:
        """Remember what to do; `run()` does it (shielded from cancellation) the first time."""
        self._attempt = attempt
        self._on_end = on_end
        self._done = False

    async def run(self) -> None:
        if self._done:
            return
        self._done = True
        with anyio.CancelScope(shield=True):
            try:
                if self._on_end is not None:
                    outcome = self._on_end(self._attempt)
                    if inspect.isawaitable(outcome):
                        await outcome
            finally:
                await self._attempt.close()


async def _end_on_signal(ending: _Ending) -> None:
    async with watching_signals() as signals:
        async for signum in signals:
            await ending.run()
            # The SDK reads stdin in a worker thread that only a line or EOF wakes, so an
            # orderly unwind could hang; with the results written, die by the signal instead.
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
