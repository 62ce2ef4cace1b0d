"""The `report --json` and `compare --json` documents as pydantic models: these classes are the contract.

Field order is the JSON key order. Every field is described in docs/contracts.md, every number
defined in docs/metrics.md. Intervals are `[lo, hi]` (95%); `hi` is null when there is no upper
bound (a cost per success or per dependable task whose denominator may be zero).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Convention = Literal["errors-excluded", "errors-as-failures"]
Bounds = list[float | None]  # [lo, hi]; hi None = unbounded


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ShortTask(_Model):
    """A task with fewer finished attempts than the run's repeats: never dependable."""

    task_id: str
    attempts: int
    missing: int
    errors: int  # of the missing attempts, how many are outstanding infrastructure errors
    simulator_faults: int = 0  # of the missing attempts, how many finished with a simulator fault


class TaskFlags(_Model):
    """One task's policy violations (failed attempts per check) and simulator faults (attempts per kind)."""

    task_id: str
    policy_violations: dict[str, int]
    simulator_faults: dict[str, int]


class CostSummary(_Model):
    """Spend in USD (null: no price known for some call), errored attempts included."""

    total_usd: float | None
    agent_usd: float | None
    user_usd: float | None
    judge_usd: float | None
    errored_usd: float | None  # all roles, attempts that ended in an infrastructure error
    errored_share: float | None  # errored_usd / total_usd
    errored_unrecorded: int  # errored attempts whose record carries no spend (written before it was recorded)
    per_success_usd: float | None  # agent spend / passed attempts
    per_success_ci: Bounds | None
    per_dependable_task_usd: float | None  # agent spend / dependable tasks
    per_dependable_task_ci: Bounds | None


class JudgeAgreement(_Model):
    """A suite graded by its own rule with statebox's typed verdict beside it: how often the two agree."""

    attempts: int  # finished attempts that carry a typed verdict
    agreeing: int
    share: float | None
    disagreeing_tasks: list[str]  # tasks with at least one attempt where the two differ


class FailureShares(_Model):
    """The failure analysis as shares of the failed attempts (null when there are none); the seed's figures
    (seed_figures.py) have the same shape."""

    terminated_cleanly: float | None
    with_wrong_value: float | None
    with_extra_effect: float | None
    with_missing_effect: float | None
    signatures: dict[str, float]  # signature -> share; every signature of `FailureAnalysis.signatures`


class FailureAnalysis(_Model):
    """The seed's failure-analysis table over failed finished attempts (docs/metrics.md, "Failure analysis").

    Counts are attempts; the three `with_*` kinds overlap. `shares` is each count / `failed_attempts`.
    """

    failed_attempts: int
    terminated_cleanly: int
    with_wrong_value: int
    with_extra_effect: int
    with_missing_effect: int
    signatures: dict[str, int]
    writes_unrecorded: int  # failed attempts whose record predates `successful_writes`: judged by their effects
    shares: FailureShares


class ConventionRates(_Model):
    """pass@1 and pass^k of one group under one convention, with their intervals."""

    convention: Convention
    pass_at_1: float | None
    pass_at_1_ci: Bounds | None
    curve_tasks: int  # the tasks pass^k is over: those with `repeats` attempts counted
    pass_hat_k: dict[str, float | None]
    pass_hat_k_ci: dict[str, Bounds | None]


class ErrorBand(_Model):
    """When an attempt errored: errors may be likelier on failing attempts, which biases errors-excluded up
    and errors-as-failures down. Both are given; the band is the hull of their intervals."""

    errors_excluded: ConventionRates
    errors_as_failures: ConventionRates
    pass_at_1: Bounds | None
    pass_hat_k: dict[str, Bounds | None]  # at the headline k


class Summary(_Model):
    """The numbers of one group of attempts: a (suite, agent, model) overall, or one of its domains."""

    agent: str
    suite: str
    model: str | None
    tasks: int
    repeats: int
    attempts: int
    passes: int  # passed attempts among `attempts`
    infra_errors: int
    infra_error_kinds: dict[str, int]
    simulator_faults: int  # finished attempts flagged: left out of every number below but spend
    simulator_fault_share: float | None  # of the finished attempts, flagged ones included
    simulator_fault_kinds: dict[str, int]  # flagged attempts per fault kind
    simulator_fault_kind_shares: dict[str, float]  # the same over the finished attempts
    canonical: bool
    convention: Convention
    short_tasks: int
    shortfall: list[ShortTask]
    pass_at_1: float | None
    pass_at_1_ci: Bounds | None
    pass_at_1_tasks: int
    curve_tasks: int  # pass@k, pass^k for every k are over these tasks: the ones with `repeats` attempts
    curve_passes: int  # passed attempts / attempts of those tasks
    curve_attempts: int
    tasks_at_k: dict[str, int]
    pass_at_k: dict[str, float | None]
    pass_hat_k: dict[str, float | None]
    pass_hat_k_plugin: dict[str, float | None]
    pass_at_k_ci: dict[str, Bounds | None]
    pass_hat_k_ci: dict[str, Bounds | None]
    all_k: int
    all_k_tasks: int
    all_k_share: float | None
    all_k_ci: Bounds | None
    retention: float | None
    retention_k: int
    retention_ci: Bounds | None
    error_band: ErrorBand | None  # only when an attempt ended in an infrastructure error
    cost: CostSummary
    failed_attempts: int
    signatures: dict[str, int]
    discrepancy_kinds: dict[str, int]
    policy_violations: dict[str, int]  # failed attempts per violated trace check
    flagged_tasks: list[TaskFlags]  # tasks with a policy violation or a simulator fault
    judge_agreement: JudgeAgreement | None = None  # only for suites graded by their own rule (ThinkingBox-Bench)
    failure_analysis: FailureAnalysis  # the seed's table, beside its published figures (seed_figures.py)


class RunEntry(Summary):
    """One (suite, agent, model) across every directory given, with the same numbers per domain."""

    by_domain: dict[str, Summary]


class ReportDocument(_Model):
    """`statebox report --json`."""

    runs: list[RunEntry]


class Side(_Model):
    """One run of a comparison."""

    dir: str
    suite: str
    agent: str
    model: str | None
    repeats: int


class Unpaired(_Model):
    """A task both runs hold that was not compared, and why."""

    task_id: str
    reason: Literal["suite differs", "task content differs"]


class ChangedTask(_Model):
    """A task whose pass rate differs beyond chance: passes/attempts in each run and Boschloo's p-value."""

    task_id: str
    a: list[int]  # [passed, attempts]
    b: list[int]
    p_value: float


class CompareDocument(_Model):
    """`statebox compare --json`."""

    a: Side
    b: Side
    convention: Convention
    tasks: int
    same_k: bool
    pass_at_1_a: float | None
    pass_at_1_b: float | None
    pass_at_1_a_ci: Bounds | None
    pass_at_1_b_ci: Bounds | None
    passes_a: list[int]  # [passed, attempts] over the paired tasks
    passes_b: list[int]
    diff: float | None
    diff_ci: Bounds | None
    fdr_level: float
    changed: list[str]
    changed_detail: list[ChangedTask]
    gained: list[str]
    lost: list[str]
    flips: int
    flip_rate: float | None
    expected_flip_rate: float | None
    expected_flip_range: Bounds | None  # where the flip rate stays 95% of the time with no change
    only_in_a: list[str]
    only_in_b: list[str]
    errored_in_a: list[str]
    errored_in_b: list[str]
    unpaired: list[Unpaired]
    simulator_faults_a: int  # attempts with a simulator fault, left out (in any task of that run)
    simulator_faults_b: int
