"""The scorer (statebox's verdict of the attempt), an epoch reducer that keeps the pass count, and pass^k.

Scores are `C`/`I` (the verdict document's `passed`); the metadata carries what a trial record carries:
the verdict document under `verdict`, and beside it the failure signature, the typed discrepancies, the
effects, the state hashes, the finish reason. Across epochs the
`pass_tally` reducer keeps n (attempts) and c (passes) per sample, and `pass_hat_k` turns them
into statebox's unbiased pass^k for every k up to the epochs run (statebox.metrics.estimators).
"""

from __future__ import annotations

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    ScoreReducer,
    Target,
    Value,
    metric,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from statebox.integrations.inspect_task.solver import TRIAL_KEY
from statebox.metrics.estimators import pass_hat_k as pass_hat_k_estimate
from statebox.runner.judging import verdict_of_record
from statebox.runner.record import TrialRecord


def trial_metadata(record: TrialRecord) -> dict[str, object]:
    """The parts of a trial record a score carries."""
    return {
        "trial_id": record.trial_id,
        "passed": record.passed,
        "state_passed": record.state_passed,
        "signature": record.signature,
        "finish_reason": record.finish_reason,
        "customer_end_reason": record.customer_end_reason,
        "discrepancies": [d.model_dump(mode="json") for d in record.discrepancies],
        "effects": record.effects,
        "state_hash": record.state_hash,
        "expected_hash": record.expected_hash,
        "task_hash": record.task_hash,
        "verdict": verdict_of_record(record).model_dump(mode="json"),  # the verdict document (docs/contracts.md)
    }


@metric(name="pass_hat_k")
def pass_hat_k() -> Metric:
    """pass^k for k = 1 .. the fewest epochs any sample has: the mean over tasks of C(c,k)/C(n,k)."""

    def compute(scores: list[SampleScore]) -> Value:
        tallies = [_tally(s.score) for s in scores]
        if not tallies:
            return {}
        most = min(n for n, _ in tallies)
        result: dict[str, float] = {}
        for k in range(1, most + 1):
            values = [pass_hat_k_estimate(n, c, k) for n, c in tallies]
            result[f"pass^{k}"] = sum(v for v in values if v is not None) / len(values)
        return result

    return compute


def _tally(score: Score) -> tuple[int, int]:
    """(attempts, passes) of one sample: from `pass_tally`, or one attempt when unreduced."""
    meta = score.metadata or {}
    if "attempts" in meta and "passes" in meta:
        return int(meta["attempts"]), int(meta["passes"])
    return 1, int(score.value == CORRECT)


@score_reducer(name="pass_tally")
def pass_tally() -> ScoreReducer:
    """Reduce a sample's epochs to the fraction passed, keeping n and c for `pass_hat_k`."""

    def reduce(scores: list[Score]) -> Score:
        passes = sum(1 for s in scores if s.value == CORRECT)
        return Score(
            value=passes / len(scores) if scores else 0.0,
            metadata={"attempts": len(scores), "passes": passes},
        )

    return reduce


@scorer(metrics=[pass_hat_k()])
def statebox_judge() -> Scorer:
    """Pass or fail as statebox's state judge and trace checks decided, with the reasons in metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        stored = state.store.get(TRIAL_KEY)
        if stored is None:
            raise RuntimeError(f"sample {state.sample_id}: no statebox attempt ran; use the statebox_attempt solver")
        record = TrialRecord.model_validate(stored)
        explanation = "; ".join(d.describe() for d in record.discrepancies) or (
            "passed" if record.passed else f"failed: {record.signature}"
        )
        return Score(
            value=CORRECT if record.passed else INCORRECT,
            answer=record.finish_reason,
            explanation=explanation,
            metadata=trial_metadata(record),
        )

    return score
