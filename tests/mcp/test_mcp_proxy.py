"""The proxy: many isolated attempts behind one HTTP server, reached with the official client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx
import mcp_types as types
import pytest
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_fakes import FakeFactory

from statebox.mcp import InsecureBindError, run_proxy, running_proxy
from statebox.mcp.server import POLICY_URI

pytestmark = pytest.mark.anyio

TOKEN = "s3cret-token"


@pytest.fixture
async def proxy(factory: FakeFactory) -> AsyncIterator[httpx.AsyncClient]:
    """An operator client for a running proxy (no token)."""
    async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url) as client:
        yield client


async def create(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await client.post("/attempts", json={"suite": "fake", "task": "one", **body})
    assert response.status_code == 201, response.text
    return response.json()


def mcp_error_in(error: BaseException) -> MCPError:
    """The MCPError inside the exception groups the SDK's task groups wrap it in."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    assert isinstance(error, MCPError), repr(error)
    return error


async def test_fifty_attempts_each_hold_only_their_own_writes(proxy: httpx.AsyncClient) -> None:
    created = [await create(proxy) for _ in range(50)]

    async def write(index: int, mcp_url: str) -> None:
        async with Client(mcp_url) as client:
            result = await client.call_tool("put", {"key": f"k{index}", "value": f"v{index}"})
            assert not result.is_error

    async with anyio.create_task_group() as tg:
        for index, body in enumerate(created):
            tg.start_soon(write, index, body["mcp_url"])

    for index, body in enumerate(created):
        effects = (await proxy.get(f"/attempts/{body['id']}/effects")).json()
        assert effects["effects"] == {f"k{index}": f"v{index}"}
    assert len({body["id"] for body in created}) == 50


async def test_creation_returns_an_absolute_mcp_url_and_the_customer_channel(
    proxy: httpx.AsyncClient,
) -> None:
    body = await create(proxy, user="scripted")
    assert body["mcp_url"] == f"{proxy.base_url}/attempts/{body['id']}/mcp"
    assert len(body["id"]) >= 24
    assert body["opening_message"] == "Hello, I need help."
    assert body["policy"].startswith("# Policy")


async def test_status_and_effects_report_the_attempt(proxy: httpx.AsyncClient) -> None:
    body = await create(proxy)
    async with Client(body["mcp_url"]) as client:
        await client.call_tool("put", {"key": "a", "value": "1"})
    status = (await proxy.get(f"/attempts/{body['id']}")).json()
    effects = (await proxy.get(f"/attempts/{body['id']}/effects")).json()
    assert status["id"] == body["id"] and status["writes"] == 1
    assert effects == {"effects": {"a": "1"}, "verdict": {"passed": True, "discrepancies": []}}


async def test_resources_are_readable_over_http(proxy: httpx.AsyncClient) -> None:
    body = await create(proxy)
    async with Client(body["mcp_url"]) as client:
        policy = (await client.read_resource(POLICY_URI)).contents[0]
    assert isinstance(policy, types.TextResourceContents) and policy.text == body["policy"]


async def test_a_handshake_era_client_is_served_too(proxy: httpx.AsyncClient) -> None:
    body = await create(proxy)
    async with streamable_http_client(body["mcp_url"]) as streams, ClientSession(*streams) as session:
        await session.initialize()
        result = await session.call_tool("put", {"key": "x"})
    assert result.is_error and "missing required argument 'value'" in result.content[0].text  # type: ignore[union-attr]


async def test_an_unknown_attempt_is_404_for_operator_and_mcp(proxy: httpx.AsyncClient) -> None:
    for path in ("/attempts/nope", "/attempts/nope/effects"):
        response = await proxy.get(path)
        assert response.status_code == 404 and "no such attempt" in response.json()["error"]
    assert (await proxy.delete("/attempts/nope")).status_code == 404
    with pytest.raises(BaseException) as raised:
        async with Client(f"{proxy.base_url}/attempts/nope/mcp"):
            pass
    assert "no such attempt" in mcp_error_in(raised.value).message


async def test_a_destroyed_attempt_is_closed_and_404_everywhere(proxy: httpx.AsyncClient, factory: FakeFactory) -> None:
    body = await create(proxy)
    assert (await proxy.delete(f"/attempts/{body['id']}")).status_code == 204
    assert factory.made[-1].closed
    assert (await proxy.get(f"/attempts/{body['id']}")).status_code == 404
    assert (await proxy.get(f"/attempts/{body['id']}/effects")).status_code == 404
    assert (await proxy.delete(f"/attempts/{body['id']}")).status_code == 404
    response = await proxy.post(body["mcp_url"], json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 404
    assert "no such attempt" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"task": "one"}, "missing field 'suite'"),
        ({"suite": "fake"}, "missing field 'task'"),
        ({"suite": 1, "task": "one"}, "field 'suite' must be a string"),
        ({"suite": "fake", "task": "one", "user": 3}, "field 'user' must be a string or null"),
        ([1, 2], "body must be a JSON object"),
    ],
)
async def test_a_malformed_creation_is_400_naming_the_problem(
    proxy: httpx.AsyncClient, payload: Any, message: str
) -> None:
    response = await proxy.post("/attempts", json=payload)
    assert (response.status_code, response.json()["error"]) == (400, message)


async def test_a_body_that_is_not_json_is_400(proxy: httpx.AsyncClient) -> None:
    response = await proxy.post("/attempts", content=b"suite=retail")
    assert response.status_code == 400 and "must be JSON" in response.json()["error"]


async def test_unknown_suite_or_task_is_404_and_a_bad_user_is_400(proxy: httpx.AsyncClient) -> None:
    unknown_suite = await proxy.post("/attempts", json={"suite": "nope", "task": "one"})
    unknown_task = await proxy.post("/attempts", json={"suite": "fake", "task": "nine"})
    bad_user = await proxy.post("/attempts", json={"suite": "fake", "task": "one", "user": "bot"})
    assert (unknown_suite.status_code, unknown_suite.json()["error"]) == (
        404,
        "unknown suite 'nope'; known: fake",
    )
    assert unknown_task.status_code == 404 and "unknown task 'nine'" in unknown_task.json()["error"]
    assert bad_user.status_code == 400 and "user must be" in bad_user.json()["error"]


async def test_health_and_ready(proxy: httpx.AsyncClient) -> None:
    assert (await proxy.get("/health")).json() == {"status": "ok"}
    ready = await proxy.get("/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


async def test_the_operator_api_needs_the_token_and_the_mcp_url_does_not(
    factory: FakeFactory,
) -> None:
    async with running_proxy(factory, token=TOKEN) as url, httpx.AsyncClient(base_url=url) as client:
        payload = {"suite": "fake", "task": "one"}
        missing = await client.post("/attempts", json=payload)
        wrong = await client.post("/attempts", json=payload, headers={"Authorization": "Bearer x"})
        right = await client.post("/attempts", json=payload, headers={"Authorization": f"Bearer {TOKEN}"})
        status = await client.get(f"/attempts/{right.json()['id']}")
        probes = [(await client.get(path)).status_code for path in ("/health", "/ready")]
        async with Client(right.json()["mcp_url"]) as mcp_client:
            result = await mcp_client.call_tool("put", {"key": "k", "value": "v"})
    assert (missing.status_code, wrong.status_code, right.status_code) == (401, 401, 201)
    assert "missing token" in missing.json()["error"]
    assert wrong.json()["error"] == "invalid token"
    assert status.status_code == 401
    assert probes == [200, 200]
    assert not result.is_error


async def test_the_token_can_come_from_the_environment(factory: FakeFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATEBOX_TOKEN", TOKEN)
    async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url) as client:
        assert (await client.get("/attempts/x")).status_code == 401


async def test_a_non_loopback_address_without_a_token_is_refused(
    factory: FakeFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STATEBOX_TOKEN", raising=False)
    with pytest.raises(InsecureBindError, match="without a token"):
        await run_proxy(factory, host="0.0.0.0", port=0)
    with pytest.raises(InsecureBindError):
        async with running_proxy(factory, host="0.0.0.0"):
            pass


async def test_idle_attempts_are_reclaimed(factory: FakeFactory) -> None:
    async with running_proxy(factory, idle_timeout_s=0.2) as url, httpx.AsyncClient(base_url=url) as client:
        body = await create(client)
        with anyio.fail_after(5):
            while not factory.made[-1].closed:
                await anyio.sleep(0.05)
        assert (await client.get(f"/attempts/{body['id']}")).status_code == 404


async def test_mcp_use_keeps_an_attempt_from_being_reclaimed(factory: FakeFactory) -> None:
    # Calls 0.2 s apart against a 1.5 s idle timeout (a margin no machine load closes) for longer than the timeout.
    async with running_proxy(factory, idle_timeout_s=1.5) as url, httpx.AsyncClient(base_url=url) as client:
        body = await create(client)
        async with Client(body["mcp_url"]) as mcp_client:
            for _ in range(9):
                await mcp_client.call_tool("get", {"key": "k"})
                await anyio.sleep(0.2)
        assert not factory.made[-1].closed
        with anyio.fail_after(5):
            while not factory.made[-1].closed:
                await anyio.sleep(0.05)


async def test_shutting_down_closes_every_remaining_attempt(factory: FakeFactory) -> None:
    async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url) as client:
        for _ in range(3):
            await create(client)
    assert [attempt.closed for attempt in factory.made] == [True, True, True]
