"""The two ways a server process comes to be: a plain start, or a fork of a template.

A `Starter` makes processes of one server (`spawn`); what it makes is a `ServerProcess`, the
same to the launcher whichever way it was made. The fork starter owns the server's template
and replaces it, once, when it is found dead.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import IO, Protocol

import anyio

from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch.bridge import MessageStreams
from statebox.mcp.launch.forkserver import ForkServer, ForkTarget
from statebox.mcp.launch.processes import start_plain


class ServerProcess(Protocol):
    """One started server process, not yet (or no longer) talked to."""

    pid: int
    forked: bool

    def alive(self) -> bool: ...

    def kill(self) -> None: ...

    async def discard(self) -> None: ...

    def streams(self) -> AbstractAsyncContextManager[MessageStreams]: ...


class Starter(Protocol):
    """Makes fresh processes of one server."""

    async def prepare(self) -> None: ...

    async def spawn(self, stderr: IO[bytes]) -> ServerProcess: ...

    async def aclose(self) -> None: ...


class PlainStarter:
    """A new process per `spawn`: the command run as is."""

    def __init__(self, name: str, command: list[str], env: Mapping[str, str], cwd: str | None) -> None:
        self.name, self.command, self.env, self.cwd = name, command, env, cwd

    async def prepare(self) -> None:
        """Nothing to pay up front."""

    async def spawn(self, stderr: IO[bytes]) -> ServerProcess:
        return await start_plain(self.name, self.command, self.env, self.cwd, stderr)

    async def aclose(self) -> None:
        """Plain processes are ended by whoever holds them."""


class ForkStarter:
    """A child of the server's template per `spawn`; the template starts on first need."""

    def __init__(self, name: str, target: ForkTarget) -> None:
        self.name = name
        self.target = target
        self.template: ForkServer | None = None
        self._lock = anyio.Lock()

    async def prepare(self) -> None:
        """Start the template now (it pays the server's import) rather than at the first spawn."""
        await self._running_template()

    async def spawn(self, stderr: IO[bytes]) -> ServerProcess:
        template = await self._running_template()
        try:
            return await template.fork(stderr)
        except ToolServerError:
            if template.alive:
                raise
        # The template died (killed, out of memory): start a new one, once.
        async with self._lock:
            if self.template is template:  # not already replaced by another spawn
                self.template = None
        await template.aclose()
        return await (await self._running_template()).fork(stderr)

    async def aclose(self) -> None:
        """Stop the template; it kills the children it still has."""
        template, self.template = self.template, None
        if template is not None:
            await template.aclose()

    async def _running_template(self) -> ForkServer:
        async with self._lock:
            if self.template is None:
                template = ForkServer(self.target, name=self.name)
                await template.__aenter__()
                self.template = template
            return self.template
