"""An external tool server: a subprocess speaking MCP over stdio, seen as a `ToolSurface`.

The server runs in its own process group; teardown always kills that group, so nothing it
started outlives it, even when the caller is cancelled or the server crashed or hung.
A crash, a hang (no answer within the per-call timeout) or a failed start raises
`ToolServerError`, an infrastructure error, never something the agent is blamed for.
POSIX only: the server is launched through `/bin/sh` so its process id is known.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from statebox.mcp.errors import ToolServerError
from statebox.mcp.inmemory import list_tool_specs, outcome_from_result
from statebox.mcp.servers_file import ServerSpec
from statebox.tools.surface import ToolOutcome, ToolSpec

DEFAULT_CALL_TIMEOUT_S = 60.0
DEFAULT_START_TIMEOUT_S = 30.0
STDERR_TAIL_CHARS = 2000

# Writes the shell's pid (which `exec` hands to the server) to "$1", then runs the command.
_LAUNCH_SCRIPT = 'echo $$ > "$1"; shift; exec "$@"'
_CLOSED = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)


class ExternalServer:
    """One started tool server process and its MCP session (`async with` starts and stops it)."""

    def __init__(
        self,
        spec: ServerSpec,
        *,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        start_timeout_s: float = DEFAULT_START_TIMEOUT_S,
    ) -> None:
        self.spec = spec
        self.call_timeout_s = call_timeout_s
        self.start_timeout_s = start_timeout_s
        self._stack = AsyncExitStack()
        self._session: ClientSession | None = None
        self._specs: list[ToolSpec] = []
        self._pidfile: Path | None = None
        self._pid: int | None = None
        self._stderr: IO[str] | None = None
        self._failure: str | None = None

    @property
    def pid(self) -> int | None:
        """The server's process id (also its process group id), once known."""
        if self._pid is None and self._pidfile is not None:
            with contextlib.suppress(OSError, ValueError):
                self._pid = int(self._pidfile.read_text().strip())
        return self._pid

    async def __aenter__(self) -> ExternalServer:
        try:
            await self._start()
        except BaseException:
            self.kill()
            await self._teardown()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is not None:
            # Abandoned mid-use (an error or a cancellation, maybe mid-call): the server's
            # state is unknown and no longer wanted, so don't wait for a polite exit.
            self.kill()
        await self._teardown()

    def list_tools(self) -> list[ToolSpec]:
        """The server's tools, as listed once at start."""
        return list(self._specs)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Call a tool; an error the server reports is the agent's, a dead server is ours."""
        session = self._live_session()
        try:
            result = await asyncio.wait_for(session.call_tool(name, arguments), self.call_timeout_s)
        except TimeoutError:
            raise self._fail(f"did not answer {name!r} within {self.call_timeout_s:g} s") from None
        except MCPError as exc:
            if exc.code == types.CONNECTION_CLOSED:
                raise self._fail(f"exited during {name!r}") from exc
            return ToolOutcome(text=f"Error: {exc.message}", is_error=True, error_kind="tool_error")
        except _CLOSED as exc:
            raise self._fail(f"exited during {name!r}") from exc
        return outcome_from_result(result)

    async def _start(self) -> None:
        fd, pidfile = tempfile.mkstemp(prefix="statebox-tool-server-", suffix=".pid")
        os.close(fd)
        self._pidfile = Path(pidfile)
        # Append mode: the child writes through the same file, and reading must not move it.
        self._stderr = tempfile.TemporaryFile(mode="a+", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed in _teardown
        params = StdioServerParameters(
            command="/bin/sh",
            args=["-c", _LAUNCH_SCRIPT, "statebox-tool-server", pidfile, *self.spec.command],
            env=self.spec.env,
        )
        try:
            read, write = await self._stack.enter_async_context(stdio_client(params, self._stderr))
            session = await self._stack.enter_async_context(ClientSession(read, write))
            with anyio.fail_after(self.start_timeout_s):
                await session.initialize()
                self._specs = await list_tool_specs(session)
        except TimeoutError:
            raise self._fail(f"did not start within {self.start_timeout_s:g} s") from None
        except (OSError, MCPError, *_CLOSED) as exc:
            raise self._fail(f"failed to start ({exc})") from exc
        self._session = session

    def _live_session(self) -> ClientSession:
        if self._failure is not None:
            raise ToolServerError(self._failure)
        if self._session is None:
            raise RuntimeError("ExternalServer is not started: use it as `async with`")
        return self._session

    def _fail(self, what: str) -> ToolServerError:
        """Mark the server dead, kill it now (no waiting on a hung process), describe why."""
        self._failure = f"tool server {self.spec.name!r} {what}{self._stderr_tail()}"
        self.kill()
        return ToolServerError(self._failure)

    async def _teardown(self) -> None:
        # Not wrapped in a shielded scope: the contexts on the stack opened cancel scopes
        # before it, and anyio requires them to close first. The SDK shields its own
        # shutdown (close stdin, wait, then terminate the process tree) and bounds its waits.
        try:
            await self._stack.aclose()
        except Exception:
            if self._failure is None:
                raise
        finally:
            self.kill()  # whatever the server left behind in its group
            self._session = None
            if self._pidfile is not None:
                self._pidfile.unlink(missing_ok=True)
            if self._stderr is not None:
                self._stderr.close()

    def kill(self) -> None:
        """Kill the server's process group now, without waiting for a polite exit."""
        pid = self.pid
        if pid is None or pid <= 1 or pid == os.getpgrp():
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)

    def _stderr_tail(self) -> str:
        if self._stderr is None or self._stderr.closed:
            return ""
        self._stderr.flush()
        self._stderr.seek(0)
        tail = self._stderr.read()[-STDERR_TAIL_CHARS:].strip()
        return f"; its stderr ends with:\n{tail}" if tail else ""
