"""The transport's limits, on loopback: header values checked at build, a size cap, gzip, no redirects."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import web

from statebox.llm import ConfigurationError, HttpOptions, InfrastructureError, Message, RetryPolicy, make_client

from .loopback import REPLY, reply_bytes, serve

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]
RETRY = RetryPolicy(max_retries=2, base_delay=0.001, max_delay=0.01, timeout_s=30.0)
STATEBOX = str(Path(sys.executable).with_name("statebox"))
MIB = 1 << 20


@pytest.mark.parametrize("key", ["sk-abc\r\nx-injected: 1", "sk-abc\n", "sk-\x00abc"])
def test_a_key_with_a_line_break_is_refused_when_the_client_is_built(key: str):
    with pytest.raises(ValueError) as caught:
        make_client("openai:m", api_key=key)

    message = str(caught.value)
    assert "authorization header" in message and "line break" in message, message
    assert "sk-abc" not in message, "the key itself must not be printed"


def test_statebox_run_refuses_a_key_with_a_line_break_in_one_line_before_any_request(tmp_path: Path):
    env = {**os.environ, "OPENAI_API_KEY": "sk-abc\r\nx-injected: 1"}
    command = [
        STATEBOX, "run", "retail", "--agent", "llm", "--model", "openai:gpt-4.1", "--user", "scripted",
        "--tasks", "cancel_desk_wrong_order_number", "--no-progress", "--out", str(tmp_path / "run"),
    ]  # fmt: skip

    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)

    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "line break" in done.stderr and "sk-abc" not in done.stderr


async def test_a_300_mb_body_is_stopped_at_the_cap_in_one_line_and_not_retried():
    sent = []
    chunk = b" " * MIB

    async def endless(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"content-type": "application/json"})
        await response.prepare(request)
        try:
            for _ in range(300):  # 300 MiB, one reused chunk at a time, unless the client hangs up
                await response.write(chunk)
                sent.append(1)
        except ConnectionError:
            pass
        return response

    async with serve(endless) as port:
        client = make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1", retry=RETRY)
        async with client:
            with pytest.raises(InfrastructureError) as caught:
                await client.complete(HI)

    error = caught.value
    assert error.attempts == 1, "a body over the cap would be as large again: no retry"
    assert "64 MiB cap" in str(error) and "\n" not in str(error)
    assert len(sent) < 300, "the client read the whole 300 MB"


async def test_a_declared_length_over_the_cap_fails_before_the_body_is_read():
    async def huge(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"content-type": "application/json", "content-length": str(300 * MIB)})
        await response.prepare(request)
        await response.write(b" " * 1024)
        return response

    async with serve(huge) as port:
        retry = RetryPolicy(max_retries=2, timeout_s=30.0, http=HttpOptions(max_response_bytes=MIB))
        client = make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1", retry=retry)
        async with client:
            with pytest.raises(InfrastructureError, match=r"declares 314,572,800 bytes, over the 1 MiB cap"):
                await client.complete(HI)


async def test_a_gzip_reply_is_accepted_and_gzip_is_asked_for():
    asked = []

    async def gzipped(request: web.Request) -> web.Response:
        await request.read()
        asked.append(request.headers.get("accept-encoding", ""))
        body = gzip.compress(reply_bytes())
        return web.Response(body=body, headers={"content-type": "application/json", "content-encoding": "gzip"})

    async with serve(gzipped) as port, make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1") as client:
        completion = await client.complete(HI)

    assert (completion.text, completion.retries) == ("ok", 0)
    assert "gzip" in asked[0] and "deflate" in asked[0]


@pytest.mark.parametrize("status", [301, 307, 308])
async def test_a_redirect_is_one_configuration_error_naming_the_url(status: int):
    requests = []

    async def moved(request: web.Request) -> web.Response:
        requests.append(request.path)
        return web.Response(status=status, headers={"location": "https://elsewhere.example/v1/chat/completions"})

    async with serve(moved) as port:
        url = f"http://127.0.0.1:{port}/v1"
        async with make_client("openai:m", base_url=url, retry=RETRY) as client:
            with pytest.raises(ConfigurationError) as caught:
                await client.complete(HI)

    message = str(caught.value)
    assert f"{url}/chat/completions redirects (HTTP {status}) to https://elsewhere.example" in message, message
    assert len(requests) == 1 and "\n" not in message


async def test_a_bad_content_length_is_a_connection_failure_in_one_line():
    import asyncio

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: -1\r\n\r\n{}")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        policy = RetryPolicy(max_retries=0, timeout_s=5.0)
        async with make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1", retry=policy) as client:
            with pytest.raises(InfrastructureError) as caught:
                await client.complete(HI)
    finally:
        server.close()
    assert caught.value.status is None and "connection failed" in caught.value.message
    assert "\n" not in str(caught.value)


async def test_keep_alive_reuses_the_connection_the_server_keeps_open():
    peers = []

    async def answer(request: web.Request) -> web.Response:
        await request.read()
        peers.append(request.transport.get_extra_info("peername")[1] if request.transport else None)
        return web.json_response(REPLY)

    async with serve(answer) as port, make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1") as client:
        for _ in range(4):
            await client.complete(HI)

    assert len(set(peers)) == 1, peers
