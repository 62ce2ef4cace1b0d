"""The plays of the cross-surface verdict test, and each surface driven through its real transport.

A play is first played by `statebox run`'s episode loop (the fake model's scripted agent over HTTP, or
an agent that calls the reference without a word to the customer), with the task's scripted customer.
Its agent steps (tool calls and messages to the customer) are then played, verbatim, by an external
agent through every other surface; the scripted customer answers there as it did in `run`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import httpx
import mcp_types as types
from mcp import Client, ClientSession, StdioServerParameters, stdio_client

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.llm_agent import LlmAgent
from statebox.agents.transcript import Transcript
from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.importing.engine import import_run
from statebox.importing.recorded import ImportPlan, RecordedAttempt, RecordedStep
from statebox.importing.registry import Importer
from statebox.judge import required_effects
from statebox.judge.rubrics import RubricJudge
from statebox.llm import ModelClient, make_client
from statebox.mcp import running_proxy
from statebox.offline.regrade import regrade_run
from statebox.runner.backend import WorldBackend
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.hosted_suite import HostedAttemptFactory
from statebox.runner.judging import VerdictDocument, verdict_of_record
from statebox.runner.manifest import Manifest
from statebox.runner.record import RecordedOutcome, TrialRecord
from statebox.runner.store import RunDir
from statebox.runner.taskset import TaskSet
from statebox.suites import Suite
from statebox.tasks import Task
from statebox.tasks.checks import VerifyBefore
from statebox.tasks.references import resolve
from statebox.users.scripted import ScriptedCustomer

STATEBOX = str(Path(sys.executable).with_name("statebox"))
FAKE_MODEL = "openai:fake"
Kind = Literal["call", "say"]


@dataclass(frozen=True)
class Play:
    """One way of playing a task: the fake model's mode (or `unverified`) and the judge model's answer."""

    name: str
    mode: str  # a fake-model mode, or "unverified": the reference's calls and nothing said
    judge_answer: str = "yes"


PLAYS = (
    Play("careful_reference", "reference"),
    Play("unverified_reference", "unverified"),
    Play("wrong_value", "wrong-value"),
    Play("extra_write", "extra-write"),
    Play("rubric_failure", "reference", judge_answer="no"),
)


@dataclass(frozen=True)
class Step:
    """What the agent did, in order: a tool call, or a message to the customer."""

    kind: Kind
    tool: str = ""
    arguments: Mapping[str, Any] | None = None
    text: str = ""


class UnverifiedAgent(Agent):
    """An agent that makes the reference's calls at once, never asking the customer anything, and ends;
    it leaves out the calls that verify the customer (a verify_before check's `verified_by` tools)."""

    name = "unverified"

    def __init__(self, task: Task) -> None:
        verifying = {t for c in task.checks if isinstance(c, VerifyBefore) for t in c.verified_by}
        self.calls = [c for c in task.reference if c.actor == "agent" and c.tool not in verifying]

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        saved: dict[str, Any] = {}
        for i, call in enumerate(self.calls):
            args = resolve(call.args, saved)
            ctx.log_call(f"unverified-{i}", call.tool, args)
            outcome = await ctx.call_tool(f"unverified-{i}", call.tool, args)
            if call.save_as:
                saved[call.save_as] = outcome.data if outcome.data is not None else json.loads(outcome.text)
        return AgentTurn("", finish_reason="agent_ended")


def fake_server(suite: Suite, play: Play) -> FakeModelServer:
    mode = "reference" if play.mode == "unverified" else play.mode
    return FakeModelServer(FakeModelApp(suite, FakeModelConfig(mode=mode, judge_answer=play.judge_answer)))  # type: ignore[arg-type]


def client(base_url: str) -> ModelClient:
    return make_client(FAKE_MODEL, base_url=base_url)


def judge_for(base_url: str | None) -> ModelClient | None:
    """The fake judge model at `base_url`; None: the surface has no judge model."""
    return client(base_url) if base_url is not None else None


async def closed(judge: ModelClient | None) -> None:
    if judge is not None:
        await judge.aclose()


async def run_play(suite: Suite, task: Task, play: Play, base_url: str, repeat: int) -> TrialRecord:
    """`statebox run`'s episode loop on the play, with the scripted customer and the fake judge model
    (`repeat`: the play's own, so that each play of a task is a trial of its own in the stored run)."""
    agent_client, judge_client = client(base_url), client(base_url)
    try:
        agent: Agent = UnverifiedAgent(task) if play.mode == "unverified" else LlmAgent(agent_client, task.limits)
        plan = AttemptPlan(
            suite=suite, task=task, agent=agent, customer=ScriptedCustomer(task.customer), repeat=repeat,
            backend=WorldBackend(suite, task, required_effects(suite, task)), rubric_judge=RubricJudge(judge_client),
        )  # fmt: skip
        return await run_attempt(plan)
    finally:
        await agent_client.aclose()
        await judge_client.aclose()


def steps_of(transcript: Transcript) -> list[Step]:
    """The agent's steps after the customer's opening (the customer's messages are answered live)."""
    steps: list[Step] = []
    for entry in transcript.entries[1:]:
        if entry.role != "agent":
            continue
        steps += [Step("call", c.name, c.arguments or {}) for c in entry.tool_calls]
        if entry.content and not entry.tool_calls:
            steps.append(Step("say", text=entry.content))
    return steps


def document(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A surface's verdict document, checked against the model and as JSON."""
    return VerdictDocument.model_validate(verdict).model_dump(mode="json")


def of_record(record: TrialRecord, task: Task) -> dict[str, Any]:
    return verdict_of_record(record, task).model_dump(mode="json")


# -- MCP: `statebox serve` over stdio, `statebox proxy` over HTTP -------------------------------------------


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def play_over_mcp(session: ClientSession | Client, steps: list[Step]) -> None:
    """The external agent: every call as an MCP tool call, every message through `reply_to_customer`."""
    for step in steps:
        if step.kind == "call":
            await session.call_tool(step.tool, dict(step.arguments or {}))
        else:
            await session.call_tool("reply_to_customer", {"message": step.text})


async def over_serve_stdio(domain: str, task: Task, steps: list[Step], base_url: str, out: Path) -> dict[str, Any]:
    """`statebox serve DOMAIN TASK --user scripted --judge-model ...` on stdio; the verdict from `--out`."""
    args = ["serve", domain, task.id, "--user", "scripted", "--out", str(out), "--judge-model", FAKE_MODEL,
            "--base-url", base_url]  # fmt: skip
    params = StdioServerParameters(command=STATEBOX, args=args)
    async with stdio_client(params) as streams, ClientSession(*streams) as session:
        await session.initialize()
        await play_over_mcp(session, steps)
    for _ in range(300):  # the verdict is written once serving ends (stdin closed)
        if out.exists():
            break
        await asyncio.sleep(0.05)
    return dict(json.loads(out.read_text())["verdict"])


async def over_proxy(
    suite: TaskSet, task: Task, steps: list[Step], base_url: str | None, user: str | None = "scripted"
) -> dict[str, Any]:
    """A proxy serving the suite over HTTP: an attempt created, played over its MCP URL, `GET .../effects`."""
    judge = judge_for(base_url)
    factory = HostedAttemptFactory(lambda name: suite, None, judge)
    try:
        async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url, timeout=60) as operator:
            created = await operator.post("/attempts", json={"suite": suite.name, "task": task.id, "user": user})
            assert created.status_code == 201, created.text
            attempt = created.json()
            async with Client(attempt["mcp_url"]) as agent:
                await play_over_mcp(agent, steps)
            result = await operator.get(f"/attempts/{attempt['id']}/effects")
            assert result.status_code == 200, result.text
            return dict(result.json()["verdict"])
    finally:
        await closed(judge)


# -- OpenEnv: `openenv-serve`'s app over HTTP and WebSocket, OpenEnv's own client ----------------------------


async def over_openenv(
    suite: TaskSet, task: Task, steps: list[Step], base_url: str | None
) -> tuple[float, dict[str, Any]]:
    """One episode through OpenEnv's client; the reward and the verdict document of the final observation."""
    from statebox.mcp.http_serving import serving
    from statebox.openenv.client import StateboxEnv
    from statebox.openenv.models import StateboxAction
    from statebox.openenv.server import create_openenv_app
    from statebox.openenv.source import EpisodeSource

    judge = judge_for(base_url)
    source = EpisodeSource(suite, judge_client=judge)
    try:
        async with source.running(), serving(create_openenv_app(source)) as url, StateboxEnv(base_url=url) as env:
            await env.reset(task_id=task.id)
            result = None
            for step in steps:
                action = StateboxAction(tool=step.tool, arguments=dict(step.arguments or {})) if step.kind == "call" \
                    else StateboxAction(message=step.text)  # fmt: skip
                result = await env.step(action)
            if result is None or not result.done:
                result = await env.step(StateboxAction(end=True))
            info = result.observation.info
            assert result.reward == (1.0 if info["verdict"]["passed"] else 0.0), (result.reward, info["verdict"])
            return float(result.reward or 0.0), dict(info["verdict"])
    finally:
        await closed(judge)


# -- Inspect AI: the statebox task's solver played by Inspect's OpenAI-compatible provider, its scorer ----------


def over_inspect(suite: Suite, task: Task, base_url: str, log_dir: Path) -> dict[str, Any]:
    """One Inspect sample of the task, the agent the fake model behind Inspect's provider; the scorer's document."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from statebox.integrations.inspect_task import statebox_task

    model = get_model("openai-api/fake/fake-agent", base_url=base_url, api_key="unused")
    evaluated = statebox_task(suite, [task.id], judge_model=FAKE_MODEL, base_url=base_url)
    (log,) = inspect_eval(evaluated, model=model, display="none", log_dir=str(log_dir))
    assert log.status == "success", log.error
    (sample,) = log.samples or []
    assert sample.scores is not None
    return dict((sample.scores["statebox_judge"].metadata or {})["verdict"])


# -- offline: `statebox regrade` on the stored run, `statebox import` of the recorded conversation ----------


def store_run(run: Path, records: list[TrialRecord]) -> None:
    store = RunDir(run)
    store.write_manifest(Manifest(suite=records[0].suite, agent="llm", models=[FAKE_MODEL], repeat=1))
    for record in records:
        store.append_trial(record)


def regraded(run: Path, out: Path, suite: TaskSet) -> dict[str, TrialRecord]:
    regrade_run(run, out, suite, [])
    return {r.trial_id: r for r in RunDir(out).trials()}


class RecordedPlays(Importer):
    """An importer of the plays' recorded conversations (a JSON list of `RecordedAttempt`s) on a suite."""

    format = "verdict-plays"

    def __init__(self, suite: TaskSet) -> None:
        self.suite = suite

    def read(self, path: Path, options: Mapping[str, Any]) -> ImportPlan:
        attempts = [RecordedAttempt.model_validate(a) for a in json.loads(path.read_text())]
        return ImportPlan(suite=self.suite, attempts=attempts, model=FAKE_MODEL)


def recorded(record: TrialRecord, index: int) -> RecordedAttempt:
    """A run's conversation as a recording: the agent's steps and the customer's messages, in order."""
    steps: list[RecordedStep] = []
    entries = record.transcript.entries
    for i, entry in enumerate(entries[1:], start=1):
        if entry.role == "agent":
            steps += [RecordedStep(kind="call", tool=c.name, arguments=c.arguments or {}) for c in entry.tool_calls]
            if entry.content and not entry.tool_calls:
                steps.append(RecordedStep(kind="say", text=entry.content))
        elif entry.role == "customer" and entry.content:
            last = i == len(entries) - 1 and record.finish_reason == "customer_ended"
            steps.append(RecordedStep(kind="hear", text=entry.content, ends=last))
    outcome = RecordedOutcome(format=RecordedPlays.format, record=index, reward=None, passed=record.passed)
    return RecordedAttempt(task_id=record.task_id, repeat=index, record=index, opening=entries[0].content,
                           steps=steps, finished=True, recorded=outcome)  # fmt: skip


def imported(suite: TaskSet, records: list[TrialRecord], work: Path, base_url: str | None) -> list[TrialRecord]:
    work.mkdir(parents=True, exist_ok=True)
    path = work / "plays.json"
    path.write_text(json.dumps([recorded(r, i).model_dump(mode="json") for i, r in enumerate(records)]))
    judge = judge_for(base_url)
    try:
        return import_run(RecordedPlays(suite), path, work / "imported", {}, judge_client=judge).trials
    finally:
        asyncio.run(closed(judge))
