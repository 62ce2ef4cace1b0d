"""`statebox serve`: one attempt over stdio or HTTP, its results written when it ends (stdin or the MCP session
closes, or a signal arrives)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

SERVE_APP = Path(__file__).with_name("serve_app.py")


async def test_stdio_serves_the_attempt_and_writes_results_when_stdin_closes(
    tmp_path: Path,
) -> None:
    out = tmp_path / "result.json"
    params = StdioServerParameters(command=sys.executable, args=[str(SERVE_APP), "stdio", str(out)])
    async with stdio_client(params) as streams, ClientSession(*streams) as session:
        await session.initialize()
        result = await session.call_tool("put", {"key": "k", "value": "v"})
        assert not result.is_error
        assert not out.exists(), "results must not be written while the agent is connected"
    with anyio.fail_after(10):
        while not out.exists():
            await anyio.sleep(0.05)
    assert json.loads(out.read_text())["effects"] == {"k": "v"}


async def call_put_in_a_new_session(url: str) -> None:
    async with Client(url) as late:
        await late.call_tool("put", {"key": "k", "value": "w"})


async def first_error_of(call: Callable[[], Awaitable[None]]) -> BaseException | None:
    """What `call` raised, unwrapped from the SDK's task-group exception groups; None if it did not raise."""
    try:
        await call()
    except Exception as e:
        error: BaseException = e
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        return error
    return None


async def test_http_writes_results_when_the_agents_session_closes_while_the_server_runs(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    process = subprocess.Popen([sys.executable, str(SERVE_APP), "http", str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = await anyio.to_thread.run_sync(process.stdout.readline)
        assert url.strip().endswith("/mcp"), url
        async with Client(url.strip()) as client:  # auto mode: falls back to the session handshake
            result = await client.call_tool("put", {"key": "k", "value": "v"})
            assert not result.is_error and not out.exists(), "results must not be written while the session is open"
        with anyio.fail_after(10):
            while not out.exists():
                await anyio.sleep(0.05)
        assert process.poll() is None, "the server must outlive the attempt until it is stopped"
        assert json.loads(out.read_text())["effects"] == {"k": "v"}
        refusal = await first_error_of(lambda: call_put_in_a_new_session(url.strip()))
        assert isinstance(refusal, MCPError) and "this attempt ended when its MCP session closed" in str(refusal)
        process.send_signal(signal.SIGTERM)
        assert await anyio.to_thread.run_sync(lambda: process.wait(10)) == 0
    finally:
        process.kill()
    assert json.loads(out.read_text())["effects"] == {"k": "v"}, "a later session must not change the end state"


async def test_http_writes_results_on_sigterm_while_the_session_is_still_open(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    process = subprocess.Popen([sys.executable, str(SERVE_APP), "http", str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = await anyio.to_thread.run_sync(process.stdout.readline)
        async with streamable_http_client(url.strip()) as streams, ClientSession(*streams) as session:
            await session.initialize()
            assert not (await session.call_tool("put", {"key": "k", "value": "v"})).is_error
            process.send_signal(signal.SIGTERM)
            assert await anyio.to_thread.run_sync(lambda: process.wait(20)) == 0
    finally:
        process.kill()
    assert json.loads(out.read_text())["effects"] == {"k": "v"}


async def test_stdio_writes_results_on_sigterm_even_with_stdin_open(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    process = subprocess.Popen(
        [sys.executable, str(SERVE_APP), "stdio", str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}) + "\n")
        process.stdin.flush()
        reply = await anyio.to_thread.run_sync(process.stdout.readline)
        assert json.loads(reply)["id"] == 1
        process.send_signal(signal.SIGTERM)
        code = await anyio.to_thread.run_sync(lambda: process.wait(10))
    finally:
        process.kill()
    assert code == -signal.SIGTERM
    assert json.loads(out.read_text())["effects"] == {}
