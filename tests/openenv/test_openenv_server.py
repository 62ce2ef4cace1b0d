"""`statebox openenv-serve retail` in a subprocess, played with OpenEnv's own client over a real socket."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from openenv_play import open_conversation, openenv_server, play_calls

from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task

pytestmark = pytest.mark.slow
TASK = "air_purifier_return_refund_wrong_rma_number"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("openenv") / "server.log"
    with openenv_server("retail", "--max-sessions", "32", log=log) as url:
        yield url
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


@pytest.fixture(scope="module")
def task() -> Task:
    return next(t for t in load_suite("retail").tasks if t.id == TASK)


def test_reset_gives_the_policy_the_opening_message_and_the_tool_schemas(server: str, task: Task) -> None:
    async def go() -> None:
        async with StateboxEnv(base_url=server) as env:
            first = await env.reset(task_id=TASK)
            obs = first.observation
            assert (obs.kind, first.done, first.reward) == ("start", False, None)
            assert obs.text == task.opening_message
            assert obs.policy and "verify" in obs.policy.lower()
            names = {t["name"] for t in obs.tools}
            assert {"issue_refund", "create_ticket", "find_customer"} <= names, names
            schema = next(t for t in obs.tools if t["name"] == "issue_refund")["input_schema"]
            assert "amount" in schema["properties"], schema

    asyncio.run(go())


def test_the_reference_played_step_by_step_earns_reward_one(server: str, task: Task) -> None:
    async def go() -> None:
        async with StateboxEnv(base_url=server) as env:
            await env.reset(task_id=TASK)
            await open_conversation(env, task)
            await play_calls(env, task.reference)
            last = await env.step(StateboxAction(message="Your refund is issued.", end=True))
            info = last.observation.info
            assert (last.done, last.reward, info["passed"]) == (True, 1.0, True), info["discrepancies"]
            assert (info["signature"], info["finish_reason"]) == (None, "agent_ended")
            assert info["effects"]["inserted"]["refunds"][0]["amount"] == 160.65, info["effects"]

    asyncio.run(go())


def test_a_wrong_write_earns_reward_zero_and_names_the_discrepancy(server: str, task: Task) -> None:
    wrong = [
        RefCall(tool=c.tool, args={**c.args, "amount": 168.60}, save_as=c.save_as) if c.tool == "issue_refund" else c
        for c in task.reference
    ]

    async def go() -> None:
        async with StateboxEnv(base_url=server) as env:
            await env.reset(task_id=TASK)
            await open_conversation(env, task)
            await play_calls(env, wrong)
            last = await env.step(StateboxAction(end=True))
            info = last.observation.info
            assert (last.done, last.reward, info["passed"]) == (True, 0.0, False)
            assert info["signature"] == "wrong_state_update", info
            found = [(d["kind"], d["table"], d["field"], d["expected"], d["actual"]) for d in info["discrepancies"]]
            assert ("wrong_value", "refunds", "amount", 160.65, 168.6) in found, found

    asyncio.run(go())


def test_twenty_concurrent_sessions_of_one_task_never_see_each_others_writes(server: str) -> None:
    async def go() -> None:
        envs = [StateboxEnv(base_url=server) for _ in range(20)]
        try:
            await asyncio.gather(*(e.connect() for e in envs))
            await asyncio.gather(*(e.reset(task_id=TASK) for e in envs))
            created = await asyncio.gather(*(e.step(StateboxAction(tool="create_ticket", arguments={
                "customer_id": "CUS-9106", "priority": "normal", "subject": f"session {i}", "description": f"by {i}",
            })) for i, e in enumerate(envs)))
            listed = await asyncio.gather(*(e.step(StateboxAction(
                tool="list_customer_tickets", arguments={"customer_id": "CUS-9106"})) for e in envs))
            ended = await asyncio.gather(*(e.step(StateboxAction(end=True)) for e in envs))
        finally:
            await asyncio.gather(*(e.disconnect() for e in envs))
        for i, (c, seen, last) in enumerate(zip(created, listed, ended, strict=True)):
            assert not c.observation.is_error, c.observation.text
            assert "TCK-50001" in c.observation.text, f"session {i} got {c.observation.text}: ids shared a sequence"
            others = [f"session {j}" for j in range(20) if j != i and f'"session {j}"' in seen.observation.text]
            assert not others, f"session {i} sees the tickets of {others}"
            tickets = last.observation.info["effects"]["inserted"]["tickets"]
            assert [t["subject"] for t in tickets] == [f"session {i}"], tickets

    asyncio.run(go())


def test_ready_reports_each_component_and_metadata_names_the_suite(server: str) -> None:
    ready = httpx.get(f"{server}/ready").json()
    assert ready["ready"] is True, ready
    assert set(ready["components"]) == {"suite", "references", "customer", "sessions"}, ready
    assert ready["components"]["references"]["replayed"] == ready["components"]["suite"]["tasks"] > 0
    assert httpx.get(f"{server}/health").json()["status"] == "healthy"
    assert httpx.get(f"{server}/metadata").json()["name"] == "statebox-retail"
    assert "tool" in httpx.get(f"{server}/schema").json()["action"]["properties"]


def test_a_step_after_the_end_is_an_error_not_a_second_reward(server: str) -> None:
    async def go() -> None:
        async with StateboxEnv(base_url=server) as env:
            await env.reset(task_id=TASK)
            await env.step(StateboxAction(end=True))
            with pytest.raises(RuntimeError, match="is over"):
                await env.step(StateboxAction(tool="get_order", arguments={"order_id": "ORD-91061"}))

    asyncio.run(go())
