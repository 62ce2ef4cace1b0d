"""One attempt's server: the started process, and the guarded MCP session on it.

Every request to the server goes through `ToolServer.guard`: no answer within the deadline,
or a closed connection, marks the server failed, kills it at once (a hung process is not
waited for) and raises `ToolServerError` with the end of its stderr: an infrastructure error,
never the agent's fault. A JSON-RPC error the live server answers with is left to the caller.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import IO, Any, TypeVar

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch.bridge import MessageStreams
from statebox.mcp.launch.processes import stderr_tail
from statebox.mcp.launch.session import ListedSession

_CLOSED = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
T = TypeVar("T")


@dataclass(frozen=True)
class StartedServer:
    """One started server process of one attempt, with MCP message streams to it."""

    name: str
    pid: int
    forked: bool
    streams: MessageStreams
    stderr: IO[bytes]  # where the process writes its stderr (closed when the attempt ends)
    kill: Callable[[], None]  # kill its process group now


class ToolServer:
    """An initialised MCP session with one started server; a dead or hung server is a `ToolServerError`."""

    def __init__(self, started: StartedServer, session: ListedSession, call_timeout_s: float) -> None:
        self.started = started
        self.session = session
        self.call_timeout_s = call_timeout_s
        self.failure: str | None = None

    @property
    def name(self) -> str:
        return self.started.name

    @property
    def pid(self) -> int:
        return self.started.pid

    @property
    def forked(self) -> bool:
        return self.started.forked

    async def guard(self, what: str, call: Callable[[], Awaitable[T]], timeout_s: float | None = None) -> T:
        """Await `call()` with a deadline (the call timeout unless given); a closed connection or
        no answer in time marks the server failed."""
        if self.failure is not None:
            raise ToolServerError(self.failure)
        limit = timeout_s if timeout_s is not None else self.call_timeout_s
        try:
            with anyio.fail_after(limit):
                return await call()
        except TimeoutError:
            raise self._fail(f"did not answer {what} within {limit:g} s") from None
        except MCPError as exc:
            if exc.code == types.CONNECTION_CLOSED:
                raise self._fail(f"exited during {what}") from exc
            raise
        except _CLOSED as exc:
            raise self._fail(f"exited during {what}") from exc

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return await self.guard(repr(tool), partial(self.session.call_tool, tool, arguments))

    def know_tools(self, tools: list[types.Tool]) -> None:
        """The tools an earlier process of this server listed: results of those that declare no
        output schema are then not revalidated (see `ListedSession`)."""
        self.session.know_tools(tools)

    async def list_tools(self) -> list[types.Tool]:
        """Every tool the server lists (all pages); the session then knows them."""
        tools: list[types.Tool] = []
        cursor: str | None = None
        while True:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await self.guard("tools/list", partial(self.session.list_tools, params=params))
            tools += page.tools
            cursor = page.next_cursor
            if not cursor:
                self.know_tools(tools)
                return tools

    def _fail(self, what: str) -> ToolServerError:
        self.started.kill()
        tail = stderr_tail(self.started.stderr)
        ending = f"; its stderr ends with:\n{tail}" if tail else ""
        self.failure = f"tool server {self.name!r} (pid {self.pid}) {what}{ending}"
        return ToolServerError(self.failure)
