"""The state judge: every difference from the required end state is a typed discrepancy (default deny)."""

from __future__ import annotations

from minidomain import explain, judge, make_task, mini_suite
from statebox.judge import Discrepancy, judge_attempt, required_effects, rules_for

SOLVE = "solve-printer-ticket"
COMMENT = ("add_comment", {"ticket_id": "T-1", "body": "Works again, says the customer."})
SOLVED = ("update_ticket", {"ticket_id": "T-1", "status": "solved"})
EMAIL = ("send_email", {"customer_id": "CU-1", "template": "ticket_solved", "ticket_id": "T-1"})


def verdict(task_id: str, calls):
    suite = mini_suite()
    return judge(suite, suite.task(task_id), calls)


def where(discrepancies: list[Discrepancy]) -> list[tuple]:
    return [(d.kind, d.table, d.key, d.field) for d in discrepancies]


def test_the_reference_solution_passes():
    v = verdict(SOLVE, [COMMENT, SOLVED, EMAIL])
    assert v.passed, explain(v)
    assert v.matched_alternative == 0


def test_doing_the_same_writes_in_another_order_passes():
    v = verdict(SOLVE, [EMAIL, SOLVED, COMMENT])
    assert v.passed, explain(v)


def test_doing_nothing_fails_with_every_required_effect_missing():
    v = verdict(SOLVE, [])
    assert where(v.discrepancies) == [
        ("missing_effect", "comments", "C-100", None),
        ("missing_effect", "emails_sent", "E-1", None),
        ("missing_effect", "tickets", "T-1", "status"),
    ], explain(v)


# -- updates --------------------------------------------------------------------------------------


def test_an_update_to_the_wrong_value_is_a_wrong_value():
    v = verdict(SOLVE, [COMMENT, ("update_ticket", {"ticket_id": "T-1", "status": "pending"}), EMAIL])
    assert v.discrepancies == [
        Discrepancy(kind="wrong_value", table="tickets", key="T-1", field="status", expected="solved", actual="pending")
    ], explain(v)


def test_a_missing_update_is_a_missing_effect_showing_the_unchanged_value():
    v = verdict(SOLVE, [COMMENT, EMAIL])
    assert v.discrepancies == [
        Discrepancy(kind="missing_effect", table="tickets", key="T-1", field="status", expected="solved", actual="open")
    ], explain(v)


def test_an_extra_field_changed_on_a_required_row_is_an_extra_effect():
    v = verdict(
        SOLVE, [COMMENT, ("update_ticket", {"ticket_id": "T-1", "status": "solved", "priority": "high"}), EMAIL]
    )
    assert v.discrepancies == [
        Discrepancy(kind="extra_effect", table="tickets", key="T-1", field="priority", expected="normal", actual="high")
    ], explain(v)


def test_default_deny_an_extra_update_of_an_unrelated_row_fails():
    v = verdict(SOLVE, [COMMENT, SOLVED, EMAIL, ("update_ticket", {"ticket_id": "T-2", "priority": "low"})])
    assert v.discrepancies == [
        Discrepancy(kind="extra_effect", table="tickets", key="T-2", field="priority", expected="high", actual="low")
    ], explain(v)


# -- inserts --------------------------------------------------------------------------------------


def test_an_inserted_row_with_a_wrong_field_is_a_wrong_value():
    wrong = ("send_email", {"customer_id": "CU-1", "template": "ticket_on_hold", "ticket_id": "T-1"})
    v = verdict(SOLVE, [COMMENT, SOLVED, wrong])
    assert v.discrepancies == [
        Discrepancy(
            kind="wrong_value",
            table="emails_sent",
            key="E-1",
            field="template",
            expected="ticket_solved",
            actual="ticket_on_hold",
        )
    ], explain(v)


def test_a_missing_insert_is_a_missing_effect_showing_the_expected_row():
    v = verdict(SOLVE, [COMMENT, SOLVED])
    [d] = v.discrepancies
    assert (d.kind, d.table, d.key, d.field, d.actual) == ("missing_effect", "emails_sent", "E-1", None, None)
    assert d.expected == {
        "id": "E-1",
        "to_address": "ada@example.com",
        "template": "ticket_solved",
        "ticket_id": "T-1",
    }, "sent_at is don't-care, so it is not shown"


def test_an_extra_insert_is_an_extra_effect():
    v = verdict(SOLVE, [COMMENT, SOLVED, EMAIL, EMAIL])
    assert where(v.discrepancies) == [("extra_effect", "emails_sent", "E-2", None)], explain(v)


def test_an_extra_ledger_row_is_an_extra_effect():
    hold = ("send_email", {"customer_id": "CU-2", "template": "ticket_on_hold", "ticket_id": "T-2"})
    v = verdict(SOLVE, [COMMENT, SOLVED, EMAIL, hold])
    assert where(v.discrepancies) == [("extra_effect", "emails_sent", "E-2", None)], explain(v)
    assert v.discrepancies[0].actual["to_address"] == "bob@example.com"


# -- deletes --------------------------------------------------------------------------------------

DELETE_NOTE = make_task(id="drop-note", reference=[{"tool": "delete_comment", "args": {"comment_id": "C-2"}}])


def judge_made(task, calls):
    return judge(mini_suite([task]), task, calls)


def test_a_required_delete_that_is_done_passes():
    v = judge_made(DELETE_NOTE, [("delete_comment", {"comment_id": "C-2"})])
    assert v.passed, explain(v)


def test_a_missing_delete_is_a_missing_effect():
    v = judge_made(DELETE_NOTE, [])
    [d] = v.discrepancies
    assert (d.kind, d.table, d.key, d.field, d.expected) == ("missing_effect", "comments", "C-2", None, "<deleted>")
    assert d.actual["body"] == "Asked IT to check the mail relay."


def test_an_extra_delete_is_an_extra_effect():
    v = verdict(SOLVE, [COMMENT, SOLVED, EMAIL, ("delete_comment", {"comment_id": "C-2"})])
    [d] = v.discrepancies
    assert (d.kind, d.table, d.key, d.field, d.actual) == ("extra_effect", "comments", "C-2", None, "<deleted>")
    assert d.expected["id"] == "C-2"


def test_updating_a_row_that_should_have_been_deleted_is_missing_the_delete_and_has_an_extra_update():
    suite = mini_suite([DELETE_NOTE])
    session = suite.open_session(DELETE_NOTE)
    session.update("comments", "C-2", public=1)
    v = judge_attempt(session.effects(), required_effects(suite, DELETE_NOTE), rules_for(suite, DELETE_NOTE))
    assert where(v.discrepancies) == [
        ("missing_effect", "comments", "C-2", None),
        ("extra_effect", "comments", "C-2", "public"),
    ], explain(v)


def test_a_discrepancy_describes_itself_in_the_domains_words():
    v = verdict(SOLVE, [COMMENT, ("update_ticket", {"ticket_id": "T-1", "status": "pending"}), EMAIL])
    assert explain(v) == ["wrong_value: tickets[T-1].status: expected 'solved', got 'pending'"]
