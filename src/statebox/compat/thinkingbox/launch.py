"""Start the benchmark's tool servers for attempts: forked when possible, else a plain process.

A server whose servers.yaml command is `{python} -m module ...` is forked from a per-server
template (`ForkServer`, started on first use); any other command is started as a process of
its own. Either way the server runs with the clock pinned, in its own process group, in the
checkout's folder, with the SDK's minimal inherited environment plus the entry's `env`, and
is killed and reaped when the attempt's block ends.

With `prefork=N`, N children per forked server are forked ahead of demand, so a child's own
start-up (the server's event loop, its stdio reader) is done before an attempt takes it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import anyio
from anyio.abc import Process, TaskGroup
from mcp import ClientSession
from mcp.client.stdio import get_default_environment

from statebox.compat.thinkingbox.clockpin import BENCH_NOW, ClockMode, clock_pin_env
from statebox.compat.thinkingbox.forkserver import ForkedChild, ForkServer, ForkTarget, forked_stdio_client, pid_exists
from statebox.compat.thinkingbox.models import TbServerEntry, TbServers
from statebox.compat.thinkingbox.stdio_bridge import MessageStreams, message_streams
from statebox.mcp.errors import ToolServerError

EXIT_WAIT_S = 2.0


@dataclass(frozen=True)
class StartedServer:
    """One started server process of one attempt."""

    name: str
    pid: int
    forked: bool
    streams: MessageStreams
    errlog: IO[Any]  # where its stderr goes: the caller's file, or the launcher's for a pre-forked child


class ServerLauncher:
    """Starts servers of one servers.yaml; `async with` owns the fork-server templates."""

    def __init__(
        self,
        servers: TbServers,
        *,
        python: str = sys.executable,
        cwd: str | Path | None = None,
        clock_pin: str | None = BENCH_NOW,
        clock_mode: ClockMode = "advance",
        fork: bool = True,
        prefork: int = 0,
    ) -> None:
        self.servers = servers
        self.python = python
        self.cwd = str(cwd) if cwd is not None else None
        self.clock_pin = clock_pin
        self.clock_mode = clock_mode
        self.fork = fork
        self.prefork = prefork
        self._templates: dict[str, ForkServer] = {}
        self._template_locks: dict[str, anyio.Lock] = {}
        self._ready: dict[str, list[tuple[ForkedChild, IO[Any]]]] = {}  # pre-forked children, per server
        self._refilling: set[str] = set()
        self._refills: TaskGroup | None = None

    async def __aenter__(self) -> ServerLauncher:
        if self.prefork > 0:
            self._refills = anyio.create_task_group()
            await self._refills.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop forking ahead, drop the pre-forked children, stop every template (each kills the
        children it still has)."""
        if self._refills is not None:
            self._refills.cancel_scope.cancel()
            await self._refills.__aexit__(None, None, None)
            self._refills = None
        for ready in self._ready.values():
            for child, log in ready:
                _discard(child, log)
        self._ready.clear()
        templates, self._templates = self._templates, {}
        for template in templates.values():
            await template.aclose()

    def environment(self, entry: TbServerEntry) -> dict[str, str]:
        """The environment a server starts with."""
        return clock_pin_env(get_default_environment() | entry.env, self.clock_pin, self.clock_mode)

    def fork_server(self, name: str) -> ForkServer | None:
        """The running template of a server, if one was started."""
        return self._templates.get(name)

    def is_forked(self, name: str) -> bool:
        return self.fork and self.servers.entry(name).python_module() is not None

    async def prepare(self, *names: str) -> None:
        """Start the templates of these servers now rather than at their first attempt."""
        for name in names:
            if self.is_forked(name):
                await self._template(name)
                self._refill_soon(name)

    @asynccontextmanager
    async def start(self, name: str, errlog: IO[Any]) -> AsyncIterator[StartedServer]:
        """A fresh server process for one attempt; its stderr goes to `errlog` (a real file)."""
        if self.is_forked(name):
            child, log = await self._take(name, errlog)
            try:
                async with forked_stdio_client(child) as streams:
                    yield StartedServer(name, child.pid, True, streams, log)
            finally:
                if log is not errlog:
                    log.close()
        else:
            async with self._plain(name, errlog) as (pid, streams):
                yield StartedServer(name, pid, False, streams, errlog)

    @asynccontextmanager
    async def session(self, name: str, errlog: IO[Any]) -> AsyncIterator[tuple[StartedServer, ClientSession]]:
        """`start()` plus an initialised MCP client session on it."""
        async with self.start(name, errlog) as server, ClientSession(*server.streams) as session:
            await session.initialize()
            yield server, session

    async def _take(self, name: str, errlog: IO[Any]) -> tuple[ForkedChild, IO[Any]]:
        """A pre-forked child that is still alive, else a child forked now with `errlog`."""
        template = await self._template(name)
        ready = self._ready.get(name) or []
        while ready:
            child, log = ready.pop(0)
            if template.alive and pid_exists(child.pid):
                self._refill_soon(name)
                return child, log
            _discard(child, log)
        child = await self._fork(name, errlog)
        self._refill_soon(name)
        return child, errlog

    def _refill_soon(self, name: str) -> None:
        if self._refills is not None and name not in self._refilling:
            self._refilling.add(name)
            self._refills.start_soon(self._refill, name)

    async def _refill(self, name: str) -> None:
        """Fork children ahead until `prefork` are ready; a failure is left to the next attempt's own fork."""
        try:
            ready = self._ready.setdefault(name, [])
            while len(ready) < self.prefork:
                template = await self._template(name)
                log = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed with its child
                try:
                    child = await template.fork(log)
                except ToolServerError:
                    log.close()
                    return
                ready.append((child, log))
        finally:
            self._refilling.discard(name)

    async def _fork(self, name: str, errlog: IO[Any]) -> ForkedChild:
        template = await self._template(name)
        try:
            return await template.fork(errlog)
        except ToolServerError:
            if template.alive:
                raise
        # The template died (killed, out of memory): start a new one, once.
        async with self._lock(name):
            if self._templates.get(name) is template:  # not already replaced by another attempt
                del self._templates[name]
        await template.aclose()
        return await (await self._template(name)).fork(errlog)

    def _lock(self, name: str) -> anyio.Lock:
        return self._template_locks.setdefault(name, anyio.Lock())

    async def _template(self, name: str) -> ForkServer:
        async with self._lock(name):
            if name not in self._templates:
                entry = self.servers.entry(name)
                module, args = entry.python_module() or ("", [])
                target = ForkTarget(module, tuple(args), self.python, self.environment(entry), self.cwd)
                template = ForkServer(target, name=name)
                await template.__aenter__()
                self._templates[name] = template
            return self._templates[name]

    @asynccontextmanager
    async def _plain(self, name: str, errlog: IO[Any]) -> AsyncIterator[tuple[int, MessageStreams]]:
        entry = self.servers.entry(name)
        spec = entry.spec(self.python)
        try:
            process = await anyio.open_process(
                spec.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog,
                env=self.environment(entry), cwd=self.cwd, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise ToolServerError(f"tool server {name!r} failed to start: {exc}") from exc
        assert process.stdin is not None and process.stdout is not None

        async def stop() -> None:
            await _kill_and_reap(process)

        try:
            async with message_streams(process.stdout, process.stdin, stop) as streams:
                yield process.pid, streams
        finally:
            with anyio.CancelScope(shield=True):
                await _kill_and_reap(process)


def _discard(child: ForkedChild, log: IO[Any]) -> None:
    child.kill()
    child.close()
    log.close()


async def _kill_and_reap(process: Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with anyio.move_on_after(EXIT_WAIT_S):
        await process.wait()
