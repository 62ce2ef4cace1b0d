"""Any route to the right outcome passes: generated ids are matched by content, not compared as such."""

from __future__ import annotations

from datetime import UTC, datetime

from minidomain import explain, judge, mini_suite, run_calls
from statebox.judge import JudgingRules, judge_state, rules_for
from statebox.world import Effects, RowChange, TableSpec, WorldSpec

OUTAGE = "report-outage"
RIGHT_TICKET = (
    "create_ticket",
    {"customer_id": "CU-2", "subject": "VPN down", "priority": "high", "description": "No VPN since 8am."},
)
JUNK_TICKET = ("create_ticket", {"customer_id": "CU-2", "subject": "test, please ignore"})


def email_about(ticket_id: str):
    return ("send_email", {"customer_id": "CU-2", "template": "ticket_created", "ticket_id": ticket_id})


def verdict(task_id: str, calls):
    suite = mini_suite()
    return judge(suite, suite.task(task_id), calls)


def test_an_extra_ticket_that_shifts_every_generated_id_fails_for_the_extra_ticket_only():
    # The extra ticket takes T-100, so the right ticket is T-101 and the email refers to T-101.
    v = verdict(OUTAGE, [JUNK_TICKET, RIGHT_TICKET, email_about("T-101")])
    assert [(d.kind, d.table, d.key, d.field) for d in v.discrepancies] == [
        ("extra_effect", "tickets", "T-100", None)
    ], explain(v)
    assert v.discrepancies[0].actual["subject"] == "test, please ignore"


def moved_note(calls, target: str) -> Effects:
    """Effects of the calls, then of moving internal note C-2 onto ticket `target` (no tool does that)."""
    suite = mini_suite()
    session = run_calls(suite, suite.task(OUTAGE), calls)
    session.update("comments", "C-2", ticket_id=target)
    return session.effects()


def test_an_existing_row_pointing_at_a_generated_row_is_judged_through_the_id_mapping():
    suite = mini_suite()
    required = moved_note([RIGHT_TICKET], "T-100")
    actual = moved_note([JUNK_TICKET, RIGHT_TICKET], "T-101")
    v = judge_state(actual, required, rules_for(suite, suite.task(OUTAGE)))
    assert [(d.kind, d.table, d.key, d.field) for d in v.discrepancies] == [
        ("extra_effect", "tickets", "T-100", None)
    ], explain(v)


def test_an_existing_row_pointing_at_the_wrong_generated_row_is_a_wrong_value():
    suite = mini_suite()
    required = moved_note([RIGHT_TICKET], "T-100")
    actual = moved_note([JUNK_TICKET, RIGHT_TICKET], "T-100")
    v = judge_state(actual, required, rules_for(suite, suite.task(OUTAGE)))
    assert [(d.kind, d.table, d.key, d.field) for d in v.discrepancies] == [
        ("extra_effect", "tickets", "T-100", None),
        ("wrong_value", "comments", "C-2", "ticket_id"),
    ], explain(v)


def test_referring_to_the_wrong_generated_row_is_a_wrong_value():
    v = verdict(OUTAGE, [JUNK_TICKET, RIGHT_TICKET, email_about("T-100")])
    assert [(d.kind, d.table, d.key, d.field) for d in v.discrepancies] == [
        ("extra_effect", "tickets", "T-100", None),
        ("wrong_value", "emails_sent", "E-1", "ticket_id"),
    ], explain(v)


def test_a_wrong_reference_to_a_generated_row_reads_as_a_difference():
    v = verdict(OUTAGE, [JUNK_TICKET, RIGHT_TICKET, email_about("T-100")])
    [d] = [d for d in v.discrepancies if d.kind == "wrong_value"]
    assert d.actual != d.expected, d.describe()


def test_inserted_rows_are_matched_by_content_when_created_in_another_order():
    # The reference creates the fan ticket first; this agent creates the monitor ticket first.
    v = verdict(
        "split-request",
        [
            ("create_ticket", {"customer_id": "CU-3", "subject": "Monitor flickers"}),
            ("create_ticket", {"customer_id": "CU-3", "subject": "Laptop fan noisy", "priority": "low"}),
            ("add_comment", {"ticket_id": "T-101", "body": "Fan is under warranty?", "public": False}),
            ("add_comment", {"ticket_id": "T-100", "body": "Swap the cable.", "public": False}),
        ],
    )
    assert v.passed, explain(v)


def test_rows_that_differ_only_by_the_generated_row_they_refer_to_are_matched_through_it():
    # Tickets in the reference's order, notes in the opposite order: comments differ only in ticket_id.
    v = verdict(
        "split-request",
        [
            ("create_ticket", {"customer_id": "CU-3", "subject": "Laptop fan noisy", "priority": "low"}),
            ("create_ticket", {"customer_id": "CU-3", "subject": "Monitor flickers"}),
            ("add_comment", {"ticket_id": "T-101", "body": "Swap the cable.", "public": False}),
            ("add_comment", {"ticket_id": "T-100", "body": "Fan is under warranty?", "public": False}),
        ],
    )
    assert v.passed, explain(v)


# -- integer keys (autoincrement-style ids) -------------------------------------------------------

ORDERS = WorldSpec("orders", "", {"orders": TableSpec("orders")}, datetime(2024, 1, 1, tzinfo=UTC))


def order(key: int, item: str, qty: int) -> RowChange:
    return RowChange(table="orders", key=key, kind="insert", after={"id": key, "item": item, "qty": qty})


def test_a_plain_number_that_equals_a_generated_id_is_compared_as_a_number():
    required = Effects(changes=[order(1, "lamp", 1)])
    actual = Effects(changes=[order(1, "junk", 3), order(2, "lamp", 1)])
    v = judge_state(actual, required, JudgingRules(ORDERS))
    assert [(d.kind, d.key, d.field) for d in v.discrepancies] == [("extra_effect", 1, None)], explain(v)
