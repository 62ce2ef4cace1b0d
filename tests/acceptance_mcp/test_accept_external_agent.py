"""Acceptance (issue 4): the official MCP client, acting as an external agent, solves a retail task.

Against an attempt of a `statebox proxy` process created with the scripted customer, the agent
reads the opening message, asks the customer for a private fact through `reply_to_customer`
(and a second one, as the policy's verification wants), replays the task's reference with the
value from the customer's answer (never from the task file), tells the customer it is done, and
the attempt's verdict passes.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp import Client

from statebox.suites import load_suite
from statebox.tasks import Fact, RefCall, Task
from statebox.tasks.references import resolve

pytestmark = pytest.mark.anyio

TASK = "defective_blender_replacement_gold"
FACT = "email"  # the reference finds the customer by it
SECOND_FACT = "date_of_birth"  # the second identifying fact the policy's verification asks for
TOKEN = "external-agent-token"
STATEBOX = str(Path(sys.executable).with_name("statebox"))
ENDED = "[The customer has ended the conversation (satisfied).]"
UNKNOWN = "I don't have that information."


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def task() -> Task:
    return load_suite("retail").task(TASK)


@pytest.fixture(scope="module")
def proxy_url() -> Iterator[str]:
    """A `statebox proxy --token` subprocess on a free port, ready; killed (and reaped) afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    process = subprocess.Popen(
        [STATEBOX, "proxy", "--port", str(port), "--token", TOKEN],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not ready(url):
            assert process.poll() is None, f"statebox proxy exited with {process.returncode}"
            assert time.monotonic() < deadline, "statebox proxy was not ready after 20 s"
            time.sleep(0.05)
        yield url
    finally:
        process.kill()
        process.wait(5)


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/ready", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


@pytest.fixture
async def operator(proxy_url: str) -> AsyncIterator[httpx.AsyncClient]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=proxy_url, headers=headers, timeout=30) as client:
        yield client


async def create_attempt(operator: httpx.AsyncClient) -> dict[str, Any]:
    response = await operator.post("/attempts", json={"suite": "retail", "task": TASK, "user": "scripted"})
    assert response.status_code == 201, response.text
    return response.json()


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def question_for(fact: Fact, others: list[Fact]) -> str:
    """A question using the fact's own phrase and no other fact's (which would release that one too)."""
    question = f"To find your account, could you tell me your {fact.asked_by[-1]}?"
    assert not [p for f in others for p in f.asked_by if p.lower() in question.lower()], question
    return question


def value_in(answer: str) -> str:
    """What the customer said the value is: 'My email is X.' -> 'X'."""
    match = re.search(r"\bis (\S+?)\.?$", answer.strip())
    assert match, f"no value in the customer's answer: {answer!r}"
    return match.group(1)


def with_fact(calls: list[RefCall], key: str, value: str) -> list[RefCall]:
    """The reference with every argument named for the fact set to the value the customer gave."""
    assert any(key in c.args for c in calls), f"no reference argument is named {key!r}"
    return [c.model_copy(update={"args": {**c.args, key: value}}) if key in c.args else c for c in calls]


async def replay(client: Client, calls: list[RefCall]) -> None:
    saved: dict[str, Any] = {}
    for index, call in enumerate(calls):
        result = await client.call_tool(call.tool, resolve(call.args, saved))
        assert not result.is_error, f"call {index} ({call.tool}) failed: {text_of(result)}"
        if call.save_as:
            saved[call.save_as] = json.loads(text_of(result))


async def test_an_external_agent_solves_the_task_with_a_fact_from_the_customer(
    operator: httpx.AsyncClient, task: Task
) -> None:
    fact = next(f for f in task.customer.facts if f.key == FACT)
    others = [f for f in task.customer.facts if f.key != FACT]
    created = await create_attempt(operator)

    async with Client(created["mcp_url"]) as agent:
        opening = (await agent.read_resource("statebox://opening-message")).contents[0]
        assert isinstance(opening, types.TextResourceContents)
        assert opening.text == created["opening_message"] != ""
        policy = (await agent.read_resource("statebox://policy")).contents[0]
        assert isinstance(policy, types.TextResourceContents) and policy.text == created["policy"] != ""

        answer = text_of(await agent.call_tool("reply_to_customer", {"message": question_for(fact, others)}))
        # The policy verifies two identifying facts before any change (the trace checks judge it, issue 25).
        second = next(f for f in others if f.key == SECOND_FACT)
        rest = [f for f in task.customer.facts if f.key != SECOND_FACT]
        await agent.call_tool("reply_to_customer", {"message": question_for(second, rest)})
        await replay(agent, with_fact(list(task.reference), fact.key, value_in(answer)))

        goodbye = "All done: a new blender ships today and your prepaid label is in your inbox. Thanks!"
        farewell = await agent.call_tool("reply_to_customer", {"message": goodbye})
        assert not farewell.is_error and ENDED in text_of(farewell), text_of(farewell)

    status = (await operator.get(f"/attempts/{created['id']}")).json()
    assert (status["conversation_ended"], status["end_reason"]) == (True, "satisfied")
    verdict = (await operator.get(f"/attempts/{created['id']}/effects")).json()["verdict"]
    assert (verdict["passed"], verdict["discrepancies"]) == (True, []), verdict["discrepancies"]


async def test_a_fact_asked_for_without_its_phrase_is_not_released(operator: httpx.AsyncClient) -> None:
    created = await create_attempt(operator)
    async with Client(created["mcp_url"]) as agent:
        # "e-mail" is not one of the fact's phrases ("email", "email address").
        result = await agent.call_tool("reply_to_customer", {"message": "Which e-mail do you log in with?"})
    assert (result.is_error, text_of(result)) == (False, UNKNOWN)


async def test_after_the_customer_ends_the_conversation_replying_is_a_tool_error(operator: httpx.AsyncClient) -> None:
    created = await create_attempt(operator)
    async with Client(created["mcp_url"]) as agent:
        first = await agent.call_tool("reply_to_customer", {"message": "Your case is resolved."})
        again = await agent.call_tool("reply_to_customer", {"message": "One more thing."})
    assert ENDED in text_of(first)
    assert again.is_error and "already ended the conversation" in text_of(again)
