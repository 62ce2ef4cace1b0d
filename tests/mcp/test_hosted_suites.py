"""Hosted attempts of any suite (`HostedAttemptFactory`): a built-in suite and a fake ThinkingBox-Bench
checkout behind the same proxy, played by the official MCP client over real HTTP.

The fake checkout's servers list `__reserved__init`/`__reserved__geteffects`/`__reserved__teardown`
beside their domain tools; no agent ever sees or reaches them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from statebox.mcp import running_proxy
from statebox.mcp.inmemory import McpToolSurface, connect_in_memory
from statebox.mcp.proxy_registry import AttemptRegistry
from statebox.runner.hosted_suite import BackendAttempt, HostedAttemptFactory
from statebox.suites.provider import provider_opener
from statebox.tasks import RefCall
from tbfakes import RETAIL, RETAIL_FILE, FakeCheckout, make_fake_checkout

TB = "thinkingbox-bench"
TB_TASK = f"{RETAIL_FILE}:test_cancel_order"
RESERVED = ["__reserved__init", "__reserved__geteffects", "__reserved__teardown", "__reserved__server_tool"]
RETAIL_TASK = "cancel_desk_wrong_order_number"


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> FakeCheckout:
    return make_fake_checkout(tmp_path_factory.mktemp("hosted") / "checkout")


def tb_factory(fake: FakeCheckout) -> HostedAttemptFactory:
    return HostedAttemptFactory(provider_opener({"data": fake.root, "server_python": sys.executable, "fork": True}))


def _text(result: Any) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


async def _play(session: ClientSession, calls: list[RefCall]) -> None:
    for call in calls:
        result = await session.call_tool(call.tool, call.args)
        assert not result.is_error, f"{call.tool}: {_text(result)}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"  # a zombie has ended


@pytest.mark.anyio
async def test_a_thinkingbox_attempt_hides_reserved_tools_and_refuses_them_as_unknown(fake: FakeCheckout) -> None:
    factory = tb_factory(fake)
    try:
        attempt = await factory(TB, TB_TASK, None)
        async with connect_in_memory(attempt) as session:
            surface = await McpToolSurface.connect(session)
            listed = [spec.name for spec in surface.list_tools()]
            answers = {name: await surface.call_tool(name, {}) for name in [*RESERVED, "made_up_tool"]}
        assert "cancel_order" in listed and [n for n in listed if n.startswith("__reserved__")] == []
        made_up = answers.pop("made_up_tool")
        assert made_up.is_error and made_up.error_kind == "unknown_tool", made_up
        expected = {name: made_up.text.replace("made_up_tool", name) for name in answers}
        assert {name: outcome.text for name, outcome in answers.items()} == expected
        result = await attempt.result()
        assert result["verdict"]["passed"] is False and result["effects"]["updated"] == {}, result
    finally:
        await factory.aclose()


@pytest.mark.anyio
async def test_closing_a_thinkingbox_attempt_ends_its_tool_server_processes(fake: FakeCheckout) -> None:
    factory = tb_factory(fake)
    try:
        attempt = await factory(TB, TB_TASK, None)
        assert isinstance(attempt, BackendAttempt)
        pids = [link.pid for link in attempt.backend.links]  # type: ignore[attr-defined]
        assert pids and all(_alive(pid) for pid in pids)
        await attempt.close()
        assert [pid for pid in pids if _alive(pid)] == []
        with pytest.raises(RuntimeError, match="closed"):
            await attempt.result()
    finally:
        await factory.aclose()


@pytest.mark.anyio
async def test_one_proxy_serves_builtin_and_thinkingbox_attempts_and_a_reference_passes(fake: FakeCheckout) -> None:
    factory = tb_factory(fake)
    tb_reference = factory.open_suite(TB).task(TB_TASK).reference
    async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url, timeout=60) as http:
        for suite, task in [(TB, TB_TASK), ("retail", RETAIL_TASK)]:
            created = await http.post("/attempts", json={"suite": suite, "task": task, "user": None})
            assert created.status_code == 201, created.text
            body = created.json()
            async with streamable_http_client(body["mcp_url"]) as streams, ClientSession(*streams) as session:
                await session.initialize()
                listed = [t.name for t in (await session.list_tools()).tools]
                assert listed and [n for n in listed if n.startswith("__reserved__")] == []
                if suite == TB:
                    await _play(session, tb_reference)  # verbatim, as the benchmark's validation replays it
                    refused = await session.call_tool("__reserved__init", {"config": {}})
                    assert refused.is_error and "Unknown tool '__reserved__init'" in _text(refused)
            verdict = (await http.get(f"/attempts/{body['id']}/effects")).json()["verdict"]
            assert verdict["passed"] is (suite == TB), (suite, verdict)  # the retail attempt did nothing
            assert (await http.delete(f"/attempts/{body['id']}")).status_code == 204
        unknown = await http.post("/attempts", json={"suite": "nosuch", "task": "x", "user": None})
        assert unknown.status_code == 404 and "unknown suite 'nosuch'" in unknown.json()["error"], unknown.text
        no_task = await http.post("/attempts", json={"suite": TB, "task": "nope.py:test_x", "user": None})
        assert no_task.status_code == 404 and "nope.py:test_x" in no_task.json()["error"], no_task.text


@pytest.mark.anyio
async def test_a_thinkingbox_suite_without_its_data_option_is_a_400_naming_it() -> None:
    factory = HostedAttemptFactory(provider_opener({}))
    async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url, timeout=60) as http:
        created = await http.post("/attempts", json={"suite": TB, "task": "x", "user": None})
    assert created.status_code == 400 and "--data" in created.json()["error"], created.text


@pytest.mark.anyio
async def test_an_attempt_whose_tool_server_dies_at_start_is_a_502_naming_it(tmp_path: Path) -> None:
    broken = make_fake_checkout(tmp_path / "checkout")
    servers = broken.root / "servers" / "servers.yaml"
    config = yaml.safe_load(servers.read_text())
    config["servers"][RETAIL]["command"] = ["{python}", "-c", "import sys; sys.exit(3)"]
    servers.write_text(yaml.safe_dump(config))
    async with running_proxy(tb_factory(broken)) as url, httpx.AsyncClient(base_url=url, timeout=60) as http:
        created = await http.post("/attempts", json={"suite": TB, "task": TB_TASK, "user": None})
        assert created.status_code == 502, created.text
        error = created.json()["error"]
        assert error.startswith("the attempt's tool servers failed to start: ") and RETAIL in error, error
        assert "\n" not in error and (await http.get("/ready")).json()["attempts"] == 0


@pytest.mark.anyio
async def test_the_runners_own_thinkingbox_surface_never_lists_a_reserved_tool_and_answers_it_as_unknown(
    fake: FakeCheckout,
) -> None:
    suite = tb_factory(fake).open_suite(TB)
    source = suite.attempt_source()
    task = suite.task(TB_TASK)
    source.prepare([task])
    async with source.running():
        backend = source.backend(task)
        try:
            async with backend.tools() as surface:
                listed = [spec.name for spec in surface.list_tools()]
                answers = {name: await surface.call_tool(name, {}) for name in [*RESERVED, "made_up_tool"]}
        finally:
            await backend.aclose()
    assert "cancel_order" in listed and [n for n in listed if n.startswith("__reserved__")] == []
    made_up = answers.pop("made_up_tool")
    assert made_up.is_error and made_up.error_kind == "unknown_tool"
    assert {n: o.text for n, o in answers.items()} == {n: made_up.text.replace("made_up_tool", n) for n in answers}


@pytest.mark.anyio
async def test_an_idle_thinkingbox_attempt_is_reclaimed_and_its_tool_servers_end(fake: FakeCheckout) -> None:
    now = [100.0]
    registry = AttemptRegistry(idle_timeout_s=60.0, clock=lambda: now[0])
    factory = tb_factory(fake)
    try:
        attempt = await factory(TB, TB_TASK, None)
        pids = [link.pid for link in attempt.backend.links]  # type: ignore[attr-defined]
        attempt_id = registry.add(attempt)
        now[0] += 59.0
        assert await registry.reclaim_idle() == 0 and all(_alive(pid) for pid in pids)
        now[0] += 2.0
        assert await registry.reclaim_idle() == 1
        assert registry.get(attempt_id) is None and attempt.closed
        assert [pid for pid in pids if _alive(pid)] == []
    finally:
        await factory.aclose()
