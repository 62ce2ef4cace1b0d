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


class SharedTemplate:
    """The template of one or more forked servers: started on first need, replaced once when found dead."""

    def __init__(self, target: ForkTarget, name: str) -> None:
        self.target = target
        self.name = name
        self.template: ForkServer | None = None
        self._lock = anyio.Lock()

    async def running(self) -> ForkServer:
        async with self._lock:
            if self.template is None:
                template = ForkServer(self.target, name=self.name)
                await template.__aenter__()
                self.template = template
            return self.template

    async def replace(self, dead: ForkServer) -> None:
        """Forget a dead template (unless another spawn already replaced it); the next need starts one."""
        async with self._lock:
            if self.template is dead:
                self.template = None
        await dead.aclose()

    async def aclose(self) -> None:
        """Stop the template; it kills the children it still has."""
        template, self.template = self.template, None
        if template is not None:
            await template.aclose()


class ForkStarter:
    """A child of the server's template per `spawn`; the template starts on first need, and may be
    shared with other servers of the same Python, environment and folder (`share`)."""

    def __init__(self, name: str, target: ForkTarget) -> None:
        self.name = name
        self.target = target
        self.shared = SharedTemplate(target, name)

    @property
    def template(self) -> ForkServer | None:
        return self.shared.template

    def share(self, shared: SharedTemplate) -> None:
        """Fork from `shared` (which imports this server's module too) instead of a template of its own."""
        if self.shared.template is not None:
            raise RuntimeError(f"tool server {self.name!r}: its own template already runs")
        if self.target.module not in shared.target.modules:
            raise ValueError(f"tool server {self.name!r}: the shared template does not import {self.target.module}")
        self.shared = shared

    async def prepare(self) -> None:
        """Start the template now (it pays the server's import) rather than at the first spawn."""
        await self.shared.running()

    async def spawn(self, stderr: IO[bytes]) -> ServerProcess:
        template = await self.shared.running()
        try:
            return await template.fork(stderr, self.target.module, self.target.args)
        except ToolServerError:
            if template.alive:
                raise
        # The template died (killed, out of memory): start a new one, once.
        await self.shared.replace(template)
        return await (await self.shared.running()).fork(stderr, self.target.module, self.target.args)

    async def aclose(self) -> None:
        """Stop the template (shared ones too: the launcher closes all its servers at once)."""
        await self.shared.aclose()
