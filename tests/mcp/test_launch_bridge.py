"""The bridge between the official `mcp.ClientSession` and a server's byte streams: newline-delimited
JSON-RPC read by the session's own receive loop and written by the sending task, with no task of its own.

Each test runs the real SDK client over one end of a socket pair; the other end is a scripted peer.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio.abc import SocketStream
from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from statebox.mcp.launch.bridge import message_streams

pytestmark = pytest.mark.anyio

Peer = Callable[[SocketStream], Coroutine[Any, Any, None]]


async def read_request(peer: SocketStream, buffer: bytearray) -> dict[str, Any]:
    """The next request (not a notification) the client wrote."""
    while True:
        while b"\n" not in buffer:
            buffer += await peer.receive()
        line, _, rest = bytes(buffer).partition(b"\n")
        buffer[:] = rest
        message = json.loads(line)
        if "id" in message:
            return message


def answer(request: dict[str, Any]) -> bytes:
    """The JSON-RPC answer to an `initialize`, a `tools/list` (one tool, `echo`) or a `tools/call` of `echo`
    (its text is the argument `x`)."""
    result: dict[str, Any]
    if request["method"] == "initialize":
        result = {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "scripted peer", "version": "1"}}  # fmt: skip
    elif request["method"] == "tools/list":
        result = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}
    else:
        result = {"content": [{"type": "text", "text": request["params"]["arguments"]["x"]}]}
    return json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}).encode() + b"\n"


async def answer_all(peer: SocketStream) -> None:
    buffer = bytearray()
    while True:
        await peer.send(answer(await read_request(peer, buffer)))


@asynccontextmanager
async def session_with(peer_does: Peer, **session_args: Any) -> AsyncIterator[ClientSession]:
    """An initialised official client session over the bridge, the peer scripted by `peer_does`."""
    ours, theirs = socket.socketpair()
    mine, peer = await SocketStream.from_socket(ours), await SocketStream.from_socket(theirs)
    async with anyio.create_task_group() as tg:

        async def stop() -> None:
            tg.cancel_scope.cancel()

        tg.start_soon(peer_does, peer)
        async with message_streams(mine, mine, stop) as streams, ClientSession(*streams, **session_args) as session:
            with anyio.fail_after(10):
                await session.initialize()
            yield session
    await peer.aclose()


def text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def test_answers_split_across_reads_and_blank_lines_reach_the_session_whole() -> None:
    async def in_pieces(peer: SocketStream) -> None:
        buffer = bytearray()
        while True:
            data = b"\n\n" + answer(await read_request(peer, buffer)) + b"   \n"
            for start in range(0, len(data), 7):
                await peer.send(data[start : start + 7])
                await anyio.sleep(0.001)  # each piece its own read

    async with session_with(in_pieces) as session:
        with anyio.fail_after(10):
            assert text(await session.call_tool("echo", {"x": "whole"})) == "whole"


async def test_a_line_that_is_not_json_rpc_reaches_the_session_as_an_error_and_the_next_answer_still_comes() -> None:
    seen: list[object] = []

    async def handler(message: object) -> None:
        seen.append(message)

    async def noisy(peer: SocketStream) -> None:
        buffer = bytearray()
        while True:
            request = await read_request(peer, buffer)
            noise = b"this is not JSON-RPC\n" if request["method"] == "tools/call" else b""
            await peer.send(noise + answer(request))

    async with session_with(noisy, message_handler=handler) as session:
        with anyio.fail_after(10):
            assert text(await session.call_tool("echo", {"x": "after the noise"})) == "after the noise"
    assert len(seen) == 1 and isinstance(seen[0], Exception), seen


async def test_a_peer_that_goes_away_ends_the_waiting_call_as_a_closed_connection() -> None:
    async def leaves(peer: SocketStream) -> None:
        buffer = bytearray()
        while (request := await read_request(peer, buffer))["method"] != "tools/call":
            await peer.send(answer(request))
        await peer.aclose()

    async with session_with(leaves) as session:
        with anyio.fail_after(10), pytest.raises(MCPError) as raised:
            await session.call_tool("echo", {"x": "never answered"})
    assert raised.value.code == types.CONNECTION_CLOSED


async def test_calls_sent_at_once_are_written_whole_one_after_the_other() -> None:
    big = "x" * 1_000_000  # more than a socket buffer holds: each write waits for the peer to read
    results: list[str] = []
    async with session_with(answer_all) as session:

        async def call(tag: str) -> None:
            results.append(text(await session.call_tool("echo", {"x": tag + big}))[:1])

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                for tag in "abc":
                    tg.start_soon(call, tag)
    assert sorted(results) == ["a", "b", "c"]


async def test_the_bridge_starts_no_task_of_its_own() -> None:
    ours, theirs = socket.socketpair()
    mine = await SocketStream.from_socket(ours)
    before = asyncio.all_tasks()
    async with message_streams(mine, mine, anyio.lowlevel.checkpoint):
        assert asyncio.all_tasks() == before
    theirs.close()


async def test_on_exit_the_peer_is_stopped_then_both_byte_streams_are_closed() -> None:
    ours, theirs = socket.socketpair()
    mine = await SocketStream.from_socket(ours)
    stopped: list[bool] = []

    async def stop() -> None:
        stopped.append(ours.fileno() != -1)  # still open while the peer is stopped

    async with message_streams(mine, mine, stop):
        pass
    assert stopped == [True]
    assert ours.fileno() == -1, "the byte stream is closed"
    theirs.close()
