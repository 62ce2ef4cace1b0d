"""MCP message streams over any byte pipe pair: newline-delimited JSON-RPC, as over stdio.

The official `stdio_client` only speaks to a process it starts itself; this does the same
framing over whatever byte streams we already hold (a forked child's socket, a process's
pipes), so `mcp.ClientSession` works unchanged on top. The session's own receive loop reads and
parses the peer's lines, and the task that sends a message writes it: no reader or writer task and
no memory stream between the session and the bytes (what the SDK's stdio client has).
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Self

import anyio
import anyio.lowlevel
import mcp_types as types
from anyio.abc import ByteReceiveStream, ByteSendStream
from mcp.shared.message import SessionMessage

logger = logging.getLogger(__name__)

_GONE = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, ConnectionError, OSError)


class _Closable:
    """An `async with` block closes it, as the SDK's streams."""

    async def aclose(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


class LineReader(_Closable):
    """The stream a `ClientSession` reads: each non-blank line the peer sends, parsed when the session
    asks for the next message (in the session's own receive loop: no task or memory stream between).
    A peer that goes away ends it (`anyio.EndOfStream`, the end of `async for`)."""

    def __init__(self, receive: ByteReceiveStream) -> None:
        self._receive = receive
        self._lines: deque[bytes] = deque()
        self._partial: list[bytes] = []  # the start of a line whose newline has not come yet
        self._ended = False

    async def receive(self) -> SessionMessage | Exception:
        while not self._lines:
            await self._read_more()
        return _parse(self._lines.popleft())

    async def _read_more(self) -> None:
        if self._ended:
            raise anyio.EndOfStream
        try:
            chunk = await self._receive.receive()
        except _GONE:
            self._ended = True
            raise anyio.EndOfStream from None
        *whole, rest = chunk.split(b"\n")
        if whole:
            whole[0] = b"".join([*self._partial, whole[0]])
            self._partial = []
            self._lines.extend(line for line in whole if line.strip())
        if rest:
            self._partial.append(rest)

    async def aclose(self) -> None:
        self._ended = True
        self._lines.clear()

    def __aiter__(self) -> LineReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class LineWriter(_Closable):
    """The stream a `ClientSession` writes: each message as one JSON line, written by the task that
    sends it (one at a time). A peer gone is `anyio.BrokenResourceError`, which the session reports
    as its connection closed."""

    def __init__(self, send: ByteSendStream) -> None:
        self._send = send
        self._one_at_a_time = anyio.Lock(fast_acquire=True)
        self._closed = False

    async def send(self, message: SessionMessage, /) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        data = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8") + b"\n"
        async with self._one_at_a_time:
            try:
                await self._send.send(data)
            except _GONE as exc:
                raise anyio.BrokenResourceError from exc

    async def aclose(self) -> None:
        self._closed = True


# What `mcp.ClientSession(read, write)` takes.
MessageStreams = tuple[LineReader, LineWriter]


@asynccontextmanager
async def message_streams(
    receive: ByteReceiveStream,
    send: ByteSendStream,
    stop: Callable[[], Awaitable[None]],
) -> AsyncIterator[MessageStreams]:
    """(read, write) streams for a `ClientSession` over `receive`/`send`.

    On exit, `stop()` runs shielded (it must end the peer, e.g. kill the process group), then
    both byte streams are closed. A peer that goes away shows as the read stream ending.
    """
    reader, writer = LineReader(receive), LineWriter(send)
    try:
        yield reader, writer
    finally:
        with anyio.CancelScope(shield=True):
            await reader.aclose()
            await writer.aclose()
            await stop()
            for stream in (send, receive):
                with contextlib.suppress(*_GONE):
                    await stream.aclose()
    await anyio.lowlevel.checkpoint()


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        logger.warning("tool server sent a line that is not JSON-RPC: %.200r", line)
        return exc
