"""The suite's shape, measured from references: writes, helpdesk share, verification, facts, confirmations, clusters."""

from __future__ import annotations

from typing import Any

import pytest

from kitdemo import DOMAIN
from statebox.judge.reference_trace import reference_trace
from statebox.judge.replay import replay
from statebox.judge.shape import MINIMUMS, below_minimum, measure_suite, task_shape
from statebox.judge.shape.naming import names
from statebox.judge.validation import shape_of as shape_of_validation, validate_suite
from statebox.suites import Suite
from statebox.tasks import Task, load_task_dir

TICKET_ROW = {"id": "TCK-777", "requester_id": "MEM-1", "subject": "Old case", "description": "An older case.",
              "status": "open", "priority": "normal", "channel": "chat", "created_at": "2026-03-01T09:00:00+00:00"}
OPEN = {"tool": "create_ticket", "args": {"member_id": "MEM-1", "subject": "Help", "description": "Asks for help."},
        "save_as": "t"}
COMMENT = {"tool": "add_ticket_comment", "args": {"ticket_id": "${t.ticket_id}", "public": True, "body": "Done."}}
SOLVE = {"tool": "update_ticket_status", "args": {"ticket_id": "${t.ticket_id}", "status": "solved"}}
VERIFY_STREET = {"kind": "verify_before", "tools": ["change_street"], "verified_by": ["check_verification_code"]}
MEMBER = {"key": "member_id", "value": "MEM-1", "asked_by": ["member id"]}


def task(task_id: str, reference: list[dict[str, Any]], **fields: Any) -> Task:
    customer = {"goal": "Get help.", "facts": [MEMBER], **fields.pop("customer", {})}
    data = {"id": task_id, "domain": "kitdemo", "opening_message": "Hello, I need some help.", "customer": customer,
            "reference": reference, "policy_sections": [2], **fields}
    return Task.model_validate(data)


def shape_of(*tasks: Task) -> Any:
    suite = Suite("kitdemo", list(tasks), {"kitdemo": DOMAIN})
    [domain] = measure_suite(suite).domains
    return domain


def only(*tasks: Task) -> Any:
    suite = Suite("kitdemo", list(tasks), {"kitdemo": DOMAIN})
    return {s.id: s for s in _task_shapes(suite)}


def _task_shapes(suite: Suite) -> list[Any]:
    out = []
    for t in suite.tasks:
        played: list[Any] = []
        replay(suite, t, t.reference, played=played)
        out.append(task_shape(suite, t, reference_trace(t, played)))
    return out


@pytest.fixture(scope="module")
def street_change() -> Task:
    [t] = load_task_dir(DOMAIN.task_dir, "kitdemo")
    return t


def test_the_write_sequence_leaves_out_the_texted_code(street_change: Task) -> None:
    shape = only(street_change)["verified_street_change"]
    assert shape.writes == ["change_street"], shape
    assert shape.write_keys == ["change_street(member_id,street)"]


def test_a_task_writing_only_tickets_and_comments_is_helpdesk_only(street_change: Task) -> None:
    shapes = only(task("ticket_only", [OPEN, COMMENT, SOLVE]), street_change)
    assert (shapes["ticket_only"].helpdesk_only, shapes["verified_street_change"].helpdesk_only) == (True, False)


def test_a_task_whose_writes_no_verify_check_guards_is_unverified_where_the_policy_requires_it() -> None:
    shapes = only(task("unguarded", [OPEN, COMMENT, SOLVE], checks=[VERIFY_STREET]),
                  task("no_rule", [OPEN, COMMENT, SOLVE]))
    assert (shapes["unguarded"].unverified, shapes["no_rule"].unverified) == (True, False)
    assert any("verify_before" in p for p in shapes["unguarded"].problems), shapes["unguarded"].problems


def test_a_task_saying_why_it_needs_no_verification_is_not_unverified() -> None:
    said = task("handed_off", [OPEN, COMMENT, SOLVE], checks=[VERIFY_STREET],
                verification_not_required="policy 1: a member who cannot verify only gets a ticket")
    assert not only(said)["handed_off"].unverified


def test_a_read_only_task_is_judged_on_verification_by_its_reads() -> None:
    read = {"tool": "get_ticket", "args": {"ticket_id": "TCK-777"}}
    rows = {"tickets": [TICKET_ROW]}
    unguarded = task("status_question", [read], read_only=True, initial_rows=rows, checks=[VERIFY_STREET])
    guarded = task("status_question_verified", [read], read_only=True, initial_rows=rows,
                   checks=[VERIFY_STREET, {**VERIFY_STREET, "tools": ["get_ticket"]}])
    shapes = only(unguarded, guarded)
    assert (shapes["status_question"].unverified, shapes["status_question_verified"].unverified) == (True, False)


def test_a_fact_a_listing_shows_before_the_customer_gives_it_is_discoverable() -> None:
    ticket_fact = {"key": "ticket", "value": "TCK-777", "asked_by": ["ticket number"]}
    reference = [{"tool": "list_member_tickets", "args": {"member_id": "MEM-1"}},
                 {"tool": "update_ticket_status", "args": {"ticket_id": "TCK-777", "status": "solved"}}]
    leaky = task("leaky", reference, initial_rows={"tickets": [TICKET_ROW]},
                 customer={"facts": [MEMBER, ticket_fact]})
    shape = only(leaky)["leaky"]
    assert shape.discoverable == ["ticket (list_member_tickets)"], shape
    line = "private fact ticket (list_member_tickets) is shown by a tool before the customer states it"
    assert line in shape.problems


def test_a_fact_only_calls_that_hold_it_show_is_not_discoverable() -> None:
    ticket_fact = {"key": "ticket", "value": "TCK-777", "asked_by": ["ticket number"]}
    reference = [{"tool": "get_ticket", "args": {"ticket_id": "TCK-777"}},
                 {"tool": "update_ticket_status", "args": {"ticket_id": "TCK-777", "status": "solved"}}]
    held = task("held", reference, initial_rows={"tickets": [TICKET_ROW]}, customer={"facts": [MEMBER, ticket_fact]})
    assert only(held)["held"].discoverable == []


def test_an_identifying_fact_a_verify_check_judges_is_not_counted_as_discoverable() -> None:
    ticket_fact = {"key": "ticket", "value": "TCK-777", "asked_by": ["ticket number"]}
    reference = [{"tool": "list_member_tickets", "args": {"member_id": "MEM-1"}},
                 {"tool": "update_ticket_status", "args": {"ticket_id": "TCK-777", "status": "solved"}}]
    check = {"kind": "verify_before", "tools": ["update_ticket_status"], "facts": ["ticket"], "min_facts": 1}
    judged = task("judged", reference, initial_rows={"tickets": [TICKET_ROW]},
                  customer={"facts": [MEMBER, ticket_fact]}, checks=[check])
    assert only(judged)["judged"].discoverable == []


def test_a_write_the_customer_must_confirm_but_no_confirmation_names_is_unconfirmed(street_change: Task) -> None:
    wrong = street_change.model_copy(update={"id": "wrong_confirms", "customer": street_change.customer.model_copy(
        update={"confirms": ["withdraw from pottery"]})})
    right = street_change.model_copy(update={"id": "right_confirms", "customer": street_change.customer.model_copy(
        update={"confirms": ["change the street"]})})
    shapes = only(wrong, right)
    assert (shapes["wrong_confirms"].unconfirmed, shapes["right_confirms"].unconfirmed) == (["change_street"], [])


@pytest.mark.parametrize(("phrase", "tool", "args", "named"), [
    ("approve", "decide_claim_line", {"decision": "approved"}, True),
    ("revoke", "revoke_software_access", {"grant_id": "ACC-1"}, True),
    ("pay", "issue_claim_payment", {"amount": 530}, True),
    ("pay", "change_coverage", {"option": "payment_plan"}, False),
    ("50x30", "change_coverage", {"option": "50x30"}, True),
    ("1,000", "change_coverage", {"deductible": 1000}, True),
    ("disable", "revoke_software_access", {"grant_id": "ACC-1"}, False),
    ("the better one", "change_coverage", {"option": "50x30"}, False),
])
def test_a_confirmation_names_a_write_by_a_word_of_its_tool_or_arguments(
    phrase: str, tool: str, args: dict[str, Any], named: bool
) -> None:
    assert names(phrase, tool, args) is named


def test_three_tasks_with_the_same_writes_and_sections_are_one_near_duplicate_cluster() -> None:
    same = [task(f"stamp_{i}", [OPEN, COMMENT, SOLVE]) for i in range(3)]
    other_section = task("other_section", [OPEN, COMMENT, SOLVE], policy_sections=[3])
    shape = shape_of(*same, other_section)
    assert shape.near_duplicates == [["stamp_0", "stamp_1", "stamp_2"]], shape.near_duplicates
    assert shape.largest_cluster == 3
    assert "near-duplicate of stamp_1, stamp_2 (same writes, same policy sections)" in shape.task_problems["stamp_0"]


def test_a_task_without_policy_sections_is_told_to_declare_them() -> None:
    bare = task("bare", [OPEN, COMMENT, SOLVE], policy_sections=[])
    assert "declares no policy_sections" in " ".join(shape_of(bare).task_problems["bare"])


def test_a_section_the_policy_does_not_have_is_a_problem() -> None:
    wrong = task("wrong_section", [OPEN, COMMENT, SOLVE], policy_sections=[9])
    line = "policy_sections [9] are not sections of the kitdemo policy"
    assert line in shape_of(wrong).task_problems["wrong_section"]


def test_the_domain_totals_count_sequences_and_the_helpdesk_share(street_change: Task) -> None:
    shape = shape_of(task("ticket_only", [OPEN, COMMENT, SOLVE]), street_change)
    assert (shape.tasks, shape.write_sequences, shape.helpdesk_only, shape.helpdesk_share) == (2, 2, 1, 0.5)


def test_each_measure_below_its_minimum_is_named_with_the_measured_value(street_change: Task) -> None:
    shape = shape_of(task("ticket_only", [OPEN, COMMENT, SOLVE]), street_change)
    below = below_minimum(shape, MINIMUMS)
    assert "distinct write sequences: 2 vs 40" in below
    assert "helpdesk-only share: 50% vs <= 15%" in below
    assert not any(line.startswith("discoverable") for line in below), below


def test_every_task_without_a_review_record_is_reported(street_change: Task) -> None:
    shape = shape_of(street_change)
    assert shape.reviews == {"current": 0, "stale": 0, "open": 0, "missing": 1}
    assert "no blind review" in shape.task_problems["verified_street_change"]


def test_validate_reports_the_same_shape_as_measuring_the_suite(street_change: Task) -> None:
    suite = Suite("kitdemo", [street_change, task("ticket_only", [OPEN, COMMENT, SOLVE])], {"kitdemo": DOMAIN})
    assert shape_of_validation(suite, validate_suite(suite)) == measure_suite(suite)
