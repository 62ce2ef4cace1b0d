"""Acceptance (issue 4): `statebox proxy`, run as a real process, keeps every retail attempt isolated.

The official MCP client talks streamable HTTP to each attempt's own `mcp_url`; the operator API
is reached with plain HTTP and a bearer token, as an operator would.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

TASK = "defective_blender_replacement_gold"
CUSTOMER = "CUS-9005"  # the task's customer
ORDER = "ORD-90005"
TOKEN = "acceptance-token"
ATTEMPTS = 50
STATEBOX = str(Path(sys.executable).with_name("statebox"))


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def proxy_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `statebox proxy --token` subprocess on a free port, ready; stopped with SIGTERM and reaped afterwards."""
    port = free_port()
    log = tmp_path_factory.mktemp("proxy") / "stderr.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [STATEBOX, "proxy", "--port", str(port), "--token", TOKEN], stdout=subprocess.DEVNULL, stderr=stderr
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, process, log)
        yield url
    finally:
        process.terminate()
        try:
            code = process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
            raise AssertionError("statebox proxy ignored SIGTERM for 10 s and was killed") from None
    assert code == 0, f"statebox proxy exited with {code} on SIGTERM:\n{log.read_text()}"


def wait_until_ready(url: str, process: subprocess.Popen[bytes], log: Path, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"statebox proxy exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/ready", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"statebox proxy at {url} was not ready after {timeout_s} s")


@pytest.fixture
async def operator(proxy_url: str) -> AsyncIterator[httpx.AsyncClient]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=proxy_url, headers=headers, timeout=30) as client:
        yield client


async def create_attempt(operator: httpx.AsyncClient) -> dict[str, Any]:
    response = await operator.post("/attempts", json={"suite": "retail", "task": TASK, "user": None})
    assert response.status_code == 201, response.text
    return response.json()


def innermost(error: BaseException) -> MCPError:
    """The MCPError inside the exception groups the SDK's task groups wrap it in."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    assert isinstance(error, MCPError), repr(error)
    return error


def subject_of(index: int) -> str:
    return f"Acceptance write #{index}"


async def write_own_ticket(mcp_url: str, index: int) -> None:
    """The attempt's one write: a ticket whose subject names the attempt."""
    arguments = {
        "customer_id": CUSTOMER,
        "order_id": ORDER,
        "subject": subject_of(index),
        "description": f"Written only by attempt #{index}.",
    }
    async with Client(mcp_url) as client:
        result = await client.call_tool("create_ticket", arguments)
    assert not result.is_error, result.content


def ticket_subjects(effects: dict[str, Any]) -> list[str]:
    """The subjects of the tickets an attempt inserted, or a description of anything else it changed."""
    others = {
        kind: tables
        for kind, tables in effects.items()
        if tables and (kind != "inserted" or set(tables) != {"tickets"})
    }
    subjects = [row["subject"] for row in effects["inserted"].get("tickets", [])]
    return [*subjects, f"unexpected change: {others}"] if others else subjects


async def test_fifty_attempts_each_hold_only_their_own_write(operator: httpx.AsyncClient) -> None:
    created = [await create_attempt(operator) for _ in range(ATTEMPTS)]
    assert len({body["id"] for body in created}) == ATTEMPTS

    async with anyio.create_task_group() as tg:
        for index, body in enumerate(created):
            tg.start_soon(write_own_ticket, body["mcp_url"], index)

    seen = {}
    for index, body in enumerate(created):
        response = await operator.get(f"/attempts/{body['id']}/effects")
        assert response.status_code == 200, response.text
        seen[index] = ticket_subjects(response.json()["effects"])
    assert seen == {index: [subject_of(index)] for index in range(ATTEMPTS)}


async def test_an_attempt_keeps_its_writes_while_others_are_destroyed(operator: httpx.AsyncClient) -> None:
    kept, dropped = await create_attempt(operator), await create_attempt(operator)
    await write_own_ticket(kept["mcp_url"], 1)
    await write_own_ticket(dropped["mcp_url"], 2)
    assert (await operator.delete(f"/attempts/{dropped['id']}")).status_code == 204

    effects = (await operator.get(f"/attempts/{kept['id']}/effects")).json()["effects"]
    assert ticket_subjects(effects) == [subject_of(1)]


async def test_an_unknown_attempt_is_404_with_a_json_error(operator: httpx.AsyncClient) -> None:
    unknown = "no-such-attempt-0123456789abcdef"
    responses = {
        "GET status": await operator.get(f"/attempts/{unknown}"),
        "GET effects": await operator.get(f"/attempts/{unknown}/effects"),
        "DELETE": await operator.delete(f"/attempts/{unknown}"),
    }
    for what, response in responses.items():
        assert response.status_code == 404, what
        assert "no such attempt" in response.json()["error"], what
    mcp = await operator.post(f"/attempts/{unknown}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert mcp.status_code == 404
    assert "no such attempt" in mcp.json()["error"]["message"]


async def test_a_destroyed_attempt_is_404_for_the_operator_and_its_mcp_url(operator: httpx.AsyncClient) -> None:
    body = await create_attempt(operator)
    await write_own_ticket(body["mcp_url"], 0)

    assert (await operator.delete(f"/attempts/{body['id']}")).status_code == 204
    for path in (f"/attempts/{body['id']}", f"/attempts/{body['id']}/effects"):
        response = await operator.get(path)
        assert response.status_code == 404, path
        assert "no such attempt" in response.json()["error"], path
    assert (await operator.delete(f"/attempts/{body['id']}")).status_code == 404

    mcp = await operator.post(body["mcp_url"], json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert mcp.status_code == 404
    assert "no such attempt" in mcp.json()["error"]["message"]
    with pytest.raises(BaseException) as raised:
        async with Client(body["mcp_url"]):
            pass
    assert "no such attempt" in innermost(raised.value).message


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "missing token: send 'Authorization: Bearer <token>'"),
        ({"Authorization": "Bearer not-the-token"}, "invalid token"),
        ({"Authorization": TOKEN}, "missing token: send 'Authorization: Bearer <token>'"),
    ],
    ids=["missing", "wrong", "no-scheme"],
)
async def test_the_operator_api_without_the_right_token_is_401(
    proxy_url: str, operator: httpx.AsyncClient, headers: dict[str, str], message: str
) -> None:
    existing = await create_attempt(operator)
    async with httpx.AsyncClient(base_url=proxy_url, headers=headers) as stranger:
        responses = {
            "POST /attempts": await stranger.post("/attempts", json={"suite": "retail", "task": TASK}),
            "GET status": await stranger.get(f"/attempts/{existing['id']}"),
            "GET effects": await stranger.get(f"/attempts/{existing['id']}/effects"),
            "DELETE": await stranger.delete(f"/attempts/{existing['id']}"),
        }
    for what, response in responses.items():
        assert (response.status_code, response.json()) == (401, {"error": message}), what
        assert response.headers["www-authenticate"] == "Bearer", what
    assert (await operator.get(f"/attempts/{existing['id']}")).status_code == 200, "the attempt must survive"
