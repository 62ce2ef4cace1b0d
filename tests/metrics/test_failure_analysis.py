"""The seed's failure analysis as pure counting: a clean ending, the overlapping kinds, the empty case."""

from __future__ import annotations

import pytest

from statebox.metrics import FailedAttempt, failure_counts, terminated_cleanly


@pytest.mark.parametrize("finish_reason", ["agent_ended", "customer_ended"])
def test_ended_by_agent_or_customer_after_a_write_with_a_good_last_result_is_clean(finish_reason: str) -> None:
    assert terminated_cleanly(finish_reason, last_tool_result_error=False, successful_writes=1)


@pytest.mark.parametrize(
    "finish_reason", ["max_turns", "max_steps", "max_tool_errors", "time_budget", "context_overflow", "timeout", None]
)
def test_an_attempt_ended_by_a_limit_is_never_clean(finish_reason: str | None) -> None:
    assert not terminated_cleanly(finish_reason, last_tool_result_error=False, successful_writes=3)


def test_a_final_tool_error_is_not_clean_even_after_writes() -> None:
    assert not terminated_cleanly("agent_ended", last_tool_result_error=True, successful_writes=2)


def test_no_successful_write_is_not_clean() -> None:
    assert not terminated_cleanly("customer_ended", last_tool_result_error=False, successful_writes=0)


def test_no_tool_result_at_all_is_not_clean() -> None:
    assert not terminated_cleanly("agent_ended", last_tool_result_error=None, successful_writes=0)


def _failed(signature: str, *kinds: str, clean: bool = False, recorded: bool = True) -> FailedAttempt:
    return FailedAttempt(signature, frozenset(kinds), clean, recorded)


def test_kinds_overlap_and_signatures_partition() -> None:
    attempts = [
        _failed("wrong_state_update", "wrong_value", "extra_effect", clean=True),
        _failed("wrong_state_update", "wrong_value", "missing_effect", clean=True),
        _failed("tool_usage", "missing_effect"),
        _failed("no_state_change", "missing_effect", recorded=False),
        _failed("policy_violation", "policy_violation", clean=True),
    ]
    counts = failure_counts(attempts)
    got = (counts.failed, counts.clean, counts.with_kind, counts.signatures, counts.writes_unrecorded)
    want = (
        5,
        3,
        {"wrong_value": 2, "extra_effect": 1, "missing_effect": 3},
        {"no_state_change": 1, "policy_violation": 1, "tool_usage": 1, "wrong_state_update": 2},
        1,
    )
    assert got == want
    assert counts.share(counts.clean) == pytest.approx(0.6)
    shares = counts.signature_shares()
    assert shares == pytest.approx({"no_state_change": 0.2, "policy_violation": 0.2, "tool_usage": 0.2,
                                    "wrong_state_update": 0.4})  # fmt: skip
    assert sum(shares.values()) == pytest.approx(1.0), "signatures partition the failed attempts"


def test_no_failed_attempt_gives_null_shares_not_a_division_error() -> None:
    counts = failure_counts([])
    assert (counts.failed, counts.clean, counts.with_kind, counts.signatures) == (
        0,
        0,
        {"wrong_value": 0, "extra_effect": 0, "missing_effect": 0},
        {},
    )
    assert counts.share(counts.clean) is None
    assert counts.signature_shares() == {}
