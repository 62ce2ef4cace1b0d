"""The one launcher of external tool servers: a fresh server process per attempt, nothing left running.

`ToolServerLauncher(specs)` starts the servers of a campaign, each as its `LaunchSpec` says:
a plain process start, or a child forked from a template that imported the server once. It
keeps `ahead` processes per server started before demand (an attempt takes one that is
already up, and a replacement is started in the background). A process is never handed out
twice (servers keep global state). Every server runs in its own process group, in `cwd`, with
the SDK's minimal inherited environment plus its spec's `env` (then the `environment` hook),
and is killed and reaped when the attempt's block ends; `aclose()` ends the rest.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import IO

import anyio
from anyio.abc import TaskGroup
from mcp.client.stdio import get_default_environment

from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch.forkserver import ForkServer, ForkTarget
from statebox.mcp.launch.processes import stderr_file
from statebox.mcp.launch.server import StartedServer, ToolServer
from statebox.mcp.launch.session import ListedSession
from statebox.mcp.launch.spec import DEFAULT_CALL_TIMEOUT_S, DEFAULT_START_TIMEOUT_S, EnvHook, LaunchSpec
from statebox.mcp.launch.starters import ForkStarter, PlainStarter, ServerProcess, SharedTemplate, Starter


@dataclass(eq=False)
class _Server:
    """One server of the launcher: how to make its processes, and those made ahead."""

    spec: LaunchSpec
    starter: Starter
    ready: list[tuple[ServerProcess, IO[bytes]]] = field(default_factory=list)
    refilling: bool = False


class ToolServerLauncher:
    """Fresh tool-server processes for attempts; use as `async with ToolServerLauncher(...)`."""

    def __init__(
        self,
        specs: Iterable[LaunchSpec],
        *,
        cwd: str | Path | None = None,
        environment: EnvHook | None = None,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        start_timeout_s: float = DEFAULT_START_TIMEOUT_S,
    ) -> None:
        self.cwd = str(cwd) if cwd is not None else None
        self.environment_hook = environment
        self.call_timeout_s = call_timeout_s
        self.start_timeout_s = start_timeout_s
        self._servers = {spec.name: _Server(spec, self._starter(spec)) for spec in specs}
        self._refills: TaskGroup | None = None

    async def __aenter__(self) -> ToolServerLauncher:
        if any(server.spec.ahead > 0 for server in self._servers.values()):
            self._refills = anyio.create_task_group()
            await self._refills.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop starting ahead, end the processes started ahead, stop every template (each
        kills the children it still has)."""
        if self._refills is not None:
            # Not shielded: the task group's own scope must be the innermost one when it closes.
            self._refills.cancel_scope.cancel()
            await self._refills.__aexit__(None, None, None)
            self._refills = None
        with anyio.CancelScope(shield=True):
            for server in self._servers.values():
                ready, server.ready = server.ready, []
                for process, stderr in ready:
                    await _discard(process, stderr)
                await server.starter.aclose()

    def environment(self, spec: LaunchSpec) -> dict[str, str]:
        """The whole environment a server starts with."""
        env = get_default_environment() | spec.server.env
        return self.environment_hook(env) if self.environment_hook is not None else env

    def template(self, name: str) -> ForkServer | None:
        """The running template of a forked server, if one was started."""
        starter = self._server(name).starter
        return starter.template if isinstance(starter, ForkStarter) else None

    def ready_pids(self, name: str) -> list[int]:
        """Process ids of the processes of `name` started ahead and not yet handed out."""
        return [process.pid for process, _ in self._server(name).ready]

    async def prepare(self, *names: str) -> None:
        """Pay each server's start-up cost now (a template's import) and start processes ahead,
        rather than at the first attempt. Forked servers of the same Python, environment and
        folder share one template, which imports their modules one after the other (their common
        imports, such as the MCP framework, once); templates start side by side. Raises
        ToolServerError if a template cannot start."""
        servers = [self._server(name) for name in dict.fromkeys(names)]
        self._share_templates(servers)

        async def prepare_one(server: _Server) -> None:
            await server.starter.prepare()
            self._refill_soon(server)

        try:
            async with anyio.create_task_group() as group:
                for server in servers:
                    group.start_soon(prepare_one, server)
        except BaseExceptionGroup as failed:  # the first failure, as when they started one by one
            raise failed.exceptions[0] from None

    @asynccontextmanager
    async def start(self, name: str) -> AsyncIterator[StartedServer]:
        """A fresh process of `name` for one attempt, killed and reaped when the block ends."""
        server = self._server(name)
        process, stderr = await self._take(server)
        try:
            async with process.streams() as streams:
                yield StartedServer(name, process.pid, process.forked, streams, stderr, process.kill)
        finally:
            stderr.close()

    @asynccontextmanager
    async def connect(self, name: str) -> AsyncIterator[ToolServer]:
        """`start()` plus an MCP session on it, initialised within the start timeout."""
        async with self.start(name) as started, ListedSession(started.streams) as session:
            server = ToolServer(started, session, self.call_timeout_s)
            await server.guard("the MCP handshake", session.initialize, self.start_timeout_s)
            yield server

    @staticmethod
    def _share_templates(servers: list[_Server]) -> None:
        """One template for each group of forked servers with the same Python, environment and folder
        whose own templates have not started yet."""
        groups: dict[tuple[object, ...], list[ForkStarter]] = {}
        for server in servers:
            starter = server.starter
            if isinstance(starter, ForkStarter) and starter.template is None:
                t = starter.target
                key = (t.python, tuple(sorted(t.env.items())), t.cwd, t.exact, t.probe)
                groups.setdefault(key, []).append(starter)
        for starters in groups.values():
            if len(starters) > 1:
                first, rest = starters[0].target, [s.target.module for s in starters[1:]]
                shared = SharedTemplate(replace(first, also=tuple(rest)), "+".join(s.name for s in starters))
                for starter in starters:
                    starter.share(shared)

    def _server(self, name: str) -> _Server:
        if name not in self._servers:
            known = ", ".join(sorted(self._servers)) or "none"
            raise KeyError(f"no tool server {name!r} in this launcher (known: {known})")
        return self._servers[name]

    def _starter(self, spec: LaunchSpec) -> Starter:
        env = self.environment(spec)
        module = spec.python_module()
        if spec.strategy == "fork" and module is not None:
            python, name, args = module
            return ForkStarter(spec.name, ForkTarget(name, tuple(args), python, env, self.cwd))
        return PlainStarter(spec.name, spec.server.command, env, self.cwd)

    async def _take(self, server: _Server) -> tuple[ServerProcess, IO[bytes]]:
        """A process started ahead that is still alive, else one started now."""
        while server.ready:
            process, stderr = server.ready.pop(0)
            if process.alive():
                self._refill_soon(server)
                return process, stderr
            await _discard(process, stderr)
        stderr = stderr_file()
        try:
            process = await server.starter.spawn(stderr)
        except BaseException:
            stderr.close()
            raise
        self._refill_soon(server)
        return process, stderr

    def _refill_soon(self, server: _Server) -> None:
        if self._refills is not None and server.spec.ahead > 0 and not server.refilling:
            server.refilling = True
            self._refills.start_soon(self._refill, server)

    async def _refill(self, server: _Server) -> None:
        """Start processes ahead until `ahead` are ready; a failure is left to the next attempt's own start."""
        try:
            while len(server.ready) < server.spec.ahead:
                stderr = stderr_file()
                try:
                    process = await server.starter.spawn(stderr)
                except BaseException as exc:
                    stderr.close()
                    if isinstance(exc, ToolServerError):
                        return
                    raise
                server.ready.append((process, stderr))
        finally:
            server.refilling = False


async def _discard(process: ServerProcess, stderr: IO[bytes]) -> None:
    await process.discard()
    stderr.close()
