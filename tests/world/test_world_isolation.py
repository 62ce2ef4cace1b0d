"""A session is a private copy of the domain: the pristine snapshot plus the task's initial rows."""

from __future__ import annotations

from typing import Any

import pytest

from minidomain import make_task, mini_suite, run_calls
from statebox.tasks import TaskFileError
from statebox.world import Session, WorldError


def dump(session: Session) -> dict[str, dict[Any, dict[str, Any]]]:
    """Every row of every domain table, by primary key."""
    out = {}
    for table in session.baseline.tables:
        pk = session.spec.table(table).primary_key
        out[table] = {r[pk]: r for r in session.all(f'SELECT * FROM "{table}"')}
    return out


def test_two_sessions_of_one_task_never_see_each_others_writes():
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    a = suite.open_session(task)
    b = suite.open_session(task)
    untouched = dump(b)

    tools = suite.domain_of(task).tools
    assert not tools.call(a, "update_ticket", {"ticket_id": "T-1", "status": "solved"}).is_error
    assert not tools.call(a, "create_ticket", {"customer_id": "CU-1", "subject": "Toner"}).is_error

    assert dump(b) == untouched
    assert b.effects().is_empty(), b.effects().to_json()
    assert a.one("SELECT status FROM tickets WHERE id = 'T-1'") == {"status": "solved"}


def test_writes_of_a_closed_session_do_not_reach_the_next_session():
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    first = run_calls(suite, task, [("create_ticket", {"customer_id": "CU-1", "subject": "Toner"})])
    first.close()
    second = suite.open_session(task)
    assert second.one("SELECT id FROM tickets WHERE id = 'T-100'") is None


def test_a_fresh_session_is_the_pristine_snapshot_plus_the_initial_rows():
    suite = mini_suite()
    task = suite.task("report-outage")
    pristine = dump(Session(suite.snapshot("mini")))
    fresh = dump(suite.open_session(task))

    expected = {t: dict(rows) for t, rows in pristine.items()}
    expected["customers"]["CU-2"] = {**pristine["customers"]["CU-2"], "tier": "gold"}
    expected["customers"]["CU-4"] = {
        "id": "CU-4",
        "name": "Dee Disk",
        "email": "dee@example.com",
        "tier": "basic",
        "phone": None,
    }
    assert fresh == expected


def test_upsert_of_an_existing_row_changes_only_the_given_fields():
    suite = mini_suite()
    session = suite.open_session(suite.task("report-outage"))
    assert session.one("SELECT * FROM customers WHERE id = 'CU-2'") == {
        "id": "CU-2",
        "name": "Bob Byte",
        "email": "bob@example.com",
        "tier": "gold",
        "phone": "+44 2",
    }


def test_upsert_of_an_existing_row_needs_only_its_key_and_the_changed_fields():
    suite = mini_suite()
    task = make_task(initial_rows={"tickets": [{"id": "T-1", "status": "pending"}]})
    session = suite.open_session(task)
    assert session.one("SELECT subject, status FROM tickets WHERE id = 'T-1'") == {
        "subject": "Printer jams",
        "status": "pending",
    }


def test_initial_rows_are_the_attempts_start_not_its_effects():
    suite = mini_suite()
    session = suite.open_session(suite.task("report-outage"))
    assert session.effects().is_empty(), session.effects().to_json()


def test_unknown_table_in_initial_rows_is_an_error_naming_it():
    session = Session(mini_suite().snapshot("mini"))
    with pytest.raises(WorldError, match=r"unknown table 'tikets'.*'tickets'"):
        session.apply_rows({"tikets": [{"id": "T-1"}]})


def test_unknown_column_in_initial_rows_is_an_error_naming_it_and_its_table():
    session = Session(mini_suite().snapshot("mini"))
    with pytest.raises(WorldError, match=r"table 'tickets' row 0: unknown column\(s\) \['colour'\]"):
        session.apply_rows({"tickets": [{"id": "T-1", "colour": "red"}]})


def test_initial_row_without_its_primary_key_is_an_error():
    session = Session(mini_suite().snapshot("mini"))
    with pytest.raises(WorldError, match=r"table 'customers' row 1: missing primary key 'id'"):
        session.apply_rows({"customers": [{"id": "CU-9", "name": "N", "email": "n@x"}, {"name": "No Id"}]})


def test_a_bad_initial_row_leaves_the_session_untouched():
    session = Session(mini_suite().snapshot("mini"))
    before = dump(session)
    with pytest.raises(WorldError):
        session.apply_rows({"customers": [{"id": "CU-9", "name": "N", "email": "n@x"}, {"id": "CU-8", "bad": 1}]})
    assert dump(session) == before


def test_a_task_with_a_bad_initial_row_fails_with_its_id_and_the_field():
    suite = mini_suite()
    task = make_task(id="typo-task", initial_rows={"tickets": [{"id": "T-1", "colour": "red"}]})
    with pytest.raises(TaskFileError) as info:
        suite.open_session(task)
    message = str(info.value)
    assert "'typo-task'" in message and "initial_rows" in message and "colour" in message, message
