"""MCP message streams over any byte pipe pair: newline-delimited JSON-RPC, as over stdio.

The official `stdio_client` only speaks to a process it starts itself; this does the same
framing over whatever byte streams we already hold (a forked child's socket, a process's
pipes), so `mcp.ClientSession` works unchanged on top.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio
import anyio.lowlevel
import mcp_types as types
from anyio.abc import ByteReceiveStream, ByteSendStream
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

logger = logging.getLogger(__name__)

# What `mcp.ClientSession(read, write)` takes, as the SDK's own stdio client makes it.
MessageStreams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]

_GONE = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, ConnectionError, OSError)


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
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_read_lines, receive, read_writer)
            tg.start_soon(_write_lines, write_reader, send, read_writer)
            try:
                yield read_stream, write_stream
            finally:
                with anyio.CancelScope(shield=True):
                    write_stream.close()
                    read_stream.close()
                    await stop()
                    for stream in (send, receive):
                        with contextlib.suppress(*_GONE):
                            await stream.aclose()
                tg.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        if len(group.exceptions) == 1:  # the caller's own error: hand it back as it was raised
            raise group.exceptions[0] from None
        raise
    await anyio.lowlevel.checkpoint()


async def _read_lines(receive: ByteReceiveStream, messages: MemoryObjectSendStream[SessionMessage | Exception]) -> None:
    """Each non-blank line the peer sends, parsed, until it goes away (which ends `messages`)."""
    buffer = b""
    async with messages:
        with contextlib.suppress(*_GONE):
            while True:
                chunk = await receive.receive()
                *lines, buffer = (buffer + chunk).split(b"\n")
                for line in lines:
                    if line.strip():
                        await messages.send(_parse(line))


async def _write_lines(
    outgoing: MemoryObjectReceiveStream[SessionMessage],
    send: ByteSendStream,
    incoming: MemoryObjectSendStream[SessionMessage | Exception],
) -> None:
    """Each message the session writes, as one JSON line; a peer gone ends `incoming` too."""
    async with outgoing:
        try:
            async for message in outgoing:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await send.send(data.encode("utf-8") + b"\n")
        except _GONE:
            await incoming.aclose()  # the session must see the end, not wait forever


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        logger.warning("tool server sent a line that is not JSON-RPC: %.200r", line)
        return exc
