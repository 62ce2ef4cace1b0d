"""τ-bench through statebox's surfaces: `statebox run` with the LLM agent (a scripted endpoint), the reference
and the no-op; `statebox proxy` and `statebox serve` played by the official MCP client, which never sees or
reaches a reserved tool."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from tau_scripted_model import TauScriptedModel

from statebox.compat.taubench.suite import load_tau_suite
from statebox.fakemodel.serve import FakeModelServer
from statebox.runner.store import RunDir

STATEBOX = str(Path(sys.executable).with_name("statebox"))
CANCEL = {"reservation_id": "Z7GOZK"}  # airline task 1's one action
RESERVED = {
    "__reserved__init": {"split": "test", "index": 0},
    "__reserved__effects": {"responses": []},
    "__reserved__hash": {},
}


def statebox(
    *args: str | Path, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}} | {"COLUMNS": "300"} | (env or {})
    return subprocess.run(
        [STATEBOX, *map(str, args)], capture_output=True, text=True, env=environ, timeout=timeout, check=False
    )


def suite_args(tau_env: Any) -> list[str]:
    return ["--data", str(tau_env.data), "--server-python", str(tau_env.python)]


def test_run_with_the_llm_agent_on_retail_completes_with_verdicts(tau_env: Any, tmp_path: Path) -> None:
    suite = load_tau_suite(tau_env.data, "retail")
    model = TauScriptedModel(suite)
    chosen = [t.id for t in suite.tasks if t.opening_message in model.tasks and not suite.tau_task(t.id).tau.outputs][
        :2
    ]
    with FakeModelServer(model) as server:  # type: ignore[arg-type]
        done = statebox(
            "run",
            "tau-bench:retail",
            *suite_args(tau_env),
            "--out",
            tmp_path / "run",
            "--agent",
            "llm",
            "--model",
            "openai:scripted",
            "--base-url",
            server.base_url,
            "--user",
            "llm",
            "--user-model",
            "openai:scripted",
            *[a for i in chosen for a in ("--tasks", i)],
            "--no-progress",
            env={"OPENAI_API_KEY": "unused"},
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    trials = RunDir(tmp_path / "run").trials()
    assert sorted(t.task_id for t in trials) == sorted(chosen)
    assert all(t.passed and t.agent == "llm" and t.user == "llm" for t in trials), [
        (t.task_id, t.discrepancies) for t in trials
    ]
    assert all(t.effects["tau_bench"]["reward"] == 1.0 for t in trials)
    assert model.requests["customer"] >= 1 and "customer_ended" in {t.finish_reason for t in trials}, model.requests


def test_run_reference_passes_and_noop_fails_a_writing_task(tau_env: Any, tmp_path: Path) -> None:
    for agent in ("reference", "noop"):
        done = statebox(
            "run",
            "tau-bench:airline",
            *suite_args(tau_env),
            "--out",
            tmp_path / agent,
            "--agent",
            agent,
            "--tasks",
            "1",
            "--tasks",
            "2",
            "--no-progress",
        )
        assert done.returncode == 0, done.stderr[-3000:]
    reference, noop = (RunDir(tmp_path / a).trials() for a in ("reference", "noop"))
    assert [t.passed for t in reference] == [True, True], [t.discrepancies for t in reference]
    assert [t.passed for t in noop] == [False, False]
    assert {d.kind for t in noop for d in t.discrepancies} == {"missing_effect"}


@contextmanager
def proxy(tau_env: Any, log: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [STATEBOX, "proxy", "--port", str(port), *suite_args(tau_env)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "STATEBOX_TOKEN": ""},
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                if httpx.get(f"{url}/ready", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.3)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def play(session: ClientSession) -> tuple[list[str], dict[str, str]]:
    """List the tools, try every reserved one (refused like a made-up name), then cancel the reservation."""
    await session.initialize()
    listed = [t.name for t in (await session.list_tools()).tools]
    answers = {}
    for name, args in [*RESERVED.items(), ("no_such_tool", {})]:
        result = await session.call_tool(name, args)
        answers[name] = f"{result.is_error} " + "".join(getattr(p, "text", "") for p in result.content).replace(
            name, "<N>"
        )
    result = await session.call_tool("cancel_reservation", CANCEL)
    assert not result.is_error, result.content
    return listed, answers


def assert_reserved_refused(listed: list[str], answers: dict[str, str]) -> None:
    assert "cancel_reservation" in listed and [n for n in listed if n.startswith("__reserved__")] == []
    unknown = answers.pop("no_such_tool")
    assert unknown.startswith("True "), unknown
    assert {name: a for name, a in answers.items() if a != unknown} == {}


def test_an_mcp_client_on_the_proxy_gets_a_verdict_and_no_reserved_tool(tau_env: Any, tmp_path: Path) -> None:
    with proxy(tau_env, tmp_path / "proxy.log") as url:
        created = httpx.post(
            f"{url}/attempts", json={"suite": "tau-bench:airline", "task": "1", "user": None}, timeout=240
        )
        assert created.status_code == 201, created.text
        attempt = created.json()
        assert "Airline Agent Policy" in attempt["policy"]

        async def agent() -> tuple[list[str], dict[str, str]]:
            async with streamable_http_client(attempt["mcp_url"]) as streams, ClientSession(*streams) as session:
                return await play(session)

        assert_reserved_refused(*asyncio.run(agent()))
        result = httpx.get(f"{url}/attempts/{attempt['id']}/effects", timeout=120).json()
        assert result["verdict"]["passed"] is True, json.dumps(result["verdict"])[:2000]
        assert result["effects"]["updated"]["reservations"][0]["key"] == "Z7GOZK"


def test_serve_over_http_writes_a_passed_verdict_when_it_ends(tau_env: Any, tmp_path: Path) -> None:
    # Over HTTP, not stdio: the official stdio client kills its server 2 s after closing it, and grading a
    # τ-bench attempt (its reward hashes all the data twice) takes about that on a loaded machine.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out, log = tmp_path / "result.json", tmp_path / "serve.log"
    command = [
        STATEBOX,
        "serve",
        "tau-bench:airline",
        "1",
        *suite_args(tau_env),
        "--http",
        f"127.0.0.1:{port}",
        "--out",
        str(out),
    ]
    with log.open("wb") as sink:
        proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while b"serving tau-bench:airline/1 at" not in log.read_bytes():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)

        async def agent() -> tuple[list[str], dict[str, str]]:
            async with (
                streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams,
                ClientSession(*streams) as session,
            ):
                return await play(session)

        assert_reserved_refused(*asyncio.run(agent()))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
    assert json.loads(out.read_text())["verdict"]["passed"] is True, log.read_text()[-3000:]


@pytest.mark.parametrize("suite", ["tau-bench:retail:train", "tau-bench:retail:dev"])
def test_the_other_retail_splits_open_by_name(tau_env: Any, suite: str) -> None:
    done = statebox("tasks", suite, "--data", tau_env.data, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["split"] == suite.rsplit(":", 1)[1], done.stderr


def test_openenv_serve_plays_airline_task_1_to_reward_one_with_openenvs_own_client(
    tau_env: Any, tmp_path: Path
) -> None:
    from statebox.openenv.client import StateboxEnv
    from statebox.openenv.models import StateboxAction

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url, log = f"http://127.0.0.1:{port}", tmp_path / "openenv.log"
    command = [STATEBOX, "openenv-serve", "tau-bench:airline", "--port", str(port), *suite_args(tau_env)]
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            command, stdout=sink, stderr=subprocess.STDOUT, env={**os.environ, "STATEBOX_TOKEN": ""}
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            try:
                if httpx.get(f"{url}/ready", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)

        async def episode() -> tuple[Any, Any, list[str]]:
            async with StateboxEnv(base_url=url, message_timeout_s=240) as env:
                start = await env.reset(task_id="1")
                listed = [t["name"] for t in start.observation.tools]
                refused = await env.step(StateboxAction(tool="__reserved__effects", arguments={"responses": []}))
                step = await env.step(StateboxAction(tool="cancel_reservation", arguments=CANCEL))
                assert not step.observation.is_error, step.observation.text[:300]
                return refused, await env.step(StateboxAction(end=True)), listed

        refused, last, listed = asyncio.run(episode())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert [n for n in listed if n.startswith("__reserved__")] == [] and "cancel_reservation" in listed
    assert (refused.observation.is_error, refused.observation.error_kind) == (True, "unknown_tool")
    assert last.done and last.reward == 1.0, json.dumps(last.observation.info)[:2000]
