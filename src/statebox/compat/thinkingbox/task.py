"""A ThinkingBox-Bench task as statebox runs it: a statebox `Task` (opening message, customer,
reference, rubrics, limits) that keeps the parsed `TbTask` alongside, for the init configs its
attempts send to the tool servers, and, for a custom-check task, where its check is."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field

from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.loader import TbCheckout
from statebox.compat.thinkingbox.models import CustomCheck, TbTask
from statebox.tasks import Customer, Limits, RefCall, Task

STEP_CAP = 100  # "unlimited" agent steps in the benchmark; statebox still stops a runaway loop
# The LLM customer's prompt lists FACTS separately; a benchmark customer's facts and rules are
# one free text (`user_context`), given as the goal.
CONTEXT_RULE = "Your GOAL text above also holds everything you know and how to behave: those details are your FACTS."


class TbBenchTask(Task):
    """A benchmark task as statebox runs it; `tb` is the task as parsed from its test file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tb: TbTask
    servers: list[str]  # the tool servers an attempt starts, in order
    setup_hash: str  # of everything else that defines an attempt: scenario, agent spec, servers
    # Set: the test function's own check grades the attempt. Left out of the task's JSON and content
    # hash (it holds machine paths); the test file's text is in `setup_hash` instead.
    custom_check: CustomCheck | None = Field(default=None, exclude=True)

    def asks_judge_model(self) -> bool:
        """A custom check may ask `judge(...)` questions, besides the task's rubrics."""
        return self.custom_check is not None or super().asks_judge_model()

    @property
    def check_kind(self) -> str:
        """How an attempt is graded: `database`, `database+rubrics` or `custom`."""
        return "custom" if self.custom_check is not None else "+".join(self.tb.checks).replace("_yesno", "")


def exposed_name(server: str, tool: str, servers: list[str]) -> str:
    """The name the agent sees: the tool's own, or `<server>__<tool>` when a task has several servers."""
    return f"{server}__{tool}" if len(servers) > 1 else tool


def bench_task(checkout: TbCheckout, tb: TbTask, shared: dict[str, str] | None = None) -> TbBenchTask:
    """One benchmark task as a statebox task; `shared` caches per-scenario hashes across tasks."""
    servers = checkout.task_servers(tb)
    reference = [call for server in servers for call in _reference(checkout, tb, server, servers)]
    steps = tb.max_agent_sim_turns or STEP_CAP
    cache = shared if shared is not None else {}
    if tb.scenario not in cache:
        cache[tb.scenario] = _scenario_hash(checkout, tb.scenario)
    setup: dict[str, Any] = {"scenario": cache[tb.scenario], "policy": checkout.policy(tb), "servers": servers}
    custom = checkout.custom_check(tb.id)
    if custom is not None:  # the check is the test file's code: its helpers and constants too
        setup["custom_check"] = hashlib.sha256(Path(custom.file).read_bytes()).hexdigest()
    return TbBenchTask(
        id=tb.id,
        domain=tb.domain,
        title=tb.path,
        opening_message=tb.query,
        customer=Customer(goal=tb.user_context or tb.query, rules=[CONTEXT_RULE]),
        reference=reference,
        rubrics=list(tb.rubrics),
        limits=Limits(max_turns=max(1, tb.max_user_sim_turns), max_steps_per_turn=steps, max_tool_errors=steps),
        tags=tb.tags,
        tb=tb,
        servers=servers,
        setup_hash=_digest(setup),
        custom_check=custom,
    )


def _reference(checkout: TbCheckout, tb: TbTask, server: str, servers: list[str]) -> list[RefCall]:
    golden = checkout.init_config(tb, server).config.get("golden_test_case") or {}
    steps = (golden.get("tool_interactions") or []) if isinstance(golden, dict) else None
    if not isinstance(steps, list):
        raise TbFormatError(f"{tb.id}: init.{server}.golden_test_case.tool_interactions must be a list")
    calls = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("tool"), str):
            raise TbFormatError(f"{tb.id}: init.{server}.golden_test_case.tool_interactions[{i}] has no tool name")
        args = step.get("parameters") or {}
        if not isinstance(args, dict):
            raise TbFormatError(f"{tb.id}: init.{server}.golden_test_case.tool_interactions[{i}].parameters")
        calls.append(RefCall(tool=exposed_name(server, step["tool"], servers), args=args))
    return calls


def _scenario_hash(checkout: TbCheckout, scenario: str) -> str:
    servers = checkout.servers()
    return _digest(
        {
            "scenario": checkout.scenario(scenario).model_dump(mode="json"),
            "agent": checkout.agent().model_dump(mode="json"),
            "servers": {name: entry.model_dump(mode="json") for name, entry in sorted(servers.servers.items())},
        }
    )


def _digest(data: Any) -> str:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
