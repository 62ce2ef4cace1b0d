"""One stored attempt judged again with today's judge, trace checks and task definition: no model, no tools.

A built-in suite's end state is judged again from the stored effects against the required effects of
today's reference. A suite of another kind (ThinkingBox-Bench: its pass rule is its servers' result
hash against a golden hash) keeps its stored state verdict: only the trace checks, the simulator
faults and the signature are done again. Either way the record's verdict fields are the verdict
document of `runner/judging.py`, composed as every other surface composes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from statebox.judge import Verdict, judge_attempt
from statebox.offline.stored_effects import effects_from_json
from statebox.runner.backend import StateOutcome
from statebox.runner.judging import (
    RUBRICS_NOT_JUDGED,
    TRACE_NOT_JUDGED,
    JudgingInputs,
    compose_verdict,
    record_fields,
    rubrics_of_record,
)
from statebox.runner.record import TrialRecord
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task
from statebox.world import Effects

# Agents whose transcript is a replay, not a conversation: trace checks do not apply (runner/episode.py).
REPLAYING_AGENTS = frozenset({"reference"})


@dataclass
class Judge:
    """What judging again needs of the current suite: its tasks, and (built-in suites) the required effects."""

    suite: TaskSet
    required: dict[str, list[Effects]]

    @property
    def redoes_state(self) -> bool:
        """Whether statebox judges the suite's end states itself (built-in suites), so judges them again."""
        return all(self.suite.judging_rules(t) is not None for t in self.suite.tasks)


def rejudge(record: TrialRecord, task: Task, judge: Judge) -> TrialRecord:
    """The record as today's judge sees it (rubric answers are kept: they need a judge model)."""
    state = StateOutcome(_state_verdict(record, task, judge), record.effects, required_effects=not task.read_only,
                         not_judged=_state_not_judged(record))  # fmt: skip
    inputs = JudgingInputs(task, state, record.transcript, _writes(task, judge), customer=record.user is not None,
                           replay=record.agent in REPLAYING_AGENTS)  # fmt: skip
    document = compose_verdict(inputs, rubrics_of_record(record, task))
    fields = record_fields(document)
    fields["expected_hash"] = document.expected_hash or record.expected_hash
    return record.model_copy(update={**fields, "task_hash": task.content_hash()})


def _state_not_judged(record: TrialRecord) -> list[str]:
    """What the stored state verdict could not judge (the lines the verdict itself adds are added again)."""
    return [line for line in record.not_judged if not line.startswith((RUBRICS_NOT_JUDGED, TRACE_NOT_JUDGED))]


def _state_verdict(record: TrialRecord, task: Task, judge: Judge) -> Verdict:
    rules = judge.suite.judging_rules(task)
    if rules is not None:
        actual = effects_from_json(record.effects, rules.world)
        verdict = judge_attempt(actual, judge.required[task.id], rules)
        # Updated rows are stored with their changed fields only, so the state hash of the whole rows
        # cannot be recomputed; the agent's end state did not change, so neither did its hash.
        return verdict.model_copy(update={"state_hash": record.state_hash})
    kept = [d for d in record.discrepancies if d.kind != "policy_violation"]
    return Verdict(
        passed=record.state_passed, discrepancies=kept, state_hash=record.state_hash, expected_hash=record.expected_hash
    )


def _writes(task: Task, judge: Judge) -> Callable[[str], bool]:
    """Whether a tool changes state: the suite's own word (a built-in domain's tools; any tool, otherwise)."""
    return lambda name: judge.suite.writes(task, name)
