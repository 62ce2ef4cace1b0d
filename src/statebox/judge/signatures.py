"""Failure signatures: one deterministic label per failed attempt (first matching rule wins)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from statebox.judge.verdict import Verdict

SIGNATURES = ("tool_usage", "no_state_change", "wrong_state_update", "incomplete_resolution", "policy_violation")


@dataclass(frozen=True)
class CallFact:
    """What a signature needs to know about one tool call."""

    tool: str
    ok: bool
    writes: bool
    error_kind: str | None = None


def failure_signature(
    calls: Sequence[CallFact],
    verdict: Verdict,
    *,
    rubrics_passed: bool,
    required_effects: bool,
    finish_reason: str | None,
) -> str | None:
    """None for a passed attempt; otherwise tool_usage, no_state_change, wrong_state_update, policy_violation
    (the end state was right but a trace check failed) or incomplete_resolution."""
    if verdict.passed and rubrics_passed:
        return None
    if _unrecovered_tool_problem(calls) or finish_reason == "max_tool_errors":
        return "tool_usage"
    if required_effects and not any(c.ok and c.writes for c in calls):
        return "no_state_change"
    kinds = verdict.kinds()
    if "wrong_value" in kinds or "extra_effect" in kinds:
        return "wrong_state_update"
    if kinds == {"policy_violation"}:
        return "policy_violation"  # the right end state, reached against the policy
    return "incomplete_resolution"


def _unrecovered_tool_problem(calls: Sequence[CallFact]) -> bool:
    """A tool whose last call failed, or any call to a tool that does not exist."""
    last: dict[str, CallFact] = {}
    for c in calls:
        if c.error_kind == "unknown_tool":
            return True
        last[c.tool] = c
    return any(not c.ok for c in last.values())
