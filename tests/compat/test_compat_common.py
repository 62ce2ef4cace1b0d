"""The layer both benchmark adapters share (`statebox.compat.common`), on a counter world: one number that the
tool `add` raises and the tool `read` only reads; a task passes when the number reaches its target."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from statebox.agents.scripted import NoopAgent, ReferenceAgent
from statebox.agents.transcript import Transcript
from statebox.compat.common.backend import ServersBackend
from statebox.compat.common.counts import audit_counts, in_order
from statebox.compat.common.provider import checked_python, checkout_folder
from statebox.compat.common.validation import Replay, TaskValidation
from statebox.judge import Verdict
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import AttemptBackend, OutcomeInputs, StateOutcome
from statebox.runner.source import AttemptSource
from statebox.suites.provider import SuiteError
from statebox.tasks import Task
from statebox.tasks.model import Customer, RefCall
from statebox.tools import ToolSpec, ToolSurface
from statebox.tools.surface import ToolOutcome


class CounterSurface:
    def __init__(self, backend: CounterBackend) -> None:
        self.backend = backend

    def list_tools(self) -> list[ToolSpec]:
        return []

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if self.backend.broken:
            raise ToolServerError("tool server 'counter' exited")
        if name == "add":
            self.backend.count += arguments["n"]
        return ToolOutcome(text=str(self.backend.count))


class CounterBackend(ServersBackend):
    def __init__(self, target: int, broken: bool) -> None:
        super().__init__("Be kind.")
        self.target, self.broken, self.count = target, broken, 0

    async def serve(self) -> ToolSurface:
        return CounterSurface(self)

    def tool_writes(self, tool: str) -> bool:
        return tool != "read"

    async def outcome(self, inputs: OutcomeInputs) -> StateOutcome:
        self._changed = self.count != 0
        return StateOutcome(Verdict(passed=self.count >= self.target), required_effects=self.target > 0)


class CounterSource(AttemptSource):
    def __init__(self, target: int, broken: bool = False) -> None:
        self.target, self.broken = target, broken

    def running(self) -> AbstractAsyncContextManager[None]:
        return self._running()

    @asynccontextmanager
    async def _running(self) -> AsyncIterator[None]:
        yield

    def backend(self, task: Task) -> AttemptBackend:
        return CounterBackend(self.target, self.broken)

    def reference_agent(self, task: Task) -> ReferenceAgent:
        return ReferenceAgent(task.reference, verbatim=True)


async def count_now(backend: AttemptBackend) -> object:
    assert isinstance(backend, CounterBackend)
    return backend.count


def counter_task(*calls: tuple[str, int]) -> Task:
    reference = [RefCall(tool=tool, args={"n": n}) for tool, n in calls]
    return Task(id="t1", domain="counter", opening_message="Raise it.", customer=Customer(goal="a higher number"),
                reference=reference)  # fmt: skip


def replay(target: int, *, logs_reply: bool = False, broken: bool = False) -> Replay:
    return Replay(CounterSource(target, broken), count_now, logs_reply=logs_reply)


def test_the_calls_that_change_the_state_are_those_after_which_it_differs() -> None:
    task = counter_task(("add", 1), ("read", 0), ("add", 0), ("add", 2))
    assert asyncio.run(replay(3).state_changing_calls(task)) == [0, 3]


def test_a_state_changing_call_the_task_passes_without_is_an_unnecessary_write() -> None:
    task = counter_task(("add", 2), ("add", 1))
    result = TaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None)
    runs = asyncio.run(replay(2).checked(task, result))
    assert runs is not None and (runs.changing, runs.needless) == ([0, 1], [1])
    assert runs.unnecessary_writes(task) == ["call 1 (add)"]


def test_the_checks_read_off_the_runs_are_those_of_the_built_in_record() -> None:
    task = counter_task(("add", 2))
    result = TaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None)
    runs = asyncio.run(replay(2).checked(task, result))
    assert runs is not None
    runs.record(result)
    found = (result.reference_passes, result.read_only, result.noop_fails, result.writes, result.ok)
    assert found == (True, False, True, 1, True)


def test_the_agents_reply_is_in_the_transcript_only_where_the_benchmark_grades_it() -> None:
    task = counter_task()
    _, logged = asyncio.run(replay(0, logs_reply=True).attempt(task, NoopAgent()))
    _, unlogged = asyncio.run(replay(0, logs_reply=False).attempt(task, NoopAgent()))
    assert logged.final_agent_reply() == "Thank you for reaching out. Have a nice day."
    assert unlogged.entries == []


def test_a_tool_server_failure_is_a_problem_of_the_task_not_an_exception() -> None:
    task = counter_task(("add", 1))
    result = TaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None)
    assert asyncio.run(replay(1, broken=True).checked(task, result)) is None
    assert result.problems == ["tool server failed: tool server 'counter' exited"] and not result.ok


def test_an_attempt_that_changed_nothing_wrote_nothing() -> None:
    backend = CounterBackend(target=0, broken=False)
    assert backend.writes("add") and not backend.writes("read")
    asyncio.run(backend.outcome(OutcomeInputs(Transcript())))
    assert not backend.writes("add")


class Record:
    def __init__(self, ok: bool, writes: int, unnecessary: list[str]) -> None:
        self.ok = self.reference_passes = ok
        self.read_only: bool | None = writes == 0
        self.writes: int | None = writes
        self.unnecessary_writes = unnecessary
        self.judge_disagreements: list[str] = []


def test_the_shared_counts_name_the_writes_in_the_reports_own_word() -> None:
    counts = audit_counts([Record(True, 2, ["call 1 (add)"]), Record(False, 0, [])], "golden_writes")
    assert counts == {"tasks": 2, "ok": 1, "reference_passes": 1, "read_only": 1, "golden_writes": 2,
                      "unnecessary_golden_writes": 1, "tasks_with_unnecessary_writes": 1, "judge_attempts": 4,
                      "judge_disagreements": 0}  # fmt: skip


def test_counts_are_given_in_the_order_of_the_keys() -> None:
    assert list(in_order(("b", "a", "c"), {"a": 1, "c": 3}, {"b": 2})) == ["b", "a", "c"]


def test_counts_not_named_by_the_keys_are_refused() -> None:
    with pytest.raises(ValueError, match=r"the counts \['a', 'b'\] are not the keys \['a'\]"):
        in_order(("a",), {"a": 1, "b": 2})


def test_a_missing_data_option_says_what_the_folder_should_hold() -> None:
    with pytest.raises(SuiteError, match=r"^bench needs --data DIR: a checkout$"):
        checkout_folder("bench", None, "DIR", "a checkout")


def test_a_data_option_that_is_no_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match=r"no such directory \(expected a checkout\)$"):
        checkout_folder("bench", tmp_path / "nothing", "DIR", "a checkout")
    assert checkout_folder("bench", str(tmp_path), "DIR", "a checkout") == tmp_path


def test_the_server_python_is_found_on_the_path_and_made_absolute() -> None:
    assert checked_python(None, "/default/python") == "/default/python"
    assert Path(checked_python("sh", "/default/python")).is_absolute()
    with pytest.raises(SuiteError, match=r"^--server-python no-such-python-here: not an executable Python$"):
        checked_python("no-such-python-here", "/default/python")
