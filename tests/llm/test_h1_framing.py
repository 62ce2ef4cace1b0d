"""HTTP/1.1 framing the client must read right, from a raw TCP server that writes exact bytes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from statebox.llm import InfrastructureError, Message, RetryPolicy, make_client

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]
REPLY = json.dumps(
    {
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
    }
).encode()
NO_RETRY = RetryPolicy(max_retries=0, timeout_s=2.0)


def ok(extra_headers: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n%s\r\n%s" % (
        len(REPLY),
        extra_headers,
        REPLY,
    )


class RawServer:
    """Answers each request with the next of `responses`, then closes if it says `close` after it."""

    def __init__(self, responses: list[bytes | Callable[[], bytes]], close_after: set[int] | None = None) -> None:
        self.responses = responses
        self.close_after = close_after or set()
        self.connections = 0
        self.served = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while self.served < len(self.responses):
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                await reader.readexactly(length)
                response = self.responses[self.served]
                index = self.served
                self.served += 1
                writer.write(response() if callable(response) else response)
                await writer.drain()
                if index in self.close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()


@asynccontextmanager
async def serve(server: RawServer) -> AsyncIterator[str]:
    listener = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        listener.close()


async def complete(url: str, retry: RetryPolicy = NO_RETRY) -> str:
    async with make_client("openai:m", base_url=url, retry=retry) as client:
        return (await client.complete(HI)).text


async def test_an_informational_response_before_the_reply_is_skipped():
    server = RawServer([b"HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n" + ok(), ok()])
    async with serve(server) as url, make_client("openai:m", base_url=url, retry=NO_RETRY) as client:
        assert [(await client.complete(HI)).text for _ in range(2)] == ["ok", "ok"]
    assert server.connections == 1


async def test_a_body_ended_by_closing_the_connection_is_read_and_the_connection_not_reused():
    unframed = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n" + REPLY
    server = RawServer([unframed, ok()], close_after={0})
    async with serve(server) as url, make_client("openai:m", base_url=url, retry=NO_RETRY) as client:
        assert [(await client.complete(HI)).text for _ in range(2)] == ["ok", "ok"]
    assert server.connections == 2


async def test_connection_close_is_honoured():
    server = RawServer([ok(b"connection: close\r\n"), ok()], close_after={0})
    async with serve(server) as url, make_client("openai:m", base_url=url, retry=NO_RETRY) as client:
        assert [(await client.complete(HI)).text for _ in range(2)] == ["ok", "ok"]
    assert server.connections == 2


async def test_chunks_with_extensions_and_trailers_are_joined():
    half = len(REPLY) // 2
    body = b"%x;name=value\r\n%s\r\n%x\r\n%s\r\n0\r\nx-trailer: 1\r\n\r\n" % (
        half,
        REPLY[:half],
        len(REPLY) - half,
        REPLY[half:],
    )
    server = RawServer([b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" + body, ok()])
    async with serve(server) as url, make_client("openai:m", base_url=url, retry=NO_RETRY) as client:
        assert [(await client.complete(HI)).text for _ in range(2)] == ["ok", "ok"]
    assert server.connections == 1


async def test_garbage_instead_of_a_response_is_a_connection_failure_in_one_line():
    server = RawServer([b"SSH-2.0-OpenSSH_9.6\r\n\r\n"])
    async with serve(server) as url:
        with pytest.raises(InfrastructureError) as caught:
            await complete(url)
    assert caught.value.status is None and "not an HTTP response" in str(caught.value)
    assert "\n" not in str(caught.value)


async def test_a_response_cut_short_is_a_connection_failure_that_is_retried():
    cut = b"HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n" + REPLY[:20]
    server = RawServer([cut, ok()], close_after={0})
    async with serve(server) as url:
        text = await complete(url, RetryPolicy(max_retries=1, base_delay=0.001, max_delay=0.01, timeout_s=2.0))
    assert text == "ok" and server.served == 2
