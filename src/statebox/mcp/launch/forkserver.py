"""A fork server for tool servers started as `{python} -m module`: import once, fork per attempt.

`ForkServer` runs `fork_template.py` with the server's own Python. The template imports the
server before any thread or event loop starts and then forks a fresh child per `fork()`:
the child's stdin/stdout are one end of a new socket pair (passed over the control socket
with SCM_RIGHTS), its stderr a file of ours. `forked_stdio_client(child)` turns our end into
the (read, write) streams `mcp.ClientSession` takes, and on exit kills the child's process
group and waits until it is gone. POSIX only (Linux for pidfds and the parent-death signal).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import anyio
from anyio.abc import Process, SocketStream

from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch.bridge import MessageStreams, message_streams
from statebox.mcp.launch.processes import EXIT_WAIT_S, kill_group, pid_exists

TEMPLATE = Path(__file__).with_name("fork_template.py")
DEFAULT_START_TIMEOUT_S = 120.0  # the template pays the whole import once
DEFAULT_FORK_TIMEOUT_S = 10.0
_MAX_MESSAGE = 65536
_TAIL_CHARS = 2000


@dataclass(frozen=True)
class ForkTarget:
    """What the template runs: `python -m module args...` with this environment and folder; with
    `also`, more server modules of the same Python, environment and folder (`fork(module=...)`)."""

    module: str
    args: tuple[str, ...] = ()
    python: str = sys.executable
    env: Mapping[str, str] = field(default_factory=dict)  # the whole environment, not additions
    cwd: str | None = None
    exact: bool = False  # always re-run the module as `python -m` does (see fork_preload.py)
    probe: bool = True  # learn lazy imports from one trial run at start-up (see fork_preload.py)
    also: tuple[str, ...] = ()  # more modules the same template imports and forks

    @property
    def modules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.module, *self.also)))


class ForkedChild:
    """One forked server process: its pid, our end of its stdio, and how to end it."""

    forked = True

    def __init__(self, pid: int, stdio: socket.socket, pidfd: int | None, template: ForkServer) -> None:
        self.pid = pid
        self.stdio = stdio
        self._pidfd = pidfd
        self._template = template

    def alive(self) -> bool:
        """Whether the child still runs under a live template (children die with theirs)."""
        return self._template.alive and pid_exists(self.pid)

    def kill(self) -> None:
        """SIGKILL the child's process group (the child leads it), or the child alone."""
        kill_group(self.pid)

    async def wait_gone(self, timeout_s: float = EXIT_WAIT_S) -> bool:
        """Wait until the child has exited and its parent (the template) has reaped it."""
        with anyio.move_on_after(timeout_s):
            if self._pidfd is not None:
                await anyio.wait_readable(self._pidfd)  # readable once the process has exited
            while pid_exists(self.pid):
                await anyio.sleep(0.001)
            return True
        return False

    def close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        self.stdio.close()

    async def discard(self) -> None:
        """Kill it without ever having talked to the server (its template reaps it)."""
        self.kill()
        self.close()

    def streams(self) -> AbstractAsyncContextManager[MessageStreams]:
        """MCP (read, write) streams over the child's stdio; on exit it is killed and reaped."""
        return forked_stdio_client(self)


class ForkServer:
    """A running template for one `ForkTarget`; use as `async with ForkServer(target) as server`."""

    def __init__(
        self,
        target: ForkTarget,
        *,
        name: str | None = None,
        start_timeout_s: float = DEFAULT_START_TIMEOUT_S,
        fork_timeout_s: float = DEFAULT_FORK_TIMEOUT_S,
    ) -> None:
        self.target = target
        self.name = name or target.module
        self.start_timeout_s = start_timeout_s
        self.fork_timeout_s = fork_timeout_s
        self.ready: dict[str, Any] = {}  # the template's start-up report: pid, mode, preload_s, ...
        self._process: Process | None = None
        self._control: socket.socket | None = None
        self._log: IO[bytes] | None = None
        self._lock = anyio.Lock()
        self._last_request = 0

    async def __aenter__(self) -> ForkServer:
        try:
            await self.start()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    @property
    def template_pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def alive(self) -> bool:
        """Whether the template is running and can fork."""
        return self._control is not None and self._process is not None and self._process.returncode is None

    async def start(self) -> None:
        """Start the template and wait until it has imported the server."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = ours
        # Append mode: the template writes through the same file, and reading must not move that.
        self._log = tempfile.TemporaryFile(mode="a+b")  # noqa: SIM115 - lives as long as the template
        modules = [part for module in self.target.modules for part in ("--module", module)]
        command = [self.target.python, str(TEMPLATE), "--control-fd", str(theirs.fileno()),
                   *modules, *(["--exact"] if self.target.exact else []),
                   *([] if self.target.probe else ["--no-probe"]),
                   "--", *self.target.args]  # fmt: skip
        try:
            self._process = await anyio.open_process(
                command, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                env=dict(self.target.env), cwd=self.target.cwd, pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise ToolServerError(f"fork server {self.name!r} failed to start: {exc}") from exc
        finally:
            theirs.close()
        ours.setblocking(False)
        reply: dict[str, Any] = {}
        with anyio.move_on_after(self.start_timeout_s) as scope:
            reply, _ = await self._receive()
        if scope.cancelled_caught:
            raise self._failure(f"did not finish importing within {self.start_timeout_s:g} s")
        if not reply.get("ready"):
            raise self._failure(f"could not load the server: {reply.get('error', reply)}")
        self.ready = reply

    async def fork(
        self, stderr: IO[Any] | int, module: str | None = None, args: tuple[str, ...] | None = None
    ) -> ForkedChild:
        """A fresh child of the template running `module` (default: the target's) with `args`
        (default: the target's), `stderr` as its fd 2; raises ToolServerError on failure."""
        request: dict[str, Any] = {"op": "fork", "module": module or self.target.module}
        if args is not None:
            request["args"] = list(args)
        stderr_fd = stderr if isinstance(stderr, int) else stderr.fileno()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            async with self._lock:
                self._last_request += 1
                with anyio.move_on_after(self.fork_timeout_s) as scope:
                    await self._send({**request, "id": self._last_request}, [theirs.fileno(), stderr_fd])
                    reply, fds = await self._receive_reply(self._last_request)
                if scope.cancelled_caught:
                    raise self._failure(f"did not fork within {self.fork_timeout_s:g} s")
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        if "pid" not in reply:
            ours.close()
            for fd in fds:
                os.close(fd)
            raise self._failure(f"could not fork: {reply.get('error', reply)}")
        return ForkedChild(int(reply["pid"]), ours, fds[0] if fds else None, self)

    async def aclose(self) -> None:
        """Close the control socket (the template then kills its children and exits) and reap it."""
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._process is not None:
            with anyio.CancelScope(shield=True):
                with anyio.move_on_after(EXIT_WAIT_S):
                    await self._process.wait()
                if self._process.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self._process.pid, signal.SIGKILL)
                    await self._process.wait()
            self._process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    async def _send(self, message: dict[str, Any], fds: list[int]) -> None:
        control = self._live_control()
        data = json.dumps(message).encode()
        while True:
            try:
                socket.send_fds(control, [data], fds)
                return
            except BlockingIOError:
                await anyio.wait_writable(control)
            except (BrokenPipeError, ConnectionResetError):
                raise self._failure("exited") from None
            except OSError as exc:
                raise self._failure(f"control channel failed ({exc})") from exc

    async def _receive_reply(self, request: int) -> tuple[dict[str, Any], list[int]]:
        """The answer to `request`; answers to earlier requests whose caller gave up (cancelled
        or timed out) are dropped, and the children they announce are killed."""
        while True:
            reply, fds = await self._receive()
            if reply.get("id") == request:
                return reply, fds
            if "pid" in reply:
                kill_group(int(reply["pid"]))
            for fd in fds:
                os.close(fd)

    async def _receive(self) -> tuple[dict[str, Any], list[int]]:
        control = self._live_control()
        while True:
            await anyio.wait_readable(control)
            try:
                data, fds, _, _ = socket.recv_fds(control, _MAX_MESSAGE, 1)
            except BlockingIOError:
                continue
            except OSError as exc:
                raise self._failure(f"control channel failed ({exc})") from exc
            if not data:
                raise self._failure("exited")
            return json.loads(data), fds

    def _live_control(self) -> socket.socket:
        if self._control is None:
            raise ToolServerError(f"fork server {self.name!r} is not running")
        return self._control

    def _failure(self, what: str) -> ToolServerError:
        if what == "exited" and self._process is not None and self._process.returncode is not None:
            what = f"exited with status {self._process.returncode}"
        tail = ""
        if self._log is not None:
            self._log.seek(0)
            tail = self._log.read().decode("utf-8", "replace")[-_TAIL_CHARS:].strip()
        ending = f"; its output ends with:\n{tail}" if tail else ""
        return ToolServerError(f"fork server {self.name!r} {what}{ending}")


@asynccontextmanager
async def forked_stdio_client(child: ForkedChild) -> AsyncIterator[MessageStreams]:
    """MCP (read, write) streams to a forked child; on exit the child is killed and reaped."""
    stream: SocketStream = await SocketStream.from_socket(child.stdio)

    async def stop() -> None:
        child.kill()
        await child.wait_gone()

    try:
        async with message_streams(stream, stream, stop) as streams:
            yield streams
    finally:
        child.kill()
        child.close()
