"""Acceptance (issue 4): `statebox serve retail TASK_ID` works with the official MCP client.

Over stdio (the SDK's `stdio_client` starting the `statebox` executable) and over streamable HTTP
(`--http`), an agent sees the domain's tools, the policy and the opening message; replaying the
task's reference without a word to the customer reaches the right end state and fails the trace
checks (as `statebox run` judges it), and the verdict reaches the operator's `--out` file only when
serving ends.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.references import resolve

TASK = "defective_blender_replacement_gold"
STATEBOX = str(Path(sys.executable).with_name("statebox"))
# Names no agent-facing tool may carry: setup, grading and harness-reserved operations.
NOT_FOR_AGENTS = re.compile(r"^__|reserved|setup|seed|reset|grade|judge|verdict|effects|reference", re.I)

Serve = Callable[[Path], Any]


@pytest.fixture(scope="module")
def retail() -> tuple[Task, list[str], str]:
    """The task, the retail domain's tool names and its policy, as the package defines them."""
    suite = load_suite("retail")
    task = suite.task(TASK)
    domain = suite.domain_of(task)
    return task, domain.tools.names, domain.policy


# -- serving, as an operator starts it ------------------------------------------------------------


@asynccontextmanager
async def over_stdio(out: Path) -> AsyncIterator[ClientSession]:
    """A session with `statebox serve` on stdio; leaving the block closes stdin, which ends serving."""
    params = StdioServerParameters(command=STATEBOX, args=["serve", "retail", TASK, "--out", str(out)])
    async with stdio_client(params) as streams, ClientSession(*streams) as session:
        await session.initialize()
        yield session
    with anyio.fail_after(15):
        while not out.exists():
            await anyio.sleep(0.05)


@asynccontextmanager
async def over_http(out: Path) -> AsyncIterator[ClientSession]:
    """A session with `statebox serve --http`; leaving the block closes the session (which ends the attempt),
    then SIGTERM stops the server and the process is reaped."""
    port = free_port()
    command = [STATEBOX, "serve", "retail", TASK, "--http", f"127.0.0.1:{port}", "--out", str(out)]
    log = out.with_name("serve-stderr.log")
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        await anyio.to_thread.run_sync(wait_for_port, port, process, log)
        url = f"http://127.0.0.1:{port}/mcp"
        async with streamable_http_client(url) as streams, ClientSession(*streams) as session:
            await session.initialize()
            yield session
        process.send_signal(signal.SIGTERM)
        code = await anyio.to_thread.run_sync(process.wait, 15)
        assert code == 0, f"statebox serve exited with {code}:\n{log.read_text()}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"statebox serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"statebox serve did not listen on port {port} after {timeout_s} s")


# -- the agent's side -----------------------------------------------------------------------------


async def replay(session: ClientSession, calls: list[RefCall]) -> None:
    """Run reference calls as an agent would, resolving ${name.field} against earlier JSON results."""
    saved: dict[str, Any] = {}
    for index, call in enumerate(calls):
        result = await session.call_tool(call.tool, resolve(call.args, saved))
        text = result_text(result)
        assert not result.is_error, f"reference call {index} ({call.tool}) failed: {text}"
        if call.save_as:
            saved[call.save_as] = json.loads(text)


def result_text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def resource_text(session: ClientSession, uri: str) -> str:
    contents = (await session.read_resource(uri)).contents
    assert len(contents) == 1 and isinstance(contents[0], types.TextResourceContents), contents
    return contents[0].text


def with_ticket_priority(calls: list[RefCall], priority: str) -> list[RefCall]:
    return [
        call.model_copy(update={"args": {**call.args, "priority": priority}}) if call.tool == "create_ticket" else call
        for call in calls
    ]


# -- the tests ------------------------------------------------------------------------------------


@dataclass
class AgentSession:
    """What an agent saw in one session with `statebox serve`, and what the operator got afterwards."""

    tool_names: list[str]
    resources: dict[str, str]
    written_while_connected: bool
    result: dict[str, Any]


async def run_agent_session(serve: Serve, out: Path, calls: list[RefCall]) -> AgentSession:
    async with serve(out) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        uris = [str(r.uri) for r in (await session.list_resources()).resources]
        resources = {uri: await resource_text(session, uri) for uri in uris}
        await replay(session, calls)
        written = out.exists()
    return AgentSession(names, resources, written, json.loads(out.read_text()))


@pytest.fixture(scope="module", params=[over_stdio, over_http], ids=["stdio", "http"])
def reference_session(
    request: pytest.FixtureRequest, retail: tuple[Task, list[str], str], tmp_path_factory: pytest.TempPathFactory
) -> AgentSession:
    """One served attempt per transport in which the agent looks around, then replays the reference."""
    task, _, _ = retail
    out = tmp_path_factory.mktemp(request.param.__name__) / "result.json"
    return anyio.run(run_agent_session, request.param, out, list(task.reference))


def test_serve_exposes_the_domain_tools_and_reply_to_customer_only(
    reference_session: AgentSession, retail: tuple[Task, list[str], str]
) -> None:
    _, domain_tools, _ = retail
    names = reference_session.tool_names
    assert [n for n in names if NOT_FOR_AGENTS.search(n)] == []
    assert sorted(names) == sorted([*domain_tools, "reply_to_customer"])


def test_serve_offers_the_policy_and_the_opening_message_as_resources(
    reference_session: AgentSession, retail: tuple[Task, list[str], str]
) -> None:
    task, _, policy = retail
    assert reference_session.resources == {
        "statebox://policy": policy,
        "statebox://opening-message": task.opening_message,
    }


def test_the_verdict_reaches_the_out_file_only_when_serving_ends(reference_session: AgentSession) -> None:
    assert not reference_session.written_while_connected
    assert reference_session.result["task"] == TASK


def test_replaying_the_reference_without_verifying_reaches_the_end_state_but_fails_the_trace_checks(
    reference_session: AgentSession,
) -> None:
    verdict = reference_session.result["verdict"]
    kinds = {d["kind"] for d in verdict["discrepancies"]}
    assert (verdict["state_passed"], verdict["passed"], kinds) == (True, False, {"policy_violation"}), verdict
    assert verdict["signature"] == "policy_violation"
    assert reference_session.result["effects"]["inserted"]["tickets"][0]["priority"] == "normal"


def test_a_wrong_write_fails_with_a_wrong_value_discrepancy(
    retail: tuple[Task, list[str], str], tmp_path: Path
) -> None:
    task, _, _ = retail
    calls = with_ticket_priority(list(task.reference), "urgent")
    verdict = anyio.run(run_agent_session, over_stdio, tmp_path / "result.json", calls).result["verdict"]
    assert verdict["passed"] is False
    state = [d for d in verdict["discrepancies"] if d["kind"] != "policy_violation"]  # the trace's come after
    assert [(d["kind"], d["table"], d["field"], d["expected"], d["actual"]) for d in state] == [
        ("wrong_value", "tickets", "priority", "normal", "urgent")
    ]
