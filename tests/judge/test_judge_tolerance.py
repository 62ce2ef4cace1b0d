"""What the judge does not compare: don't-care fields, ignored fields, free text; alternatives that pass."""

from __future__ import annotations

from minidomain import effects_of, explain, judge, make_task, mini_suite
from statebox.judge import judge_attempt, required_effects, rules_for

SOLVE = "solve-printer-ticket"
SOLVED = ("update_ticket", {"ticket_id": "T-1", "status": "solved"})
EMAIL = ("send_email", {"customer_id": "CU-1", "template": "ticket_solved", "ticket_id": "T-1"})


def comment(body: str):
    return ("add_comment", {"ticket_id": "T-1", "body": body})


def verdict(task_id: str, calls):
    suite = mini_suite()
    return judge(suite, suite.task(task_id), calls)


def test_a_change_to_a_dont_care_field_only_is_not_judged():
    # Setting T-2's status to what it already is changes only updated_at, which the domain does not judge.
    v = verdict(SOLVE, [comment("ok"), SOLVED, EMAIL, ("update_ticket", {"ticket_id": "T-2", "status": "pending"})])
    assert v.passed, explain(v)


def test_a_different_value_of_a_dont_care_field_is_not_judged():
    suite = mini_suite()
    task = suite.task(SOLVE)
    required = required_effects(suite, task)
    actual = required[0].model_copy(deep=True)
    for change in actual.changes:
        if change.table == "tickets":
            change.after["updated_at"] = "2030-01-01T00:00:00"
    v = judge_attempt(actual, required, rules_for(suite, task))
    assert v.passed, explain(v)


def test_a_field_the_task_ignores_is_not_judged():
    hold_and_lower = ("update_ticket", {"ticket_id": "T-2", "status": "hold", "priority": "low"})
    v = verdict("hold-or-solve", [hold_and_lower])
    assert v.passed, explain(v)


def test_without_the_tasks_ignore_the_same_change_fails():
    suite = mini_suite()
    strict = suite.task("hold-or-solve").model_copy(update={"expect": make_task().expect})
    v = judge(
        mini_suite([strict]), strict, [("update_ticket", {"ticket_id": "T-2", "status": "hold", "priority": "low"})]
    )
    assert [d.describe() for d in v.discrepancies] == [
        "extra_effect: tickets[T-2].priority: expected 'high', got 'low'"
    ]


def test_a_comment_with_different_words_passes():
    v = verdict(SOLVE, [comment("All good now, closing as requested."), SOLVED, EMAIL])
    assert v.passed, explain(v)


def test_a_ticket_description_in_other_words_passes():
    v = verdict(
        "report-outage",
        [
            (
                "create_ticket",
                {
                    "customer_id": "CU-2",
                    "subject": "VPN down",
                    "priority": "high",
                    "description": "Office-wide VPN outage.",
                },
            ),
            ("send_email", {"customer_id": "CU-2", "template": "ticket_created", "ticket_id": "T-100"}),
        ],
    )
    assert v.passed, explain(v)


def test_no_comment_at_all_fails():
    v = verdict(SOLVE, [SOLVED, EMAIL])
    assert [(d.kind, d.table) for d in v.discrepancies] == [("missing_effect", "comments")], explain(v)


def test_free_text_is_left_out_of_the_state_hash():
    v = verdict(SOLVE, [comment("Different words entirely."), SOLVED, EMAIL])
    assert v.state_hash == v.expected_hash


def test_the_state_hash_differs_when_a_judged_value_differs():
    v = verdict(SOLVE, [comment("x"), ("update_ticket", {"ticket_id": "T-1", "status": "hold"}), EMAIL])
    assert v.state_hash != v.expected_hash


def test_an_alternative_end_state_is_accepted():
    v = verdict("hold-or-solve", [("update_ticket", {"ticket_id": "T-2", "status": "solved"})])
    assert v.passed, explain(v)
    assert v.matched_alternative == 1


def test_the_reference_end_state_is_alternative_zero():
    v = verdict("hold-or-solve", [("update_ticket", {"ticket_id": "T-2", "status": "hold"})])
    assert (v.passed, v.matched_alternative) == (True, 0), explain(v)


def test_an_end_state_matching_no_alternative_fails_with_the_closest_ones_discrepancies():
    v = verdict("hold-or-solve", [("update_ticket", {"ticket_id": "T-2", "status": "open"})])
    assert not v.passed
    assert v.matched_alternative is None
    assert explain(v) == ["wrong_value: tickets[T-2].status: expected 'hold', got 'open'"]


def test_required_effects_hold_the_reference_then_each_alternative():
    suite = mini_suite()
    task = suite.task("hold-or-solve")
    required = required_effects(suite, task)
    assert [c.after["status"] for r in required for c in r.changes] == ["hold", "solved"]


def test_a_task_is_judged_from_its_own_initial_state():
    # CU-4 exists only through the task's initial rows; creating a ticket for them is possible there.
    suite = mini_suite()
    task = suite.task("report-outage")
    assert effects_of(suite, task, [("create_ticket", {"customer_id": "CU-4", "subject": "x"})]).changes
