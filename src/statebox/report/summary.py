"""The numbers of one group of attempts (a model overall, or one of its domains) as a `Summary`.

Every definition is in docs/metrics.md; this module only counts attempts and calls
`statebox.metrics`. Attempts must come sorted (the caller sorts), so float sums are
reproducible whatever order the run files were in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from statebox.metrics import (
    FailedAttempt,
    RatioEstimate,
    TaskCounts,
    cost_per_dependable_task,
    cost_per_successful_attempt,
    curve_tasks,
    failure_counts,
    is_dependable,
    mean_pass_at_k,
    mean_pass_hat_k,
    mean_pass_hat_k_plugin,
    observed_k_of_k,
    pass_at_1,
    pass_at_1_interval,
    pass_at_k,
    pass_hat_k,
    retention,
    retention_interval,
    share_interval,
)
from statebox.report.models import (
    Convention,
    CostSummary,
    FailureAnalysis,
    FailureShares,
    JudgeAgreement,
    ShortTask,
    Summary,
    TaskFlags,
)
from statebox.report.rates import bounds, error_band, intervals_at_k

ROLES = ("agent", "user", "judge")
ERRORS_EXCLUDED: Convention = "errors-excluded"
ERRORS_AS_FAILURES: Convention = "errors-as-failures"


@dataclass(frozen=True)
class Attempt:
    """One attempt as the metrics see it: a finished trial, or an infrastructure error.

    `cost` is role -> USD (None: no price known). An error's cost is what it spent before it
    failed; `spend_recorded` is False for error records written before spend was recorded.
    """

    task_id: str
    domain: str
    passed: bool
    cost: Mapping[str, float | None]
    signature: str | None = None
    kinds: frozenset[str] = frozenset()
    error_kind: str | None = None  # set only for an infrastructure error
    spend_recorded: bool = True
    checks: frozenset[str] = frozenset()  # the trace checks the attempt violated
    faults: frozenset[str] = frozenset()  # the kinds of simulator fault found in it
    typed_agrees: bool | None = None  # statebox's typed verdict equals the suite's own (None: not judged so)
    clean: bool = False  # terminated cleanly (metrics/failure_analysis.py)
    writes_recorded: bool = True  # False: `clean` judged a successful write by the effects (older records)

    @property
    def infra_error(self) -> bool:
        return self.error_kind is not None

    @property
    def simulator_fault(self) -> bool:
        """The simulated customer misplayed its part: neither a pass nor an agent failure."""
        return bool(self.faults)


def counted(attempts: Sequence[Attempt], errors_as_failures: bool) -> list[Attempt]:
    """The attempts the estimators see under the chosen convention; simulator faults never."""
    return [a for a in attempts if not a.simulator_fault and (errors_as_failures or not a.infra_error)]


def task_counts(attempts: Sequence[Attempt], errors_as_failures: bool) -> list[TaskCounts]:
    """n and c per task, sorted by task id; a task with only excluded errors has n = 0."""
    n: Counter[str] = Counter()
    c: Counter[str] = Counter()
    for a in counted(attempts, errors_as_failures):
        n[a.task_id] += 1
        c[a.task_id] += a.passed
    return [TaskCounts(t, n[t], c[t]) for t in sorted({a.task_id for a in attempts})]


def summarize(
    attempts: Sequence[Attempt],
    repeats: int,
    *,
    errors_as_failures: bool,
    identity: tuple[str, str, str | None],
) -> Summary:
    """Every number of one group; `identity` is (suite, agent, model)."""
    counts = task_counts(attempts, errors_as_failures)
    used = counted(attempts, errors_as_failures)
    errors = [a for a in attempts if a.infra_error]
    observed = observed_k_of_k(counts, repeats)
    interval = pass_at_1_interval(counts)
    suite, agent, model = identity
    return Summary(
        agent=agent,
        suite=suite,
        model=model,
        tasks=len(counts),
        repeats=repeats,
        attempts=len(used),
        passes=sum(t.c for t in counts),
        infra_errors=len(errors),
        infra_error_kinds=_tally(a.error_kind for a in errors),
        **_fault_fields(attempts),
        canonical=bool(counts) and observed.canonical,
        convention=ERRORS_AS_FAILURES if errors_as_failures else ERRORS_EXCLUDED,
        short_tasks=len(observed.short),
        shortfall=_shortfall(counts, attempts, repeats),
        pass_at_1=pass_at_1(counts),
        pass_at_1_ci=None if interval is None else [interval.lo, interval.hi],
        pass_at_1_tasks=sum(1 for t in counts if t.n >= 1),
        **_curve_fields(counts, repeats),
        all_k=repeats,
        all_k_tasks=observed.tasks,
        all_k_share=observed.share,
        all_k_ci=bounds(share_interval([is_dependable(t, repeats) for t in counts])),
        retention=retention(counts, repeats) if repeats >= 1 else None,
        retention_k=repeats,
        retention_ci=bounds(retention_interval(counts, repeats)) if repeats >= 1 else None,
        error_band=error_band(task_counts(attempts, False), task_counts(attempts, True), repeats) if errors else None,
        cost=cost_summary(attempts, counts, repeats),
        judge_agreement=judge_agreement(used),
        **_failure_fields(attempts, used),
    )


def _failure_fields(attempts: Sequence[Attempt], used: Sequence[Attempt]) -> dict[str, Any]:
    """The failed finished attempts counted (`used`): their tallies, flagged tasks and the seed's table."""
    failed = [a for a in used if not a.passed and not a.infra_error]
    flagged = [a for a in attempts if not a.infra_error and a.simulator_fault]
    return {
        "failed_attempts": len(failed),
        "signatures": _tally(a.signature for a in failed),
        "discrepancy_kinds": _tally(k for a in failed for k in a.kinds),
        "policy_violations": _tally(c for a in failed for c in a.checks),
        "flagged_tasks": flagged_tasks(failed, flagged),
        "failure_analysis": failure_analysis(failed),
    }


def _fault_fields(attempts: Sequence[Attempt]) -> dict[str, Any]:
    """The simulator-fault counts of a Summary: flagged finished attempts, per kind, and their shares."""
    finished = [a for a in attempts if not a.infra_error]
    flagged = [a for a in finished if a.simulator_fault]
    kinds = _tally(k for a in flagged for k in a.faults)
    return {
        "simulator_faults": len(flagged),
        "simulator_fault_share": len(flagged) / len(finished) if finished else None,
        "simulator_fault_kinds": kinds,
        "simulator_fault_kind_shares": {k: v / len(finished) for k, v in kinds.items()},
    }


def _curve_fields(counts: Sequence[TaskCounts], repeats: int) -> dict[str, Any]:
    """pass@k and pass^k for k = 1..repeats over their one task set (n >= repeats), with its counts."""
    curve, ks = curve_tasks(counts, repeats), range(1, repeats + 1)
    return {
        "curve_tasks": len(curve),
        "curve_passes": sum(t.c for t in curve),
        "curve_attempts": sum(t.n for t in curve),
        "tasks_at_k": {str(k): len(curve) for k in ks},
        "pass_at_k": {str(k): mean_pass_at_k(curve, k) for k in ks},
        "pass_hat_k": {str(k): mean_pass_hat_k(curve, k) for k in ks},
        "pass_hat_k_plugin": {str(k): mean_pass_hat_k_plugin(curve, k) for k in ks},
        "pass_at_k_ci": intervals_at_k(curve, pass_at_k, repeats),
        "pass_hat_k_ci": intervals_at_k(curve, pass_hat_k, repeats),
    }


def judge_agreement(attempts: Sequence[Attempt]) -> JudgeAgreement | None:
    """How often statebox's typed verdict agrees with the suite's own, over attempts that carry one."""
    judged = [a for a in attempts if a.typed_agrees is not None]
    if not judged:
        return None
    agreeing = sum(bool(a.typed_agrees) for a in judged)
    return JudgeAgreement(
        attempts=len(judged),
        agreeing=agreeing,
        share=agreeing / len(judged),
        disagreeing_tasks=sorted({a.task_id for a in judged if a.typed_agrees is False}),
    )


def failure_analysis(failed: Sequence[Attempt]) -> FailureAnalysis:
    """The seed's table over the failed finished attempts (simulator faults and errors already left out)."""
    counts = failure_counts([FailedAttempt(a.signature, a.kinds, a.clean, a.writes_recorded) for a in failed])
    return FailureAnalysis(
        failed_attempts=counts.failed,
        terminated_cleanly=counts.clean,
        with_wrong_value=counts.with_kind["wrong_value"],
        with_extra_effect=counts.with_kind["extra_effect"],
        with_missing_effect=counts.with_kind["missing_effect"],
        signatures=counts.signatures,
        writes_unrecorded=counts.writes_unrecorded,
        shares=FailureShares(
            terminated_cleanly=counts.share(counts.clean),
            with_wrong_value=counts.share(counts.with_kind["wrong_value"]),
            with_extra_effect=counts.share(counts.with_kind["extra_effect"]),
            with_missing_effect=counts.share(counts.with_kind["missing_effect"]),
            signatures=counts.signature_shares(),
        ),
    )


def flagged_tasks(failed: Sequence[Attempt], flagged: Sequence[Attempt]) -> list[TaskFlags]:
    """Per task with any: failed attempts per violated check, flagged attempts per simulator fault kind."""
    ids = sorted({a.task_id for a in failed if a.checks} | {a.task_id for a in flagged})
    return [
        TaskFlags(
            task_id=t,
            policy_violations=_tally(c for a in failed if a.task_id == t for c in a.checks),
            simulator_faults=_tally(k for a in flagged if a.task_id == t for k in a.faults),
        )
        for t in ids
    ]


def _shortfall(counts: Sequence[TaskCounts], attempts: Sequence[Attempt], repeats: int) -> list[ShortTask]:
    errors = Counter(a.task_id for a in attempts if a.infra_error and not a.simulator_fault)
    faults = Counter(a.task_id for a in attempts if a.simulator_fault)
    short = []
    for t in counts:
        if t.n >= repeats:
            continue
        missing = repeats - t.n
        # Under errors-as-failures errors are attempts, so what is missing is simulator faults first.
        flagged = min(faults[t.task_id], missing)
        short.append(
            ShortTask(
                task_id=t.task_id,
                attempts=t.n,
                missing=missing,
                errors=min(errors[t.task_id], missing - flagged),
                simulator_faults=flagged,
            )
        )
    return short


def cost_summary(attempts: Sequence[Attempt], counts: Sequence[TaskCounts], repeats: int) -> CostSummary:
    """Spend per role over every attempt, errored ones included; the per-* costs use the agent's spend.

    Errored attempts always count in spend, under either convention: the money was spent.
    """
    roles = {role: _sum(a.cost.get(role) for a in attempts) for role in ROLES}
    total = _sum(roles.values())
    errored = _sum(_sum(a.cost.get(role) for role in ROLES) for a in attempts if a.infra_error)
    spend: dict[str, float | None] = {}
    for a in attempts:
        spend[a.task_id] = _sum([spend.get(a.task_id, 0.0), a.cost.get("agent")])
    per_success = cost_per_successful_attempt(counts, spend, repeats=repeats)
    per_dependable = cost_per_dependable_task(counts, spend, repeats)
    return CostSummary(
        total_usd=total,
        agent_usd=roles["agent"],
        user_usd=roles["user"],
        judge_usd=roles["judge"],
        errored_usd=errored,
        errored_share=None if total is None or errored is None or total == 0 else errored / total,
        errored_unrecorded=sum(1 for a in attempts if a.infra_error and not a.spend_recorded),
        per_success_usd=_estimate(per_success),
        per_success_ci=None if per_success is None else bounds(per_success.interval),
        per_dependable_task_usd=_estimate(per_dependable),
        per_dependable_task_ci=None if per_dependable is None else bounds(per_dependable.interval),
    )


def _sum(values: Iterable[float | None]) -> float | None:
    """A total that is unknown once any part is unknown."""
    total: float | None = 0.0
    for v in values:
        total = None if total is None or v is None else total + v
    return total


def _estimate(result: RatioEstimate | None) -> float | None:
    return None if result is None else result.estimate


def _tally(values: Iterable[str | None]) -> dict[str, int]:
    counter = Counter(v for v in values if v is not None)
    return {name: counter[name] for name in sorted(counter)}
