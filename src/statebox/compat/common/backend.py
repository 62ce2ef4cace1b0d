"""An attempt whose state lives in tool-server processes: the base of both benchmarks' backends.

The servers are started for the conversation (`tools()`) and stay up after it, so that `outcome()` can ask
them for their effects; `aclose()` closes every session and kills and reaps every process, on errors and
cancellation too. A subclass says how its servers start and make the agent's surface (`serve`), and which
of its tools write (`tool_writes`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

from statebox.mcp.launch import ToolServer, ToolServerLauncher
from statebox.runner.backend import AttemptBackend
from statebox.tools import ToolSurface


class ServersBackend(AttemptBackend):
    """The state of one attempt lives in its server processes until `aclose()`."""

    def __init__(self, policy: str) -> None:
        self.policy = policy
        self._stack = AsyncExitStack()  # the attempt's server connections
        self._changed: bool | None = None  # known once the effects are in (set by `outcome()`)

    def tools(self) -> AbstractAsyncContextManager[ToolSurface]:
        return self._tools()

    @asynccontextmanager
    async def _tools(self) -> AsyncIterator[ToolSurface]:
        # The servers stay up after this block: outcome() reads their effects; aclose() ends them.
        yield await self.serve()

    @abstractmethod
    async def serve(self) -> ToolSurface:
        """Start the attempt's servers (those not started yet) and give the surface the agent talks to."""

    async def connect(self, launcher: ToolServerLauncher, name: str) -> ToolServer:
        """A fresh process of the server `name`, connected until `aclose()`."""
        return await self._stack.enter_async_context(launcher.connect(name))

    def writes(self, tool: str) -> bool:
        """An attempt that changed nothing wrote nothing; otherwise the tool writes unless known to only read."""
        return self._changed is not False and self.tool_writes(tool)

    @abstractmethod
    def tool_writes(self, tool: str) -> bool:
        """Whether `tool` may change the servers' state."""

    async def aclose(self) -> None:
        await self._stack.aclose()  # closes the sessions, kills and reaps every process
