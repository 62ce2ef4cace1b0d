"""OpenEnv's stock `MCPToolClient` (unchanged, from openenv-core) plays a whole statebox episode over a real
socket: reset to a task, list the tools, call the reference's tools and the conversation's, see the reward
and the verdict. The server is protected: the token reaches it in the base URL, the way OpenEnv's own
clients can send it. The tools also come in OpenAI's function format, which the `openai` SDK's types take."""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from openai.types.chat import ChatCompletionToolParam
from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.mcp_client import MCPToolClient
from openenv_play import ASK_TO_CONFIRM, openenv_server
from websockets.asyncio.client import connect as ws_connect

from llm.oracles import typed_dict_check
from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction
from statebox.openenv.tool_forms import openai_tools
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.references import resolve

pytestmark = pytest.mark.slow
TASK = "air_purifier_return_refund_wrong_rma_number"
TOKEN = "s3cret:to%ken@/x"  # what a URL's user info must percent-encode
check_tool = typed_dict_check(ChatCompletionToolParam)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("openenv-mcp") / "server.log"
    with openenv_server("retail", "--token", TOKEN, log=log) as url:
        yield url
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def with_token(url: str, token: str = TOKEN) -> str:
    """The base URL with the token as the password of its user info (`http://statebox:TOKEN@host:port`)."""
    return url.replace("http://", f"http://statebox:{urllib.parse.quote(token, safe='')}@", 1)


@pytest.fixture(scope="module")
def task() -> Task:
    return next(t for t in load_suite("retail").tasks if t.id == TASK)


async def talk(env: MCPToolClient, task: Task) -> None:
    """Ask for each fact the customer holds, then ask to confirm, through the `reply_to_customer` tool."""
    asks = " ".join(f"What is your {f.asked_by[0]}?" for f in task.customer.facts if f.via is None)
    for message in ([asks] if asks else []) + [ASK_TO_CONFIRM]:
        answer = await env.call_tool("reply_to_customer", message=message)
        assert isinstance(answer, str) and answer, answer


async def call_all(env: MCPToolClient, calls: list[RefCall]) -> None:
    """The agent's calls of a reference through `call_tool`, `${...}` resolved from earlier results."""
    saved: dict[str, Any] = {}
    for call in calls:
        if call.actor == "customer":
            continue
        data = await env.call_tool(call.tool, **resolve(call.args, saved))
        assert isinstance(data, dict | list), f"{call.tool}: {data}"  # JSON decoded; a tool error would be text
        if call.save_as:
            saved[call.save_as] = data


def test_the_stock_mcp_client_plays_the_reference_to_reward_one(server: str, task: Task) -> None:
    async def go() -> None:
        async with MCPToolClient(base_url=with_token(server)) as env:
            first = await env.reset(task_id=TASK)
            assert (first.done, first.reward) == (False, None)
            assert first.observation.metadata["opening_message"] == task.opening_message, first.observation.metadata
            assert "verify" in first.observation.metadata["policy"].lower()
            names = {t.name for t in await env.list_tools()}
            assert {"find_customer", "issue_refund", "reply_to_customer", "end_episode"} <= names, names
            await talk(env, task)
            await call_all(env, task.reference)
            last = await env.step(CallToolAction(tool_name="end_episode", arguments={"message": "Refund issued."}))
            verdict = last.observation.metadata
            assert (last.done, last.reward) == (True, 1.0), verdict.get("discrepancies")
            assert (verdict["passed"], verdict["verdict"]["passed"], verdict["finish_reason"]) == (
                True, True, "agent_ended")
            assert verdict["effects"]["inserted"]["refunds"][0]["amount"] == 160.65, verdict["effects"]

    asyncio.run(go())


def test_a_wrong_refund_through_the_stock_client_earns_zero_and_the_end_tool_says_why(
    server: str, task: Task
) -> None:
    wrong = [RefCall(tool=c.tool, args={**c.args, "amount": 168.60}, save_as=c.save_as)
             if c.tool == "issue_refund" else c for c in task.reference]

    async def go() -> None:
        async with MCPToolClient(base_url=with_token(server)) as env:
            await env.reset(task_id=TASK)
            await talk(env, task)
            await call_all(env, wrong)
            summary = await env.call_tool("end_episode", message=None)
            assert summary == {"passed": False, "reward": 0.0, "signature": "wrong_state_update",
                               "finish_reason": "agent_ended"}, summary

    asyncio.run(go())


def test_a_tool_error_is_the_agents_result_and_a_call_before_reset_is_refused_by_name(server: str) -> None:
    async def go() -> None:
        async with MCPToolClient(base_url=with_token(server)) as env:
            with pytest.raises(RuntimeError, match="no episode: reset first"):
                await env.list_tools()
            await env.reset(task_id=TASK)
            missing = await env.step(CallToolAction(tool_name="get_order", arguments={"order_id": "ORD-0"}))
            result = missing.observation.result
            assert result["is_error"] is True and "ORD-0" in result["data"], result
            assert missing.observation.error is None and not missing.done

    asyncio.run(go())


def test_json_rpc_lists_and_calls_in_a_reset_session_and_post_mcp_says_where_the_episode_is(server: str) -> None:
    async def rpc(ws: Any, method: str, **params: Any) -> dict[str, Any]:
        await ws.send(json.dumps({"type": "mcp", "data": {"jsonrpc": "2.0", "method": method, "params": params,
                                                           "id": 1}}))
        answer: dict[str, Any] = json.loads(await ws.recv())
        assert answer["type"] == "mcp", answer
        return answer["data"]

    async def go() -> None:
        async with ws_connect(with_token(server).replace("http://", "ws://") + "/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"task_id": TASK}}))
            assert json.loads(await ws.recv())["type"] == "observation"
            listed = await rpc(ws, "tools/list")
            assert "issue_refund" in {t["name"] for t in listed["result"]["tools"]}, listed
            found = await rpc(ws, "tools/call", name="find_customer", arguments={"email": "hollis.trevino@gmail.com"})
            assert found["result"]["data"][0]["customer_id"] == "CUS-9106", found
            ended = await rpc(ws, "tools/call", name="end_episode", arguments={"message": None})
            result = ended["result"]
            assert (result["done"], result["reward"], result["verdict"]["signature"]) == (
                True, 0.0, "no_state_change"), result

    asyncio.run(go())
    stateless = httpx.post(f"{server}/mcp", json={"jsonrpc": "2.0", "method": "tools/list", "id": 7},
                           auth=("statebox", TOKEN)).json()
    assert "no episode: reset first" in stateless["error"]["message"], stateless
    assert "does not support MCP" not in stateless["error"]["message"]


def test_the_stock_client_without_the_token_or_with_a_wrong_one_is_refused(server: str) -> None:
    async def go(url: str) -> None:
        async with MCPToolClient(base_url=url) as env:
            await env.reset(task_id=TASK)

    for url in (server, with_token(server, "wrong")):
        with pytest.raises(ConnectionError, match="HTTP 401"):
            asyncio.run(go(url))


def test_the_tools_in_openai_function_format_are_strict_and_fit_the_openai_sdk_type(server: str) -> None:
    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with StateboxEnv(base_url=server, token=TOKEN) as env:
            first = await env.reset(task_id=TASK)
            listed_here = await env.step(StateboxAction(type="list_tools"))  # statebox's client takes the MCP forms too
            assert listed_here.observation.openai_tools == first.observation.openai_tools
            called = await env.step(StateboxAction(type="call_tool", tool="get_order", arguments={"order_id": "ORD-0"}))
            assert called.observation.result["is_error"] is True, called.observation
        async with MCPToolClient(base_url=with_token(server)) as mcp:
            await mcp.reset(task_id=TASK)
            listed = openai_tools(await mcp.list_tools())
        return first.observation.openai_tools, listed

    on_reset, from_list = asyncio.run(go())
    assert on_reset == from_list and len(on_reset) > 5
    for tool in on_reset:
        check_tool(tool)
        assert tool["type"] == "function" and tool["function"]["strict"] is True, tool["function"]["name"]
    refund = next(t["function"] for t in on_reset if t["function"]["name"] == "issue_refund")
    assert refund["parameters"]["additionalProperties"] is False and "return_id" in refund["parameters"]["required"]
