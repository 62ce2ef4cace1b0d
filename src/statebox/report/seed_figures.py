"""The ThinkingBox paper's published failure analysis, shown beside a run's own (docs/metrics.md).

Shares are fractions of the paper's failed trials, as printed there (percentages / 100); the
paper gives no counts beyond the totals. `shares` has the shape of `FailureAnalysis.shares`, so a
run's figure and the paper's line up key by key.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from statebox.report.models import FailureShares


class SeedFailureAnalysis(BaseModel):
    """A published failure-analysis table: where it comes from, what it is over, its shares."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str
    trials: int
    failed_attempts: int
    shares: FailureShares


SEED_LABEL = "ThinkingBox paper, 12-model ablation (121,680 trials, 79,853 failed)"

SEED_FAILURE_ANALYSIS = SeedFailureAnalysis(
    label=SEED_LABEL,
    trials=121_680,
    failed_attempts=79_853,
    shares=FailureShares(
        terminated_cleanly=0.6724,
        with_wrong_value=0.7761,
        with_extra_effect=0.4330,
        with_missing_effect=0.2536,
        signatures={
            "tool_usage": 0.799,
            "wrong_state_update": 0.103,
            "incomplete_resolution": 0.070,
            "no_state_change": 0.029,
        },
    ),
)
