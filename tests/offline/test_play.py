"""`statebox play`: a person at a pseudo-terminal plays the agent of a retail task and sees the verdict."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pexpect
import pytest

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.judge import ReferenceFailed, judge_attempt, replay, required_effects, rules_for
from statebox.runner.store import RunDir
from statebox.suites import Suite, load_suite
from statebox.tasks import Task
from statebox.tasks.checks import ConfirmBefore, VerifyBefore

STATEBOX = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "statebox")
PROMPT = "agent> "


def _playable(suite: Suite, task: Task, enums: dict[str, dict[str, list[Any]]]) -> bool:
    """A task a script can type: plain arguments, no confirmation needed, identity by two stated facts, and a
    write with an argument of several allowed values (to type a wrong one)."""
    guarded = {tool for c in task.checks if isinstance(c, ConfirmBefore) for tool in c.tools}
    verify = [c for c in task.checks if isinstance(c, VerifyBefore)]
    facts = {f.key for f in task.customer.facts}
    return (
        not task.read_only
        and all("${" not in json.dumps(c.args) and c.actor == "agent" and c.tool not in guarded for c in task.reference)
        and all(len(facts & set(c.facts)) >= min(c.min_facts, 2) for c in verify)
        and _wrong_arg(suite, task, enums) is not None
    )


def _wrong_arg(suite: Suite, task: Task, enums: dict[str, dict[str, list[Any]]]) -> tuple[int, str, Any] | None:
    """A reference call argument with another allowed value that the judge calls a wrong value:
    (call index, argument, that value)."""
    required = required_effects(suite, task)
    for i, call in enumerate(task.reference):
        for arg, value in call.args.items():
            for other in (v for v in enums.get(call.tool, {}).get(arg, []) if v != value):
                calls = [c.model_copy(update={"args": {**c.args, arg: other}}) if j == i else c
                         for j, c in enumerate(task.reference)]  # fmt: skip
                try:
                    verdict = judge_attempt(replay(suite, task, calls), required, rules_for(suite, task))
                except ReferenceFailed:
                    continue
                if "wrong_value" in verdict.kinds():
                    return i, arg, other
    return None


@pytest.fixture(scope="module")
def task() -> tuple[Task, tuple[int, str, Any]]:
    suite = load_suite("retail")
    specs = suite.domain_of(suite.tasks[0]).tools.specs()
    enums = {s.name: {a: p["enum"] for a, p in s.input_schema.get("properties", {}).items() if "enum" in p}
             for s in specs if s.writes}  # fmt: skip
    chosen = next((t for t in suite.tasks if _playable(suite, t, enums)), None)
    assert chosen is not None, "no retail task a script can type (plain arguments, a write with an enum argument)"
    wrong = _wrong_arg(suite, chosen, enums)
    assert wrong is not None
    return chosen, wrong


def _play(task: Task, out: Path, wrong: tuple[int, str, Any] | None = None) -> str:
    """Type the task's reference solution (with one argument changed, if `wrong`) and return all that was shown."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200"}
    child = pexpect.spawn(STATEBOX, ["play", "retail", task.id, "--out", str(out)], env=env, encoding="utf-8",
                          timeout=60, dimensions=(50, 200))  # fmt: skip
    child.expect_exact(PROMPT)
    child.sendline(f"Could you tell me your {' and your '.join(f.asked_by[0] for f in task.customer.facts)}?")
    child.expect_exact(PROMPT)
    for i, call in enumerate(task.reference):
        args = dict(call.args)
        if wrong is not None and wrong[0] == i:
            args[wrong[1]] = wrong[2]
        child.sendline(f"/call {call.tool} {json.dumps(args)}")
        child.expect_exact(PROMPT)
    child.sendline("/end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


def test_typing_the_reference_solution_ends_with_a_passed_verdict(task: tuple[Task, Any], tmp_path: Path) -> None:
    chosen, _ = task
    shown = _play(chosen, tmp_path / "played")
    assert "PASSED" in shown, shown[-2000:]
    (record,) = RunDir(tmp_path / "played").trials()
    assert record.passed and record.agent == "human" and record.user == "scripted", record.discrepancies


def test_typing_a_wrong_value_shows_that_wrong_value(task: tuple[Task, Any], tmp_path: Path) -> None:
    chosen, wrong = task
    shown = _play(chosen, tmp_path / "played", wrong)
    assert "FAILED" in shown, shown[-2000:]
    assert "wrong_value:" in shown and repr(wrong[2]) in shown, shown[-2000:]


def _answer(task: Task, agent_said: str) -> str:
    """What a person playing the customer types: the facts asked for, a yes to a question, else the end."""
    said = agent_said.lower()
    asked = [f for f in task.customer.facts if any(p.lower() in said for p in f.asked_by)]
    if asked:
        return " ".join(f"My {f.asked_by[0]} is {f.value}." for f in asked)
    return "Yes, please go ahead." if "?" in said else "/end"


def test_playing_the_customer_of_a_model_agent_shows_only_the_conversation(
    task: tuple[Task, Any], tmp_path: Path
) -> None:
    chosen, _ = task
    suite = load_suite("retail").with_tasks([chosen])
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200"}
    with FakeModelServer(FakeModelApp(suite, FakeModelConfig(mode="reference"))) as server:
        args = ["play", "retail", chosen.id, "--as", "customer", "--model", "openai:fake",
                "--base-url", server.base_url, "--out", str(tmp_path / "played")]  # fmt: skip
        child = pexpect.spawn(STATEBOX, args, env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
        shown = ""
        for _ in range(12):
            if child.expect_exact(["you> ", pexpect.EOF]) == 1:
                break
            shown += str(child.before)
            child.sendline(_answer(chosen, str(child.before).rsplit("agent: ", 1)[-1]))
        child.expect(pexpect.EOF)
        shown += str(child.before)
        child.close()
    assert child.exitstatus == 0, shown[-2000:]
    assert "agent: " in shown and "-> " not in shown.split("PASSED")[0], "the customer sees no tool traffic"
    (record,) = RunDir(tmp_path / "played").trials()
    assert record.user == "human" and record.model == "openai:fake"
    assert record.passed, [d.describe() for d in record.discrepancies]


def test_the_agent_side_lists_tools_shows_schemas_and_reports_mistakes(task: tuple[Task, Any], tmp_path: Path) -> None:
    chosen, _ = task
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200"}
    child = pexpect.spawn(STATEBOX, ["play", "retail", chosen.id], env=env, encoding="utf-8", timeout=60,
                          dimensions=(50, 200))  # fmt: skip
    for typed, shown in [
        ("/tools", "get_order"),
        ("/schema get_order", '"input_schema"'),
        ("/call get_order {not json", "not JSON arguments"),
        ("/call no_such_tool {}", "error: "),
    ]:
        child.expect_exact(PROMPT)
        child.sendline(typed)
        child.expect_exact(shown)
    child.expect_exact(PROMPT)
    child.sendline("/end")
    child.expect_exact("FAILED")
    child.expect(pexpect.EOF)


def test_ctrl_c_ends_play_at_once_with_a_one_line_message(task: tuple[Task, Any]) -> None:
    chosen, _ = task
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(STATEBOX, ["play", "retail", chosen.id], env=env, encoding="utf-8", timeout=30)
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect_exact("error: interrupted; the attempt was not judged or saved", timeout=15)
    child.expect(pexpect.EOF, timeout=15)
    child.close()
    assert child.exitstatus == 130
