"""One attempt's verdict, judged the same way on every surface (docs/contracts.md, "The verdict document").

`statebox run`, `serve`, `proxy`, `openenv-serve`, Inspect's scorer, `regrade` and `import` all give
`judge_verdict` (or, with rubric answers already in hand, `compose_verdict`) the same inputs: the task,
the backend's `StateOutcome`, the transcript and, when the surface has one, a rubric judge. What it
returns is one `VerdictDocument`: the end state, the trace checks (always run on what the agent did,
with or without a customer conversation), the rubrics (or why they were not judged), the simulated
customer's faults, the failure signature, and every part that could not be judged, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from statebox.agents.transcript import Transcript
from statebox.judge import Discrepancy
from statebox.judge.fidelity import SimulatorFault, simulator_faults
from statebox.judge.rubrics import RubricJudge, RubricResult, RubricScope
from statebox.judge.signatures import CallFact, failure_signature
from statebox.judge.trace import with_trace_checks
from statebox.runner.backend import StateOutcome
from statebox.runner.record import TrialRecord
from statebox.tasks import Task

VERDICT_VERSION = 1
RubricStatus = Literal["judged", "not_judged", "no_rubrics"]
# The `not_judged` lines this module writes; `verdict_of_record` reads them back from a trial record.
RUBRICS_NOT_JUDGED = "rubrics: not_judged: "
TRACE_NOT_JUDGED = "trace checks: not_judged: "
NO_JUDGE_MODEL = "no judge model (--judge-model)"
REPLAY = "a replay of the task's reference, not an agent's conversation"


class RubricVerdicts(BaseModel):
    """The task's rubric questions: answered by the judge model, or not judged and why."""

    status: RubricStatus
    reason: str = ""  # not_judged: why, e.g. "no judge model (--judge-model)"
    results: list[RubricResult] = Field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Every answered question passed (questions not judged fail nothing: `not_judged` says so)."""
        return all(r.passed for r in self.results)


class VerdictDocument(BaseModel):
    """Everything the judge decided about one attempt; the same document on every surface."""

    version: int = VERDICT_VERSION
    task_id: str
    passed: bool  # the end state, the trace checks and every answered rubric
    state_passed: bool  # the end state alone
    discrepancies: list[Discrepancy] = Field(default_factory=list)  # the end state's, then policy_violation ones
    rubrics: RubricVerdicts
    simulator_faults: list[SimulatorFault] = Field(default_factory=list)  # the simulated customer's, not the agent's
    signature: str | None = None  # None when passed
    not_judged: list[str] = Field(default_factory=list)  # every part that could not be judged, and why
    state_hash: str = ""
    expected_hash: str = ""


@dataclass(frozen=True)
class JudgingInputs:
    """What every surface hands the judge about one finished (or, hosted, paused) attempt."""

    task: Task
    state: StateOutcome
    transcript: Transcript
    writes: Callable[[str], bool]  # whether a tool changes state (the backend's `writes`)
    customer: bool = True  # a simulated customer took part: its messages are checked for faults
    replay: bool = False  # the reference agent replayed the task's solution: no conversation to trace-check


async def judge_verdict(
    inputs: JudgingInputs, rubric_judge: RubricJudge | None, rubrics_on: RubricScope = "conversation"
) -> VerdictDocument:
    """The verdict, asking `rubric_judge` the task's rubric questions (None: they are not judged, said so)."""
    return compose_verdict(inputs, await judge_rubrics(inputs.task, inputs.transcript, rubric_judge, rubrics_on))


async def judge_rubrics(
    task: Task, transcript: Transcript, rubric_judge: RubricJudge | None, rubrics_on: RubricScope = "conversation"
) -> RubricVerdicts:
    """The task's rubric questions answered, or why they were not."""
    if not task.rubrics:
        return RubricVerdicts(status="no_rubrics")
    if rubric_judge is None:
        return RubricVerdicts(status="not_judged", reason=NO_JUDGE_MODEL)
    results = await rubric_judge.judge(task.rubric_questions(), transcript, rubrics_on)
    return RubricVerdicts(status="judged", results=results)


def compose_verdict(inputs: JudgingInputs, rubrics: RubricVerdicts) -> VerdictDocument:
    """The verdict from the state outcome, the trace, and rubric answers already given."""
    task, state, transcript = inputs.task, inputs.state, inputs.transcript
    verdict = state.verdict if inputs.replay else with_trace_checks(state.verdict, task, transcript)
    facts = [
        CallFact(e.tool_name or "", not e.is_error, inputs.writes(e.tool_name or ""), e.error_kind)
        for e in transcript.tool_results()
    ]
    signature = failure_signature(
        facts,
        verdict,
        rubrics_passed=rubrics.passed,
        required_effects=state.required_effects,
        finish_reason=transcript.finish_reason,
    )
    return VerdictDocument(
        task_id=task.id,
        passed=verdict.passed and rubrics.passed,
        state_passed=state.verdict.passed,
        discrepancies=verdict.discrepancies,
        rubrics=rubrics,
        simulator_faults=simulator_faults(task, transcript) if inputs.customer else [],
        signature=signature,
        not_judged=_not_judged(inputs, rubrics),
        state_hash=verdict.state_hash,
        expected_hash=verdict.expected_hash,
    )


def _not_judged(inputs: JudgingInputs, rubrics: RubricVerdicts) -> list[str]:
    lines = list(inputs.state.not_judged)
    if inputs.replay and inputs.task.checks:
        lines.append(TRACE_NOT_JUDGED + REPLAY)
    if rubrics.status == "not_judged":
        lines.append(RUBRICS_NOT_JUDGED + rubrics.reason)
    return lines


def rubrics_of_record(record: TrialRecord, task: Task | None = None) -> RubricVerdicts:
    """A stored trial's rubric part: its answers, or why it has none (the reason it recorded, if any).

    Without `task`, the record alone decides (a record of this statebox says when rubrics were not judged).
    """
    if record.rubrics:
        return RubricVerdicts(status="judged", results=record.rubrics)
    said = (line.removeprefix(RUBRICS_NOT_JUDGED) for line in record.not_judged if line.startswith(RUBRICS_NOT_JUDGED))
    reason = next(said, None)
    if reason is None and task is not None and task.rubrics:
        reason = "the stored attempt has no rubric answers"
    return RubricVerdicts(status="no_rubrics") if reason is None else RubricVerdicts(status="not_judged", reason=reason)


def verdict_of_record(record: TrialRecord, task: Task | None = None) -> VerdictDocument:
    """The verdict document a trial record carries (its fields are the document's)."""
    return VerdictDocument(
        task_id=record.task_id,
        passed=record.passed,
        state_passed=record.state_passed,
        discrepancies=record.discrepancies,
        rubrics=rubrics_of_record(record, task),
        simulator_faults=record.simulator_faults,
        signature=record.signature,
        not_judged=record.not_judged,
        state_hash=record.state_hash,
        expected_hash=record.expected_hash,
    )


def record_fields(document: VerdictDocument) -> dict[str, Any]:
    """The trial record's fields that hold the document (for `TrialRecord(...)` or `model_copy(update=...)`)."""
    return {
        "passed": document.passed,
        "state_passed": document.state_passed,
        "discrepancies": document.discrepancies,
        "rubrics": document.rubrics.results,
        "simulator_faults": document.simulator_faults,
        "signature": document.signature,
        "not_judged": document.not_judged,
        "state_hash": document.state_hash,
        "expected_hash": document.expected_hash,
    }
