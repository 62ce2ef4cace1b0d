"""uvicorn's private names behind their one wrapper each: a uvicorn without them stops the import of the module
that relies on them with one line naming uvicorn's version, and with them the wrapper does its job."""

from __future__ import annotations

import signal
import subprocess
import sys
from importlib import metadata

import anyio
import httpx
from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send

from statebox.mcp.http_serving import serving

UVICORN = metadata.version("uvicorn")


def import_without(owner: str, name: str, module: str) -> subprocess.CompletedProcess[str]:
    """Import `module` in a fresh interpreter after deleting `owner.name` (a uvicorn that renamed it)."""
    where, _, cls = owner.rpartition(".")
    script = f"import {where}\ndel {where}.{cls}.{name}\nimport {module}\nprint('imported')"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)


def assert_one_line_naming(done: subprocess.CompletedProcess[str], needed: str, by: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"{by} needs {needed}, which uvicorn {UVICORN} does not have" in lines[0], lines[0]


def test_without_capture_signals_http_serving_stops_with_one_line() -> None:
    done = import_without("uvicorn.Server", "capture_signals", "statebox.mcp.http_serving")
    assert_one_line_naming(done, "uvicorn.server.Server.capture_signals", "statebox.mcp.http_serving")


def test_without_an_h11_protocol_method_slow_clients_stops_with_one_line() -> None:
    done = import_without(
        "uvicorn.protocols.http.h11_impl.H11Protocol", "handle_websocket_upgrade", "statebox.mcp.slow_clients"
    )
    assert_one_line_naming(
        done, "uvicorn.protocols.http.h11_impl.H11Protocol.handle_websocket_upgrade", "statebox.mcp.slow_clients"
    )


async def hello(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http":
        await PlainTextResponse("hello")(scope, receive, send)


def test_a_server_leaves_the_signal_handlers_to_its_owner() -> None:
    handled = (signal.SIGINT, signal.SIGTERM)

    async def go() -> tuple[dict[signal.Signals, object], dict[signal.Signals, object]]:
        before = {s: signal.getsignal(s) for s in handled}
        async with serving(hello) as url, httpx.AsyncClient(base_url=url) as http:
            assert (await http.get("/")).text == "hello"
            return before, {s: signal.getsignal(s) for s in handled}

    before, during = anyio.run(go)
    assert during == before, "uvicorn installed its own signal handlers"
