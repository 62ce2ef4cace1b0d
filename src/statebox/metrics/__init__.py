"""Metrics: pass@k, pass^k, intervals, cost and Pareto, and paired comparison of runs.

Pure functions over per-task counts, as defined in the design note metrics.md. Imports nothing
else of statebox and nothing outside the standard library.
"""

from statebox.metrics.aggregates import (
    ObservedKOfK,
    dependable_tasks,
    mean_pass_at_k,
    mean_pass_hat_k,
    mean_pass_hat_k_plugin,
    observed_k_of_k,
    pass_at_1,
    retention,
    task_values,
)
from statebox.metrics.bootstrap import (
    MIN_RESAMPLES,
    bootstrap_interval,
    bootstrap_mean,
    bootstrap_ratio,
    percentile,
)
from statebox.metrics.compare import PairedComparison, compare_runs
from statebox.metrics.cost import cost_per_dependable_task, cost_per_successful_attempt
from statebox.metrics.counts import Shortfall, TaskCounts, is_canonical, max_attempts, shortfall
from statebox.metrics.curves import (
    CurvePoint,
    curve,
    pass_at_k_curve,
    pass_hat_k_curve,
    pass_hat_k_plugin_curve,
)
from statebox.metrics.estimators import Estimator, pass_at_k, pass_hat_k, pass_hat_k_plugin
from statebox.metrics.intervals import (
    ClusteredEstimate,
    clustered_standard_error,
    pass_at_1_interval,
    pass_at_1_standard_error,
    retention_interval,
)
from statebox.metrics.pareto import ParetoPoint, dominates, pareto_frontier

__all__ = [
    "MIN_RESAMPLES",
    "ClusteredEstimate",
    "CurvePoint",
    "Estimator",
    "ObservedKOfK",
    "PairedComparison",
    "ParetoPoint",
    "Shortfall",
    "TaskCounts",
    "bootstrap_interval",
    "bootstrap_mean",
    "bootstrap_ratio",
    "clustered_standard_error",
    "compare_runs",
    "cost_per_dependable_task",
    "cost_per_successful_attempt",
    "curve",
    "dependable_tasks",
    "dominates",
    "is_canonical",
    "max_attempts",
    "mean_pass_at_k",
    "mean_pass_hat_k",
    "mean_pass_hat_k_plugin",
    "observed_k_of_k",
    "pareto_frontier",
    "pass_at_1",
    "pass_at_1_interval",
    "pass_at_1_standard_error",
    "pass_at_k",
    "pass_at_k_curve",
    "pass_hat_k",
    "pass_hat_k_curve",
    "pass_hat_k_plugin",
    "pass_hat_k_plugin_curve",
    "percentile",
    "retention",
    "retention_interval",
    "shortfall",
    "task_values",
]
