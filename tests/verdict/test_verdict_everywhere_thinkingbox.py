"""One verdict everywhere on ThinkingBox-Bench (issue 25): the same play, the same verdict document on every surface.

On a task of the real release (its tool servers started by statebox), three plays — the reference's calls,
the reference with one argument changed (a wrong value), the reference with its last creating call made
again (an extra write) — are played by `statebox run`'s episode loop, then by an external agent through `statebox
serve` (the official MCP client over stdio), a proxy (the official MCP client over HTTP), OpenEnv (its own
client), `statebox import` and `statebox regrade`. The benchmark's tasks carry no trace checks and this one
no rubric, so the plays without verification and with a rubric answered no of the built-in domains have no
counterpart here. Runs only where the release is (../shared/thirdparty, or $STATEBOX_THIRDPARTY) and
STATEBOX_REAL_TB=1; skips saying why elsewhere. Nothing is excluded from the comparison.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from mcp import ClientSession, StdioServerParameters, stdio_client
from verdict_kit import STATEBOX, Step, imported, of_record, over_openenv, over_proxy, regraded, steps_of, store_run

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.record import TrialRecord
from statebox.tasks import RefCall, Task

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# The releases folder beside the project; STATEBOX_THIRDPARTY names another (a git worktree's checkout).
THIRDPARTY = Path(os.environ.get("STATEBOX_THIRDPARTY") or ROOT.parent / "shared" / "thirdparty")
SWITCH = "STATEBOX_REAL_TB"
SUITE = "thinkingbox-bench"
TASK = "sandbox_external_retail_group1.py:test_case_ST002_001"  # its reference inserts a ticket
SURFACES = ("serve_stdio", "proxy", "openenv", "import", "regrade")
PLAYS = ("reference", "wrong_value", "extra_write")


def _skip_reason() -> str | None:
    if not (THIRDPARTY / "README.md").is_file():
        return f"real ThinkingBox-Bench release not found at {THIRDPARTY} (a user's clone has none)"
    if os.environ.get(SWITCH) != "1":
        return f"real ThinkingBox-Bench tests are opt-in: set {SWITCH}=1 (.ci/run does)"
    return None


@pytest.fixture(scope="module")
def tb_env() -> Any:
    """The benchmark checkout and server Python, as benchmarks/tb_env.py builds them into .cache/tb-env."""
    reason = _skip_reason()
    if reason is not None:
        pytest.skip(reason)
    spec = importlib.util.spec_from_file_location("tb_env_for_verdict", ROOT / "benchmarks" / "tb_env.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))  # dataclasses look it up
    spec.loader.exec_module(module)
    return module.build_env(THIRDPARTY)


class CallsAgent(Agent):
    """Makes the given calls, verbatim and in order, then ends (a replay played as an agent's own)."""

    name = "calls"

    def __init__(self, calls: list[RefCall]) -> None:
        self.calls = calls

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        for i, call in enumerate(self.calls):
            ctx.log_call(f"calls-{i}", call.tool, dict(call.args))
            await ctx.call_tool(f"calls-{i}", call.tool, dict(call.args))
        return AgentTurn("", finish_reason="agent_ended")


def _plays(task: Task) -> dict[str, list[RefCall]]:
    calls = [c for c in task.reference if c.actor == "agent"]
    last = calls[-1]
    text_args = [k for k, v in last.args.items() if isinstance(v, str)]
    assert text_args, f"{task.id}: the last reference call has no text argument to spoil"
    spoiled = last.model_copy(update={"args": {**last.args, text_args[0]: "a value the task never asks for"}})
    # A second insert is an extra write (repeating an update to the same value would change nothing).
    insert = next((c for c in reversed(calls) if "create" in c.tool), last)
    return {"reference": calls, "wrong_value": [*calls[:-1], spoiled], "extra_write": [*calls, insert]}


async def _run(suite: Any, task: Task, calls: list[RefCall], repeat: int) -> TrialRecord:
    source = suite.attempt_source()
    source.prepare([task])
    async with source.running():
        plan = AttemptPlan(suite=suite, task=task, agent=CallsAgent(calls), customer=None, repeat=repeat,
                           backend=source.backend(task))  # fmt: skip
        return await run_attempt(plan)


async def _serve_stdio(tb_env: Any, steps: list[Step], out: Path) -> dict[str, Any]:
    args = ["serve", SUITE, TASK, "--user", "none", "--out", str(out), "--data", str(tb_env.data),
            "--server-python", str(tb_env.python)]  # fmt: skip
    async with stdio_client(StdioServerParameters(command=STATEBOX, args=args)) as streams, \
            ClientSession(*streams) as session:  # fmt: skip
        await session.initialize()
        for step in steps:
            await session.call_tool(step.tool, dict(step.arguments or {}))
    for _ in range(1200):
        if out.exists():
            break
        await asyncio.sleep(0.05)
    return dict(json.loads(out.read_text())["verdict"])


@dataclass
class Found:
    task: Task
    documents: dict[str, dict[str, dict[str, Any]]]


@pytest.fixture(scope="module")
def found(tb_env: Any, tmp_path_factory: pytest.TempPathFactory) -> Found:
    from statebox.compat.thinkingbox.options import TbRunOptions
    from statebox.compat.thinkingbox.suite import load_tb_suite

    work = tmp_path_factory.mktemp("tb-verdict")
    (work / "one.yaml").write_text(yaml.safe_dump([TASK]))
    suite = load_tb_suite(tb_env.data, work / "one.yaml", TbRunOptions(server_python=str(tb_env.python)))
    task = suite.task(TASK)
    documents: dict[str, dict[str, dict[str, Any]]] = {}
    records: dict[str, TrialRecord] = {}
    for repeat, (name, calls) in enumerate(_plays(task).items()):
        record = asyncio.run(_run(suite, task, calls, repeat))
        steps = steps_of(record.transcript)
        docs = {"run": of_record(record, task)}
        docs["serve_stdio"] = asyncio.run(_serve_stdio(tb_env, steps, work / f"{name}.json"))
        docs["proxy"] = asyncio.run(over_proxy(suite, task, steps, None, user=None))
        docs["openenv"] = asyncio.run(over_openenv(suite, task, steps, None))[1]
        (replayed,) = imported(suite, [record], work / name, None)
        docs["import"] = of_record(replayed, task)
        documents[name], records[name] = docs, record
    store_run(work / "run", list(records.values()))
    after = regraded(work / "run", work / "regraded", suite)
    for name, record in records.items():
        documents[name]["regrade"] = of_record(after[record.trial_id], task)
    return Found(task, documents)


@pytest.mark.parametrize("play", PLAYS)
@pytest.mark.parametrize("surface", SURFACES)
def test_every_surface_gives_the_verdict_document_run_gives(found: Found, play: str, surface: str) -> None:
    documents = found.documents[play]
    assert documents[surface] == documents["run"], f"{found.task.id} / {play}: {surface} differs from run"


def test_the_reference_passes_and_the_spoiled_plays_fail(found: Found) -> None:
    passed = {name: docs["run"]["passed"] for name, docs in found.documents.items()}
    assert passed == {"reference": True, "wrong_value": False, "extra_write": False}, found.documents
