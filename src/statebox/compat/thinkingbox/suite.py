"""ThinkingBox-Bench as a statebox suite: the checkout's tasks as `Task`s, selection, content hash.

Each benchmark task becomes a `TbBenchTask`: a statebox `Task` (opening message, customer,
reference, rubrics, limits) that keeps the parsed `TbTask` alongside, for the init configs its
attempts send to the tool servers.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict

from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.loader import TbCheckout, Unsupported
from statebox.compat.thinkingbox.models import TbTask
from statebox.tasks import Customer, Limits, RefCall, Task

if TYPE_CHECKING:
    from statebox.runner.source import AttemptSource

SUITE_NAME = "thinkingbox-bench"
EMBEDDED_SEARCH = "embedded-fts5"
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


@dataclass(frozen=True)
class TbRunOptions:
    """How attempts run: the servers' Python, the search backend, fork or plain start."""

    server_python: str = sys.executable
    typesense_url: str | None = None  # None: statebox answers search_policy with embedded search
    fork: bool = True
    prefork: int = 2  # children forked ahead of demand, per server
    call_timeout_s: float = 60.0  # a server that does not answer a call in time is hung
    start_timeout_s: float = 120.0  # start, MCP handshake and init of one attempt's servers

    @property
    def search_backend(self) -> str:
        return f"typesense:{self.typesense_url}" if self.typesense_url else EMBEDDED_SEARCH


def exposed_name(server: str, tool: str, servers: list[str]) -> str:
    """The name the agent sees: the tool's own, or `<server>__<tool>` when a task has several servers."""
    return f"{server}__{tool}" if len(servers) > 1 else tool


@dataclass
class TbSuite:
    """The supported tasks of a test list of one checkout, plus how their attempts run."""

    checkout: TbCheckout
    tasks: list[Task]  # all TbBenchTask
    unsupported: list[Unsupported] = field(default_factory=list)
    test_list: Path | None = None
    options: TbRunOptions = field(default_factory=TbRunOptions)
    name: str = SUITE_NAME

    def task(self, task_id: str) -> TbBenchTask:
        for task in self.tasks:
            if task.id == task_id:
                return bench_task_of(task)
        raise LookupError(f"suite {self.name!r} has no task {task_id!r}")

    def select(self, patterns: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> TbSuite:
        """The tasks whose ids match any glob (and are in `ids`, when given)."""
        pats = list(patterns or [])
        wanted = set(ids) if ids is not None else None
        if wanted is not None and (missing := wanted - {t.id for t in self.tasks}):
            raise LookupError(f"suite {self.name!r} has no task(s) {sorted(missing)}")
        chosen = [
            t
            for t in self.tasks
            if (not pats or any(fnmatch.fnmatchcase(t.id, p) for p in pats)) and (wanted is None or t.id in wanted)
        ]
        return TbSuite(self.checkout, chosen, self.unsupported, self.test_list, self.options, self.name)

    def with_options(self, options: TbRunOptions) -> TbSuite:
        return TbSuite(self.checkout, self.tasks, self.unsupported, self.test_list, options, self.name)

    def content_hash(self) -> str:
        h = hashlib.sha256()
        for t in sorted(self.tasks, key=lambda t: t.id):
            h.update(f"{t.id}:{t.content_hash()}\n".encode())
        return h.hexdigest()[:16]

    def attempt_source(self) -> AttemptSource:
        from statebox.compat.thinkingbox.source import TbSource  # the runner side imports this module

        return TbSource(self)


def bench_task_of(task: Task) -> TbBenchTask:
    if not isinstance(task, TbBenchTask):
        raise TypeError(f"task {task.id!r} is not a ThinkingBox-Bench task")
    return task


def load_tb_suite(
    data: str | Path, test_list: str | Path | None = None, options: TbRunOptions | None = None
) -> TbSuite:
    """The suite of a checkout's test list (default: the canonical one); test files are only parsed."""
    checkout = TbCheckout(data)
    parsed, unsupported = checkout.tasks(test_list)
    shared: dict[str, str] = {}
    tasks: list[Task] = [bench_task(checkout, tb, shared) for tb in parsed]
    path = Path(test_list).resolve() if test_list is not None else None
    return TbSuite(checkout, tasks, unsupported, path, options or TbRunOptions())


def bench_task(checkout: TbCheckout, tb: TbTask, shared: dict[str, str] | None = None) -> TbBenchTask:
    """One benchmark task as a statebox task; `shared` caches per-scenario hashes across tasks."""
    servers = checkout.task_servers(tb)
    reference = [call for server in servers for call in _reference(checkout, tb, server, servers)]
    steps = tb.max_agent_sim_turns or STEP_CAP
    cache = shared if shared is not None else {}
    if tb.scenario not in cache:
        cache[tb.scenario] = _scenario_hash(checkout, tb.scenario)
    setup = {"scenario": cache[tb.scenario], "policy": checkout.policy(tb), "servers": servers}
    return TbBenchTask(
        id=tb.id,
        domain=tb.domain,
        title=tb.path,
        opening_message=tb.query,
        customer=Customer(goal=tb.user_context or tb.query, rules=[CONTEXT_RULE]),
        reference=reference,
        rubrics=tb.rubrics,
        limits=Limits(max_turns=max(1, tb.max_user_sim_turns), max_steps_per_turn=steps, max_tool_errors=steps),
        tags=tb.tags,
        tb=tb,
        servers=servers,
        setup_hash=_digest(setup),
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
