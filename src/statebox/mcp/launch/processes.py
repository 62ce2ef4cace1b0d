"""Plain process starts of tool servers, and what every started server process shares.

A plainly started server runs in a process group of its own (it leads it), with its stdio on
pipes and its stderr in a file of ours. Ending it kills the whole group, so whatever the server
started dies with it, and reaps the server. POSIX only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import IO

import anyio
from anyio.abc import ByteReceiveStream, ByteSendStream, Process

from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch.bridge import MessageStreams, message_streams

EXIT_WAIT_S = 2.0  # how long a killed process may take to be reaped
STDERR_TAIL_CHARS = 2000


def stderr_file() -> IO[bytes]:
    """Where one server process writes its stderr. Append mode: the process writes through the
    same open file, and reading its tail must not move where the process writes."""
    return tempfile.TemporaryFile(mode="a+b")


def stderr_tail(stderr: IO[bytes]) -> str:
    """The last lines a process wrote to `stderr`, or "" (also once the file is closed)."""
    if stderr.closed:
        return ""
    stderr.flush()
    stderr.seek(0)
    return stderr.read().decode("utf-8", "replace")[-STDERR_TAIL_CHARS:].strip()


def kill_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads, or the process alone if it leads none (yet)."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


def pid_exists(pid: int) -> bool:
    """Whether `pid` is still in the process table (a zombie counts: it is not reaped yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class PlainProcess:
    """One plainly started server process: its pid, its pipes, and how to end it."""

    forked = False

    def __init__(self, name: str, process: Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.name = name
        self.pid = process.pid
        self._process = process
        self._stdin: ByteSendStream = process.stdin
        self._stdout: ByteReceiveStream = process.stdout

    def alive(self) -> bool:
        return self._process.returncode is None

    def kill(self) -> None:
        """Kill the process group now (also when the server itself already exited: what it
        started may still run)."""
        kill_group(self.pid)

    async def discard(self) -> None:
        """Kill and reap, without ever having talked to the server."""
        with anyio.CancelScope(shield=True):
            await self._kill_and_reap()
            with anyio.move_on_after(EXIT_WAIT_S):
                await self._process.aclose()

    @asynccontextmanager
    async def streams(self) -> AsyncIterator[MessageStreams]:
        """MCP (read, write) streams over the process's stdio; on exit it is killed and reaped."""
        try:
            async with message_streams(self._stdout, self._stdin, self._kill_and_reap) as streams:
                yield streams
        finally:
            with anyio.CancelScope(shield=True):
                await self._kill_and_reap()

    async def _kill_and_reap(self) -> None:
        self.kill()
        with anyio.move_on_after(EXIT_WAIT_S):
            await self._process.wait()


async def start_plain(
    name: str, command: list[str], env: Mapping[str, str], cwd: str | None, stderr: IO[bytes]
) -> PlainProcess:
    """Start `command` as a server process of its own; raises ToolServerError if it cannot start."""
    try:
        process = await anyio.open_process(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            env=dict(env), cwd=cwd, start_new_session=True,
        )  # fmt: skip
    except OSError as exc:
        raise ToolServerError(f"tool server {name!r} failed to start: {exc}") from exc
    return PlainProcess(name, process)
