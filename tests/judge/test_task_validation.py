"""Task validation: the reference passes, doing nothing fails, every write is needed, mutants are caught."""

from __future__ import annotations

from minidomain import make_task, mini_suite
from statebox.judge import validate_suite, validate_task

FACT = {"key": "ticket_id", "value": "T-1", "asked_by": ["ticket number"]}


def validated(task):
    return validate_task(mini_suite([task]), task)


def test_a_good_task_passes_every_check():
    suite = mini_suite()
    r = validate_task(suite, suite.task("solve-printer-ticket"))
    assert (r.reference_passes, r.noop_fails, r.necessary_calls, r.problems) == (True, True, True, []), r
    assert (r.writes, r.facts, r.tags) == (3, 1, ["solve", "email"])
    assert r.mutants_caught == r.mutants_total >= 3, r
    assert r.ok


def test_every_mini_task_is_valid():
    results = validate_suite(mini_suite())
    assert [r.id for r in results if not r.ok] == [], [r.model_dump() for r in results if not r.ok]


def test_mutants_cover_each_judged_field_each_required_effect_and_one_extra():
    suite = mini_suite()
    r = validate_task(suite, suite.task("hold-or-solve"))
    # one update (status): one wrong-value mutant, one dropped-effect mutant, one extra row
    assert (r.mutants_caught, r.mutants_total) == (3, 3), r


def test_a_task_whose_reference_deletes_a_row_is_valid():
    task = make_task(
        customer={"goal": "drop the note", "facts": [{**FACT, "key": "note", "value": "C-2"}]},
        reference=[{"tool": "delete_comment", "args": {"comment_id": "C-2"}}],
    )
    r = validated(task)
    assert r.ok, r


def test_an_unnecessary_write_is_reported():
    task = make_task(
        customer={"goal": "close it", "facts": [FACT]},
        reference=[
            {"tool": "update_ticket", "args": {"ticket_id": "T-1", "status": "solved"}},
            {"tool": "update_ticket", "args": {"ticket_id": "T-1", "priority": "normal"}},  # already normal
        ],
    )
    r = validated(task)
    assert (r.reference_passes, r.noop_fails, r.necessary_calls) == (True, True, False), r
    assert r.problems == ["reference call(s) not needed by the judge: 1 (update_ticket)"]
    assert not r.ok


def test_a_write_a_later_call_depends_on_is_necessary():
    suite = mini_suite()
    r = validate_task(suite, suite.task("report-outage"))
    assert r.necessary_calls, r


def test_a_reference_that_errors_fails_validation_naming_the_call():
    task = make_task(
        id="bad-ref",
        customer={"goal": "reopen", "facts": [{**FACT, "value": "T-3"}]},
        reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-3", "status": "open"}}],
    )
    r = validated(task)
    assert not r.reference_passes
    assert r.problems == [
        "task 'bad-ref': reference call 0 (update_ticket) failed: Error (precondition_failed): "
        "ticket T-3 is solved and cannot be reopened. Hint: open a new ticket."
    ]
    assert not r.ok


def test_a_read_only_task_has_no_noop_check():
    suite = mini_suite()
    r = validate_task(suite, suite.task("check-status"))
    assert (r.read_only, r.noop_fails, r.reference_passes, r.necessary_calls, r.writes) == (True, None, True, True, 0)
    assert (r.mutants_caught, r.mutants_total, r.problems) == (0, 0, []), r
    assert r.ok


def test_a_task_that_doing_nothing_passes_is_reported():
    task = make_task(
        customer={"goal": "nothing really", "facts": [FACT]},
        reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-1", "priority": "normal"}}],
    )
    r = validated(task)
    assert r.noop_fails is False, r
    assert not r.ok


def test_a_read_only_task_whose_reference_writes_is_reported():
    task = make_task(
        read_only=True,
        customer={"goal": "close it", "facts": [FACT]},
        reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-1", "status": "solved"}}],
    )
    r = validated(task)
    assert "declared read_only, but the reference changes state" in r.problems, r


def test_a_private_fact_already_in_the_opening_message_is_reported():
    task = make_task(
        opening_message="Please close T-1.",
        customer={"goal": "close it", "facts": [FACT]},
        reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-1", "status": "solved"}}],
    )
    assert "private fact 'ticket_id' is already in the opening message" in validated(task).problems


def test_a_private_fact_the_reference_never_uses_is_reported():
    task = make_task(
        customer={"goal": "close it", "facts": [{**FACT, "value": "T-2"}]},
        reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-1", "status": "solved"}}],
    )
    assert "private fact 'ticket_id' is not used by the reference or the initial rows" in validated(task).problems


def test_a_task_without_writes_that_is_not_read_only_is_reported():
    task = make_task(
        customer={"goal": "g", "facts": [FACT]}, reference=[{"tool": "get_ticket", "args": {"ticket_id": "T-1"}}]
    )
    assert "0 state-changing reference calls; a task needs 1 to 8" in validated(task).problems
