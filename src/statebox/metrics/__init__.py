"""Metrics: pass@k, pass^k, intervals, cost and Pareto, and paired comparison of runs.

Pure functions over per-task counts, as defined in docs/metrics.md. Imports nothing else of
statebox and nothing outside the standard library.
"""

from statebox.metrics.aggregates import (
    ObservedKOfK,
    dependable_tasks,
    is_dependable,
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
from statebox.metrics.compare import (
    FDR_LEVEL,
    PairedComparison,
    compare_runs,
    diff_interval,
)
from statebox.metrics.cost import Spend, cost_per_dependable_task, cost_per_successful_attempt
from statebox.metrics.counts import Shortfall, TaskCounts, is_canonical, max_attempts, shortfall
from statebox.metrics.curves import (
    CurvePoint,
    curve,
    curve_tasks,
    pass_at_k_curve,
    pass_hat_k_curve,
    pass_hat_k_plugin_curve,
)
from statebox.metrics.estimators import Estimator, pass_at_k, pass_hat_k, pass_hat_k_plugin
from statebox.metrics.exact import ExactTest, benjamini_hochberg, fisher_exact
from statebox.metrics.failure_analysis import FailedAttempt, FailureCounts, failure_counts, terminated_cleanly
from statebox.metrics.flips import expected_flip, majority_passes, no_change_flip_range
from statebox.metrics.intervals import (
    ClusteredEstimate,
    Interval,
    bounded_mean_interval,
    clustered_standard_error,
    effective_tasks,
    estimator_interval,
    hull,
    pass_at_1_interval,
    pass_at_1_standard_error,
    share_interval,
    wilson,
)
from statebox.metrics.pareto import ParetoPoint, dominates, pareto_frontier
from statebox.metrics.quantiles import normal_quantile, t_quantile
from statebox.metrics.ratio import RatioEstimate, ratio_interval, retention_interval

__all__ = [
    "FDR_LEVEL",
    "MIN_RESAMPLES",
    "ClusteredEstimate",
    "CurvePoint",
    "Estimator",
    "ExactTest",
    "FailedAttempt",
    "FailureCounts",
    "Interval",
    "ObservedKOfK",
    "PairedComparison",
    "ParetoPoint",
    "RatioEstimate",
    "Shortfall",
    "Spend",
    "TaskCounts",
    "benjamini_hochberg",
    "bootstrap_interval",
    "bootstrap_mean",
    "bootstrap_ratio",
    "bounded_mean_interval",
    "clustered_standard_error",
    "compare_runs",
    "cost_per_dependable_task",
    "cost_per_successful_attempt",
    "curve",
    "curve_tasks",
    "dependable_tasks",
    "diff_interval",
    "dominates",
    "effective_tasks",
    "estimator_interval",
    "expected_flip",
    "failure_counts",
    "fisher_exact",
    "hull",
    "is_canonical",
    "is_dependable",
    "majority_passes",
    "max_attempts",
    "mean_pass_at_k",
    "mean_pass_hat_k",
    "mean_pass_hat_k_plugin",
    "no_change_flip_range",
    "normal_quantile",
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
    "ratio_interval",
    "retention",
    "retention_interval",
    "share_interval",
    "shortfall",
    "t_quantile",
    "task_values",
    "terminated_cleanly",
    "wilson",
]
