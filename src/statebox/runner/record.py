"""The trial and error records: one line of trials.jsonl / errors.jsonl each (a contract: docs/contracts.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from statebox.agents.transcript import Transcript
from statebox.judge import Discrepancy
from statebox.judge.fidelity import SimulatorFault
from statebox.judge.rubrics import RubricResult
from statebox.llm.meter import sum_costs
from statebox.llm.types import Usage
from statebox.runner.errors import ErrorKind
from statebox.users.base import EndReason

ROLES = ("agent", "user", "judge")
View = TypeVar("View", bound=BaseModel)
# The version of the record formats this statebox writes and reads. Records written before there was
# a version read as version 1; a line of a newer version is refused, never skipped (runner/store.py).
SCHEMA_VERSION = 1
# How a trial's conversation ended (agents/transcript.py FINISH_REASONS says when each happens).
FinishReason = Literal[
    "customer_ended", "agent_ended", "max_turns", "max_steps", "max_tool_errors", "time_budget", "context_overflow",
    "timeout",  # written by statebox before `time_budget` replaced it; still read
    "cut_off",  # an imported attempt whose recording stops before its episode ended (statebox import)
]  # fmt: skip


def trial_id(suite: str, task_id: str, agent: str, model: str | None, repeat: int) -> str:
    """Stable identity of one attempt."""
    return f"{suite}/{task_id}/{agent}/{model or '-'}/{repeat}"


def attempt_seed(trial: str) -> int:
    """A stable per-attempt seed derived from the trial id."""
    return int.from_bytes(hashlib.sha256(trial.encode()).digest()[:4], "big") & 0x7FFFFFFF


def _zero_costs() -> dict[str, float | None]:
    return {r: 0.0 for r in ROLES}


class RecordedOutcome(BaseModel):
    """An imported attempt's verdict as its source recorded it (`statebox import`), kept beside statebox's."""

    format: str  # the importer, e.g. "tau-bench"
    record: int  # the attempt's index in the source file (0-based)
    reward: float | None  # the recorded reward or score; None when the recording never finished
    passed: bool | None  # what the source counts as a pass (None: it never judged the attempt)
    detail: dict[str, Any] = Field(default_factory=dict)  # the format's own parts of its verdict


class TrialRecord(BaseModel):
    """Everything known about one finished attempt."""

    schema_version: int = SCHEMA_VERSION
    trial_id: str
    suite: str
    task_id: str
    domain: str
    agent: str
    model: str | None
    user: str | None
    repeat: int
    seed: int
    passed: bool
    state_passed: bool
    finish_reason: FinishReason | None
    customer_end_reason: EndReason | None = None
    signature: str | None = None
    successful_writes: int | None = None  # state-changing tool calls that succeeded (None: not recorded)
    discrepancies: list[Discrepancy] = Field(default_factory=list)
    simulator_faults: list[SimulatorFault] = Field(default_factory=list)  # the simulated customer's, not the agent's
    rubrics: list[RubricResult] = Field(default_factory=list)
    not_judged: list[str] = Field(default_factory=list)  # parts of the state verdict that could not be judged, and why
    usage: dict[str, Usage] = Field(default_factory=lambda: {r: Usage() for r in ROLES})
    cost_usd: dict[str, float | None] = Field(default_factory=lambda: _zero_costs())
    timings: dict[str, float] = Field(default_factory=dict)
    effects: dict[str, Any] = Field(default_factory=dict)
    state_hash: str = ""
    expected_hash: str = ""
    task_hash: str = ""
    transcript: Transcript = Field(default_factory=Transcript)
    recorded: RecordedOutcome | None = None  # imported attempts: the source's own verdict

    def total_cost(self) -> float | None:
        return sum_costs(self.cost_usd.values())


class ErrorRecord(BaseModel):
    """An infrastructure failure: not an attempt, retried by --resume (one line of errors.jsonl)."""

    schema_version: int = SCHEMA_VERSION
    trial_id: str
    suite: str
    task_id: str
    agent: str
    model: str | None
    repeat: int
    kind: ErrorKind
    message: str
    at: str
    # What the report needs of an attempt that never finished: its domain, and what it spent before failing.
    domain: str | None = None
    usage: dict[str, Usage] | None = None
    cost_usd: dict[str, float | None] | None = None


def trial_record_view(*lighter: str) -> Callable[[type[View]], type[View]]:
    """Declares a model that reads some of a trial line's fields (the report's summaries, its drill-down) a
    view of `TrialRecord`: each of its fields is a record field of the same type and requiredness, except
    those named in `lighter`, lighter shapes of the same JSON (fewer parts built), which must still be
    record fields. A view that drifts from the record fails at import, naming the field."""

    def check(view: type[View]) -> type[View]:
        if problems := view_problems(view, lighter):
            raise TypeError(f"{view.__name__} is not a view of TrialRecord: {'; '.join(problems)}")
        return view

    return check


def view_problems(view: type[BaseModel], lighter: tuple[str, ...] = ()) -> list[str]:
    """How `view`'s fields differ from `TrialRecord`'s (empty when it is a view of it)."""
    record, problems = TrialRecord.model_fields, []
    for name, field in view.model_fields.items():
        if name not in record:
            problems.append(f"{name}: not a TrialRecord field")
        elif name not in lighter and field.annotation != record[name].annotation:
            problems.append(f"{name}: {field.annotation} where TrialRecord has {record[name].annotation}")
        elif name not in lighter and field.is_required() != record[name].is_required():
            problems.append(f"{name}: {'required' if field.is_required() else 'optional'}, unlike TrialRecord's")
    problems += [f"{name}: said lighter, but not a field of the view"
                 for name in lighter if name not in view.model_fields]  # fmt: skip
    return problems
