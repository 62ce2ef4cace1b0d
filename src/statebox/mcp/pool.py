"""A warm pool of external tool servers: started ahead of demand, one process per attempt.

Tool servers may keep global state, so a server is never handed out twice: every
`acquire()` takes a started server and starts a replacement, keeping `size` ready.
"""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import TracebackType

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from statebox.mcp.errors import ToolServerError
from statebox.mcp.external import DEFAULT_CALL_TIMEOUT_S, DEFAULT_START_TIMEOUT_S, ExternalServer
from statebox.mcp.servers_file import ServerSpec

logger = logging.getLogger(__name__)


@dataclass(eq=False)
class _Slot:
    """One pooled server's life: started (or failed), handed out, released, gone."""

    server: ExternalServer | None = None
    error: ToolServerError | None = None
    released: anyio.Event = field(default_factory=anyio.Event)
    finished: anyio.Event = field(default_factory=anyio.Event)


class WarmPool:
    """Keeps `size` started servers of one spec ready; use as `async with WarmPool(...)`.

    Each server lives in a task of the pool (the SDK's stdio client must be closed by the
    task that opened it), so leaving the pool stops every server, handed out or not.
    """

    def __init__(
        self,
        spec: ServerSpec,
        size: int,
        *,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        start_timeout_s: float = DEFAULT_START_TIMEOUT_S,
    ) -> None:
        if size < 0:
            raise ValueError(f"pool size must be >= 0, not {size}")
        self.spec = spec
        self.size = size
        self.call_timeout_s = call_timeout_s
        self.start_timeout_s = start_timeout_s
        self._tg: TaskGroup | None = None
        send, receive = anyio.create_memory_object_stream[_Slot](math.inf)
        self._ready_send: MemoryObjectSendStream[_Slot] = send
        self._ready_receive: MemoryObjectReceiveStream[_Slot] = receive
        self._waiting: set[_Slot] = set()

    async def __aenter__(self) -> WarmPool:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        for _ in range(self.size):
            self._start_one()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        assert self._tg is not None
        self._tg.cancel_scope.cancel()
        try:
            return await self._tg.__aexit__(exc_type, exc, tb)
        finally:
            self._tg = None
            self._ready_send.close()
            self._ready_receive.close()

    @property
    def ready_count(self) -> int:
        """How many started servers wait to be handed out."""
        return len(self._waiting)

    def ready_pids(self) -> list[int]:
        """Process ids of the started servers waiting to be handed out."""
        return [pid for slot in self._waiting if slot.server and (pid := slot.server.pid)]

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[ExternalServer]:
        """A started server for one attempt, stopped when the block ends.

        Raises ToolServerError when the server it would hand out failed to start.
        """
        self._start_one()  # the replacement, started before waiting, keeps `size` ahead
        slot = await self._ready_receive.receive()
        self._waiting.discard(slot)
        try:
            if slot.error is not None:
                raise slot.error
            assert slot.server is not None
            try:
                yield slot.server
            except BaseException:
                slot.server.kill()  # abandoned (error or cancellation): no polite exit needed
                raise
        finally:
            slot.released.set()
            with anyio.CancelScope(shield=True):
                await slot.finished.wait()

    def _start_one(self) -> None:
        if self._tg is None:
            raise RuntimeError("WarmPool is not running: use it as `async with`")
        self._tg.start_soon(self._host, _Slot())

    async def _host(self, slot: _Slot) -> None:
        server = ExternalServer(self.spec, call_timeout_s=self.call_timeout_s, start_timeout_s=self.start_timeout_s)
        try:
            async with server:
                slot.server = server
                self._waiting.add(slot)
                self._ready_send.send_nowait(slot)
                await slot.released.wait()
        except ToolServerError as exc:
            if slot.server is None:  # it failed to start: the acquirer must hear of it
                slot.error = exc
                self._ready_send.send_nowait(slot)
            else:
                logger.warning("stopping tool server %r: %s", self.spec.name, exc)
        except Exception:
            if slot.server is None:
                raise
            # The process group is killed regardless; a failed goodbye must not stop the pool.
            logger.exception("stopping tool server %r failed", self.spec.name)
        finally:
            slot.finished.set()
