"""The real ThinkingBox-Bench release served to outside agents: `statebox serve`, `statebox proxy` and
`statebox openenv-serve`, each played by the official client of its protocol (MCP, OpenEnv).

A task's reference, played call by call, passes; every `__reserved__` tool the benchmark's servers
use for setup and grading is absent from the listing and refused as an unknown tool, and calling
them leaves the graded state as it was.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from realenv import ROOT

from statebox.compat.thinkingbox.suite import load_tb_suite
from statebox.tasks import RefCall

STATEBOX = str(ROOT / ".venv" / "bin" / "statebox")
SUITE = "thinkingbox-bench"
TASK = "sandbox_external_retail_group1.py:test_case_ST002_001"  # its reference inserts a ticket: it changes state
# The benchmark servers' setup and grading tools, with arguments that would rewrite the graded state.
RESERVED: dict[str, dict[str, Any]] = {
    "__reserved__init": {"config": {"data_patch": {}}},
    "__reserved__geteffects": {},
    "__reserved__teardown": {},
    "__reserved__server_tool": {"tool": "zendesk_delete_item", "arguments": {"table": "zendesk_tickets", "id": "6"}},
}


@pytest.fixture(scope="module")
def reference(tb_env: Any, tmp_path_factory: pytest.TempPathFactory) -> list[RefCall]:
    test_list = tmp_path_factory.mktemp("serving") / "one.yaml"
    test_list.write_text(yaml.safe_dump([TASK]))
    calls = load_tb_suite(tb_env.data, test_list).task(TASK).reference
    assert calls, f"{TASK} has no reference calls"
    return calls


def suite_args(tb_env: Any) -> list[str]:
    return ["--data", str(tb_env.data), "--server-python", str(tb_env.python)]


@contextmanager
def process(command: list[str], ready_url: str, log: Path, timeout_s: float = 240.0) -> Iterator[None]:
    """A statebox server process until `ready_url` answers 200; SIGTERM and reaped afterwards."""
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "STATEBOX_TOKEN": ""})
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            assert proc.poll() is None, f"{command[1]} exited {proc.returncode}:\n{log.read_text()[-3000:]}"
            try:
                if httpx.get(ready_url, timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{command[1]} not ready after {timeout_s}s:\n{log.read_text()[-3000:]}"
            time.sleep(0.3)
        yield
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def play_reference(session: ClientSession, calls: list[RefCall]) -> None:
    for call in calls:
        result = await session.call_tool(call.tool, call.args)
        text = "".join(getattr(part, "text", "") for part in result.content)
        assert not result.is_error, f"{call.tool}: {text[:300]}"


async def refused_reserved(session: ClientSession) -> dict[str, str]:
    """Each reserved tool's answer, with its name replaced, beside the answer to a made-up tool."""
    answers = {}
    calls: list[tuple[str, dict[str, Any]]] = [*RESERVED.items(), ("no_such_tool_at_all", {})]
    for name, args in calls:
        result = await session.call_tool(name, args)
        text = "".join(getattr(part, "text", "") for part in result.content)
        answers[name] = f"{result.is_error} {text.replace(name, '<NAME>')}"
    return answers


def assert_reserved_refused(answers: dict[str, str], listed: list[str]) -> None:
    assert [n for n in listed if n.startswith("__reserved__")] == []
    unknown = answers.pop("no_such_tool_at_all")
    assert unknown.startswith("True Error (unknown_tool): Unknown tool '<NAME>'"), unknown
    assert {name: answer for name, answer in answers.items() if answer != unknown} == {}


def test_an_mcp_client_on_the_proxy_plays_a_reference_to_passed_and_cannot_reach_a_reserved_tool(
    tb_env: Any, reference: list[RefCall], tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [STATEBOX, "proxy", "--port", str(port), *suite_args(tb_env)]
    with process(command, f"{url}/ready", tmp_path / "proxy.log"):
        created = httpx.post(f"{url}/attempts", json={"suite": SUITE, "task": TASK, "user": None}, timeout=240)
        assert created.status_code == 201, created.text
        attempt = created.json()
        assert attempt["policy"] and attempt["opening_message"]

        async def agent() -> tuple[list[str], dict[str, str]]:
            async with streamable_http_client(attempt["mcp_url"]) as streams, ClientSession(*streams) as session:
                await session.initialize()
                listed = [t.name for t in (await session.list_tools()).tools]
                await play_reference(session, reference)
                return listed, await refused_reserved(session)

        listed, answers = asyncio.run(agent())
        assert_reserved_refused(answers, listed)
        result = httpx.get(f"{url}/attempts/{attempt['id']}/effects", timeout=120).json()
        assert result["verdict"]["passed"] is True, json.dumps(result["verdict"])[:2000]
        assert result["effects"]["inserted"], result["effects"]  # the reference's ticket, read from the servers
        assert httpx.delete(f"{url}/attempts/{attempt['id']}", timeout=60).status_code == 204
        assert httpx.get(f"{url}/attempts/{attempt['id']}").status_code == 404


def test_serve_on_stdio_plays_a_reference_and_writes_a_passed_verdict(
    tb_env: Any, reference: list[RefCall], tmp_path: Path
) -> None:
    out = tmp_path / "result.json"
    args = ["serve", SUITE, TASK, *suite_args(tb_env), "--out", str(out)]
    params = StdioServerParameters(command=STATEBOX, args=args)

    async def agent() -> tuple[list[str], dict[str, str]]:
        async with stdio_client(params) as streams, ClientSession(*streams) as session:
            await session.initialize()
            listed = [t.name for t in (await session.list_tools()).tools]
            answers = await refused_reserved(session)  # before the reference: a reserved call changes nothing
            await play_reference(session, reference)
            return listed, answers

    listed, answers = asyncio.run(agent())
    assert_reserved_refused(answers, listed)
    deadline = time.monotonic() + 60
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    result = json.loads(out.read_text())
    assert result["verdict"]["passed"] is True, json.dumps(result["verdict"])[:2000]


def test_openenv_serve_plays_a_reference_to_reward_one_with_openenvs_own_client(
    tb_env: Any, reference: list[RefCall], tmp_path: Path
) -> None:
    from statebox.openenv.client import StateboxEnv
    from statebox.openenv.models import StateboxAction

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [STATEBOX, "openenv-serve", SUITE, "--port", str(port), *suite_args(tb_env)]
    with process(command, f"{url}/ready", tmp_path / "openenv.log"):

        async def episode() -> tuple[Any, Any, list[str]]:
            async with StateboxEnv(base_url=url, message_timeout_s=240) as env:
                start = await env.reset(task_id=TASK)
                listed = [t["name"] for t in start.observation.tools]
                refused = await env.step(StateboxAction(tool="__reserved__geteffects", arguments={}))
                for call in reference:
                    step = await env.step(StateboxAction(tool=call.tool, arguments=call.args))
                    assert not step.observation.is_error, f"{call.tool}: {step.observation.text[:300]}"
                    assert not step.done, f"{call.tool} ended the episode"
                return refused, await env.step(StateboxAction(end=True)), listed

        refused, last, listed = asyncio.run(episode())
        assert [n for n in listed if n.startswith("__reserved__")] == []
        assert (refused.observation.is_error, refused.observation.error_kind) == (True, "unknown_tool")
        assert last.done and last.reward == 1.0, json.dumps(last.observation.info)[:2000]
        assert last.observation.info["discrepancies"] == []
        assert last.observation.info["effects"]["inserted"]
