"""ThinkingBox-Bench through `inspect eval statebox/thinkingbox_bench` and through `statebox run`, the same play.

The fake model plays each task's reference calls: it is given the suite's tasks, with no tool counted as a
write (no mistake mode applies to a suite that is not built-in). The judge is a fake server of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.runner.judging import verdict_of_record
from statebox.runner.record import TrialRecord
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task

BIN = Path(sys.executable).parent


@dataclass
class NoWrites:
    tools: dict[str, Any] = field(default_factory=dict)


@dataclass
class ReferencePlays:
    """What the fake model needs of a suite, for one that is not built-in: its tasks (their references)."""

    suite: TaskSet

    @property
    def tasks(self) -> list[Task]:
        return self.suite.tasks

    def domain_of(self, task: Task) -> NoWrites:
        return NoWrites()


@dataclass(frozen=True)
class Bench:
    """A checkout of the benchmark's data, the Python its servers run on, and the tasks to play."""

    data: Path
    python: str
    suite: TaskSet
    tasks: list[str]
    llm_customer: bool = False  # the customer: statebox's LLM customer (Inspect's `customer` role), else scripted


def fake_server(suite: TaskSet, judge_answer: Literal["yes", "no"] = "yes") -> FakeModelServer:
    config = FakeModelConfig(mode="reference", judge_answer=judge_answer)
    return FakeModelServer(FakeModelApp(ReferencePlays(suite), config))  # type: ignore[arg-type]


def inspect_eval_cli(bench: Bench, logs: Path, judge_answer: Literal["yes", "no"]) -> tuple[EvalLog, dict[str, Any]]:
    """`inspect eval statebox/thinkingbox_bench` on the command line, the judge role on a server of its own;
    the log and what each server was asked (by role)."""
    with ExitStack() as stack:
        agent = stack.enter_context(fake_server(bench.suite))
        judge = stack.enter_context(fake_server(bench.suite, judge_answer))
        env = {**os.environ, "FAKE_BASE_URL": agent.base_url, "FAKEJUDGE_BASE_URL": judge.base_url,
               "FAKE_API_KEY": "unused", "FAKEJUDGE_API_KEY": "unused"}  # fmt: skip
        command = [str(BIN / "inspect"), "eval", "statebox/thinkingbox_bench", "-T", f"data={bench.data}",
                   "-T", f"server_python={bench.python}", "-T", f"tasks={','.join(bench.tasks)}",
                   "--model", "openai-api/fake/agent", "--model-role", "judge=openai-api/fakejudge/judge",
                   "--log-dir", str(logs), "--display", "none"]  # fmt: skip
        if bench.llm_customer:  # the agent's server answers it too, told apart by the x-statebox-role header
            command += ["--model-role", "customer=openai-api/fake/customer"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        seen = {"agent": agent.app.stats.by_role, "judge": judge.app.stats.by_role}
    assert done.returncode == 0, done.stderr[-3000:]
    (info,) = list_eval_logs(str(logs))
    log = read_eval_log(info)
    assert log.status == "success", log.error
    return log, seen


def statebox_run_verdicts(bench: Bench, out: Path, judge_answer: Literal["yes", "no"]) -> dict[str, dict[str, Any]]:
    """The same play by `statebox run` (one fake server for the agent and the judge): task id -> verdict document."""
    with fake_server(bench.suite, judge_answer) as server:
        command = [str(BIN / "statebox"), "run", "thinkingbox-bench", "--data", str(bench.data),
                   "--server-python", bench.python, "--agent", "llm", "--model", "openai:fake-agent",
                   "--judge-model", "openai:fake-judge", "--base-url", server.base_url,
                   "--out", str(out), "--no-progress", *[a for t in bench.tasks for a in ("--tasks", t)]]  # fmt: skip
        command += (
            ["--user", "llm", "--user-model", "openai:fake-customer"] if bench.llm_customer else ["--user", "scripted"]
        )
        env = {**os.environ, "OPENAI_API_KEY": "unused"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    trials = [TrialRecord.model_validate_json(line) for line in (out / "trials.jsonl").read_text().splitlines()]
    return {t.task_id: verdict_of_record(t).model_dump(mode="json") for t in trials}


def verdicts(log: EvalLog) -> dict[str, dict[str, Any]]:
    """Sample id -> the score's metadata (the verdict document under `verdict`), with the score's value."""
    found: dict[str, dict[str, Any]] = {}
    for sample in log.samples or []:
        assert sample.scores is not None
        score = sample.scores["statebox_judge"]
        found[str(sample.id)] = {**(score.metadata or {}), "value": score.value}
    return found
