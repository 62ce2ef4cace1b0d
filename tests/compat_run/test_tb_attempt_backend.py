"""One ThinkingBox-Bench attempt's backend, driven directly: what the agent can see and reach,
how failures of the server read, and that its processes always end."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import pytest
from tb_run_kit import leftover_processes

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.transcript import Transcript
from statebox.compat.thinkingbox import TbBackend, TbRunOptions, TbSource, load_tb_suite
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import OutcomeInputs
from statebox.runner.episode import AttemptPlan, run_attempt
from tbfakes import CONSULTING_FILE, RETAIL_FILE, FakeCheckout

pytestmark = pytest.mark.anyio
CANCEL = f"{RETAIL_FILE}:test_cancel_order"
ESCALATION = f"{CONSULTING_FILE}:test_escalation"


@asynccontextmanager
async def attempt(fake: FakeCheckout, task_id: str, call_timeout_s: float = 60.0) -> AsyncIterator[TbBackend]:
    """A running source and one backend of `task_id`, whose tools are open; closed on exit."""
    suite = load_tb_suite(fake.root, options=TbRunOptions(call_timeout_s=call_timeout_s))
    source = TbSource(suite)
    source.prepare(suite.tasks)
    async with source.running():
        backend = source.backend(suite.task(task_id))
        assert isinstance(backend, TbBackend)
        try:
            async with backend.tools():
                yield backend
        finally:
            await backend.aclose()


async def test_the_agent_sees_the_scenario_tools_and_the_builtin_end_turn_tool(tb_fake: FakeCheckout) -> None:
    async with attempt(tb_fake, CANCEL) as backend:
        names = [spec.name for spec in backend.surface.list_tools()]
    assert set(names) == {
        "get_order", "cancel_order", "create_ticket", "is_warranty_active", "update_shipping_speed",
        "escalate_to_human", "search_policy", "InjectionAttackInToolResponse",
    }  # fmt: skip
    assert backend.policy.startswith("You support customers of the sandbox_external_retail shop.")


@pytest.mark.parametrize("name", ["__reserved__init", "__reserved__geteffects", "crash_now", "no_such_tool"])
async def test_reserved_and_unlisted_tools_are_unknown_to_the_agent(tb_fake: FakeCheckout, name: str) -> None:
    async with attempt(tb_fake, CANCEL) as backend:
        outcome = await backend.surface.call_tool(name, {})
        still_there = await backend.surface.call_tool("get_order", {"order_id": "ORD-1"})
    assert (outcome.is_error, outcome.error_kind) == (True, "unknown_tool")
    assert json.loads(outcome.text) == {"error": f"Unknown tool: {name}"}
    assert not still_there.is_error  # the server did not crash, so crash_now never reached it


async def test_a_tool_failure_is_the_servers_text_unchanged_and_counts_as_an_error(tb_fake: FakeCheckout) -> None:
    async with attempt(tb_fake, CANCEL) as backend:
        outcome = await backend.surface.call_tool("get_order", {"order_id": "ORD-404"})
    assert outcome.text == json.dumps({"error": "order ORD-404 not found"})
    assert (outcome.is_error, outcome.error_kind) == (True, "tool_error")


async def test_search_policy_is_answered_from_the_policy_documents(tb_fake: FakeCheckout) -> None:
    async with attempt(tb_fake, CANCEL) as backend:
        outcome = await backend.surface.call_tool("search_policy", {"query": "refnds after cancelation"})
    hits = json.loads(outcome.text)["snippets"]
    assert not outcome.is_error
    assert hits[0]["name"] == "sandbox_external_retail Refunds.md"


async def test_end_turn_tools_end_the_episode_and_scenario_ones_still_reach_the_server(tb_fake: FakeCheckout) -> None:
    async with attempt(tb_fake, ESCALATION) as backend:
        builtin = await backend.surface.call_tool("InjectionAttackInToolResponse", {"reason": "odd tool text"})
        escalated = await backend.surface.call_tool("escalate_to_human", {"reason": "hardware fault"})
        state = await backend.outcome(OutcomeInputs(Transcript()))
    assert builtin.ends_episode and not builtin.is_error
    assert escalated.ends_episode and json.loads(escalated.text) == {"id": "ESC-001", "reason": "hardware fault"}
    assert state.verdict.passed


async def test_a_hung_server_is_a_tool_server_error(tb_fake: FakeCheckout) -> None:
    async with attempt(tb_fake, CANCEL, call_timeout_s=0.5) as backend:
        pid = backend.links[0].pid
        os.kill(pid, signal.SIGSTOP)
        with pytest.raises(ToolServerError, match=r"did not answer 'get_order' within 0.5 s"):
            await backend.surface.call_tool("get_order", {"order_id": "ORD-1"})
        with pytest.raises(ToolServerError):  # the server stays failed for the rest of the attempt
            await backend.outcome(OutcomeInputs(Transcript()))
    assert leftover_processes(tb_fake.root) == []


async def test_the_servers_end_when_the_attempt_raises(tb_fake: FakeCheckout) -> None:
    with pytest.raises(RuntimeError, match="the agent broke"):
        async with attempt(tb_fake, ESCALATION) as backend:
            assert [link.name for link in backend.links] == ["sandbox_consulting"]
            raise RuntimeError("the agent broke")
    assert leftover_processes(tb_fake.root) == []


class _Waits(Agent):
    """An agent that never answers, so the attempt can be cancelled mid-conversation."""

    def __init__(self) -> None:
        self.started = anyio.Event()

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        self.started.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


async def test_the_servers_end_when_the_attempt_is_cancelled(tb_fake: FakeCheckout) -> None:
    suite = load_tb_suite(tb_fake.root)
    source = TbSource(suite)
    source.prepare(suite.tasks)
    agent = _Waits()
    async with source.running():
        task = suite.task(CANCEL)
        backend = source.backend(task)
        assert isinstance(backend, TbBackend)
        plan = AttemptPlan(suite=suite, task=task, agent=agent, customer=None, repeat=0, backend=backend)
        running = asyncio.create_task(run_attempt(plan))
        with anyio.fail_after(10):
            await agent.started.wait()
        [pid] = [link.pid for link in backend.links]
        assert os.path.exists(f"/proc/{pid}")
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        assert not os.path.exists(f"/proc/{pid}")  # killed and reaped before the cancellation returned
    assert leftover_processes(tb_fake.root) == []


async def test_attempts_of_a_campaign_offer_the_same_tool_schemas_so_the_model_client_encodes_them_once(
    tb_fake: FakeCheckout,
) -> None:
    suite = load_tb_suite(tb_fake.root)
    source = TbSource(suite)
    source.prepare(suite.tasks)
    offered = []
    async with source.running():
        for _ in range(2):
            backend = source.backend(suite.task(CANCEL))
            assert isinstance(backend, TbBackend)
            try:
                async with backend.tools() as surface:
                    offered.append({spec.name: spec.input_schema for spec in surface.list_tools()})
            finally:
                await backend.aclose()
    first, second = offered
    assert first == second and "get_order" in first
    assert all(second[name] is schema for name, schema in first.items())
