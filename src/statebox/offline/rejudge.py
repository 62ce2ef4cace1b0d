"""One stored attempt judged again with today's judge, trace checks and task definition: no model, no tools.

A built-in suite's end state is judged again from the stored effects against the required effects of
today's reference. A suite of another kind (ThinkingBox-Bench: its pass rule is its servers' result
hash against a golden hash) keeps its stored state verdict: only the trace checks, the simulator
faults and the signature are done again.
"""

from __future__ import annotations

from dataclasses import dataclass

from statebox.judge import Verdict, judge_attempt, rules_for
from statebox.judge.fidelity import simulator_faults
from statebox.judge.signatures import CallFact, failure_signature
from statebox.judge.trace import with_trace_checks
from statebox.offline.stored_effects import effects_from_json
from statebox.runner.record import TrialRecord
from statebox.tasks import Suite, Task
from statebox.tasks.provider import TaskSet
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
        return isinstance(self.suite, Suite)


def rejudge(record: TrialRecord, task: Task, judge: Judge) -> TrialRecord:
    """The record as today's judge sees it (rubric answers are kept: they need a judge model)."""
    state = _state_verdict(record, task, judge)
    converses = record.agent not in REPLAYING_AGENTS
    verdict = with_trace_checks(state, task, record.transcript) if converses else state
    faults = simulator_faults(task, record.transcript) if record.user is not None else []
    rubrics_ok = all(r.passed for r in record.rubrics)
    signature = failure_signature(
        _call_facts(record, task, judge),
        verdict,
        rubrics_passed=rubrics_ok,
        required_effects=not task.read_only,
        finish_reason=record.finish_reason,
    )
    return record.model_copy(
        update={
            "passed": verdict.passed and rubrics_ok,
            "state_passed": state.passed,
            "signature": signature,
            "discrepancies": verdict.discrepancies,
            "simulator_faults": faults,
            "expected_hash": verdict.expected_hash or record.expected_hash,
            "task_hash": task.content_hash(),
        }
    )


def _state_verdict(record: TrialRecord, task: Task, judge: Judge) -> Verdict:
    if isinstance(judge.suite, Suite):
        rules = rules_for(judge.suite, task)
        actual = effects_from_json(record.effects, rules.world)
        verdict = judge_attempt(actual, judge.required[task.id], rules)
        # Updated rows are stored with their changed fields only, so the state hash of the whole rows
        # cannot be recomputed; the agent's end state did not change, so neither did its hash.
        return verdict.model_copy(update={"state_hash": record.state_hash})
    kept = [d for d in record.discrepancies if d.kind != "policy_violation"]
    return Verdict(
        passed=record.state_passed, discrepancies=kept, state_hash=record.state_hash, expected_hash=record.expected_hash
    )


def _call_facts(record: TrialRecord, task: Task, judge: Judge) -> list[CallFact]:
    tools = judge.suite.domain_of(task).tools if isinstance(judge.suite, Suite) else None
    return [
        CallFact(
            e.tool_name or "",
            not e.is_error,
            (e.tool_name or "") in tools and tools[e.tool_name or ""].writes if tools is not None else True,
            e.error_kind,
        )
        for e in record.transcript.tool_results()
    ]
