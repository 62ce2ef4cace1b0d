"""ThinkingBox-Bench as an Inspect task (`statebox/thinkingbox_bench -T data=DIR -T server_python=PY`), on the
fake checkout (tests/tbfakes): the benchmark's own tool servers per attempt, the verdict document `statebox run`
gives the same play, and the `judge` model role answering the rubric variant's question.

The fake model plays each task's reference calls (it is told the tasks, with no tool counted as a write, so
no mistake mode applies); a judge server of its own answers "no", so the rubric variant fails on its rubric.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.integrations.inspect_task.thinkingbox import open_thinkingbox
from statebox.runner.judging import verdict_of_record
from statebox.runner.record import TrialRecord
from statebox.tasks import Task
from statebox.tasks.provider import TaskSet
from tbfakes import RETAIL_FILE, RUBRIC_FILE, FakeCheckout, make_fake_checkout

pytestmark = pytest.mark.slow  # each attempt starts the benchmark's tool-server processes
BIN = Path(sys.executable).parent
TASKS = [
    f"{RETAIL_FILE}:test_cancel_order",
    f"{RETAIL_FILE}:test_order_lookup_only",
    f"{RUBRIC_FILE}:test_cancel_order",
]


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


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> FakeCheckout:
    return make_fake_checkout(tmp_path_factory.mktemp("inspect-tb") / "checkout")


@pytest.fixture(scope="module")
def suite(checkout: FakeCheckout) -> TaskSet:
    return open_thinkingbox(checkout.root, sys.executable)


def _fake(suite: TaskSet, judge_answer: str = "yes") -> FakeModelServer:
    return FakeModelServer(
        FakeModelApp(ReferencePlays(suite), FakeModelConfig(mode="reference", judge_answer=judge_answer))
    )


def _inspect_eval(checkout: FakeCheckout, suite: TaskSet, logs: Path) -> tuple[EvalLog, dict[str, Any]]:
    """`inspect eval statebox/thinkingbox_bench` on the command line, the judge role on a server of its own."""
    with ExitStack() as stack:
        agent = stack.enter_context(_fake(suite))
        judge = stack.enter_context(_fake(suite, judge_answer="no"))
        env = {**os.environ, "FAKE_BASE_URL": agent.base_url, "FAKEJUDGE_BASE_URL": judge.base_url,
               "FAKE_API_KEY": "unused", "FAKEJUDGE_API_KEY": "unused"}  # fmt: skip
        command = [str(BIN / "inspect"), "eval", "statebox/thinkingbox_bench", "-T", f"data={checkout.root}",
                   "-T", f"server_python={sys.executable}", "-T", f"tasks={','.join(TASKS)}",
                   "--model", "openai-api/fake/agent", "--model-role", "judge=openai-api/fakejudge/judge",
                   "--log-dir", str(logs), "--display", "none"]  # fmt: skip
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        seen = {"agent": agent.app.stats.as_dict(), "judge": judge.app.stats.as_dict()}
    assert done.returncode == 0, done.stderr[-3000:]
    (info,) = list_eval_logs(str(logs))
    log = read_eval_log(info)
    assert log.status == "success", log.error
    return log, seen


def _statebox_run(checkout: FakeCheckout, suite: TaskSet, out: Path) -> dict[str, dict[str, Any]]:
    """The same play by `statebox run` (one fake server for the agent and the judge): task id -> verdict document."""
    with _fake(suite, judge_answer="no") as server:
        command = [str(BIN / "statebox"), "run", "thinkingbox-bench", "--data", str(checkout.root),
                   "--server-python", sys.executable, "--agent", "llm", "--model", "openai:fake-agent",
                   "--judge-model", "openai:fake-judge", "--base-url", server.base_url, "--user", "scripted",
                   "--out", str(out), "--no-progress", *[a for t in TASKS for a in ("--tasks", t)]]  # fmt: skip
        done = subprocess.run(command, env={**os.environ, "OPENAI_API_KEY": "unused"}, capture_output=True,
                              text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    trials = [TrialRecord.model_validate_json(line) for line in (out / "trials.jsonl").read_text().splitlines()]
    return {t.task_id: verdict_of_record(t).model_dump(mode="json") for t in trials}


def test_the_inspect_task_gives_statebox_runs_verdicts_with_the_judge_role_answering_the_rubric(
    checkout: FakeCheckout, suite: TaskSet, tmp_path: Path
) -> None:
    log, seen = _inspect_eval(checkout, suite, tmp_path / "logs")
    assert log.eval.task_registry_name == "statebox/thinkingbox_bench"
    scores = {str(s.id): s.scores["statebox_judge"] for s in log.samples or [] if s.scores}
    assert sorted(scores) == sorted(TASKS)
    assert {sid: s.value for sid, s in scores.items()} == {TASKS[0]: "C", TASKS[1]: "C", TASKS[2]: "I"}
    rubric = dict(scores[TASKS[2]].metadata or {})["verdict"]
    assert rubric["rubrics"]["status"] == "judged" and rubric["rubrics"]["results"], rubric["rubrics"]
    assert [r["passed"] for r in rubric["rubrics"]["results"]] == [False] and rubric["state_passed"], rubric
    assert set(seen["judge"]["by_role"]) == {"judge"} and set(seen["agent"]["by_role"]) == {"agent"}, seen
    documents = {sid: dict(s.metadata or {})["verdict"] for sid, s in scores.items()}
    assert documents == _statebox_run(checkout, suite, tmp_path / "run")


def test_a_checkout_that_is_not_there_is_one_line_naming_the_option(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^statebox/thinkingbox_bench: --data .*: no such directory"):
        open_thinkingbox(tmp_path / "missing", sys.executable)
