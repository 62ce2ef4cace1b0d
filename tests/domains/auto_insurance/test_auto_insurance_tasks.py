"""The auto-insurance suite as data: every task valid, and the suite minimums of the domain issue met."""

from __future__ import annotations

import pytest

from statebox.domains.auto_insurance import DOMAIN
from statebox.judge.validation import validate_task
from statebox.tasks import RefCall, Suite, load_suite

HELPDESK = {"create_ticket", "add_ticket_comment", "update_ticket_status", "set_ticket_priority"}


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("auto_insurance")


def writes(reference: list[RefCall]) -> list[str]:
    return [c.tool for c in reference if c.tool in DOMAIN.tools and DOMAIN.tools[c.tool].writes]


def test_at_least_sixty_tasks_with_forty_distinct_reference_sequences(suite: Suite) -> None:
    assert len(suite.tasks) >= 60
    assert len({tuple(c.tool for c in t.reference) for t in suite.tasks}) >= 40


def test_the_suite_minimums(suite: Suite) -> None:
    tasks = suite.tasks
    many_writes = [t for t in tasks if len(writes(t.reference)) >= 3]
    waiting = [t for t in tasks if any(c.tool == "handoff_to_human" or c.args.get("status") in ("hold", "pending")
                                       for c in t.reference)]
    assert len(many_writes) >= 15
    assert len(waiting) >= 6
    assert sum("not_eligible" in t.tags for t in tasks) >= 6
    assert sum("recovery" in t.tags for t in tasks) >= 6
    assert sum(bool(t.rubrics) for t in tasks) >= 4
    assert sum(any(f.via for f in t.customer.facts) for t in tasks) >= 4
    assert sum(t.read_only for t in tasks) <= 2
    helpdesk_only = [t.id for t in tasks if set(writes(t.reference)) <= HELPDESK]
    assert len(helpdesk_only) <= len(tasks) // 4, helpdesk_only


def test_a_recovery_task_opens_with_an_identifier_that_exists_nowhere(suite: Suite) -> None:
    for t in suite.tasks:
        if "recovery" not in t.tags:
            continue
        session = suite.open_session(t)
        words = [w.strip(".,") for w in t.opening_message.split() if w[:4] in ("POL-", "CLM-")]
        assert words, t.id
        for w in words:
            table = "policies" if w.startswith("POL-") else "claims"
            assert session.one(f"SELECT id FROM {table} WHERE id = ?", w) is None, (t.id, w)
        session.close()


def test_every_policy_change_is_preceded_by_a_checked_text_code(suite: Suite) -> None:
    changes = {"add_driver", "update_driver_status", "add_vehicle", "remove_vehicle", "change_coverage",
               "update_address", "cancel_policy", "pay_installments", "waive_late_fee", "reinstate_policy"}
    for t in suite.tasks:
        tools = [c.tool for c in t.reference]
        first_change = next((i for i, tool in enumerate(tools) if tool in changes), None)
        if first_change is not None:
            assert "check_verification_code" in tools[:first_change], t.id


@pytest.mark.parametrize("task_id", [
    "fnol_excluded_son_backed_into_pillar",
    "total_loss_cx5_estimate_over_threshold",
    "exclude_son_with_signed_exclusion_form",
    "switching_insurer_monthly_short_rate_no_refund",
    "trade_in_civic_for_new_elantra",
])
def test_a_sample_of_tasks_passes_every_validation_check(suite: Suite, task_id: str) -> None:
    task = next(t for t in suite.tasks if t.id == task_id)
    result = validate_task(suite, task)
    assert result.ok, result.problems
