"""An optional shaped reward: the share of the required changes achieved, less the extra ones.

Never the reward of `statebox run` (that is binary); a trainer gets it only when it asks, labelled.
"""

from __future__ import annotations

from statebox.judge import JudgingRules, Verdict, judge_state
from statebox.world import Effects


def shaped_reward(verdict: Verdict, required: list[Effects], rules: JudgingRules) -> float:
    """1.0 when passed; else (R - unmet - extra - violations) / (R + 1), floored at 0.

    R is the number of discrepancies doing nothing would leave against the closest acceptable end
    state, so the unit is the judge's own (a field, an inserted row). The `+ 1` keeps every failed
    attempt below a passed one; a task whose right outcome changes nothing scores 0.0 on failure.
    """
    if verdict.passed:
        return 1.0
    ignored = rules.hash_ignored()  # the verdict names the end state it was given against by its hash
    closest = next((r for r in required if r.state_hash(ignored) == verdict.expected_hash), required[0])
    total = len(judge_state(Effects(), closest, rules).discrepancies)
    if total == 0:
        return 0.0
    bad = len(verdict.discrepancies)
    return round(max(0.0, (total - bad) / (total + 1)), 6)

