"""Effects: the net row-level changes of an attempt, per table, field by field."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime

import pytest

from minidomain import NOW, WORLD, mini_suite, run_calls, seed
from statebox.world import Session, Snapshot, TableSpec, WorldSpec


@pytest.fixture
def session():
    suite = mini_suite()
    s = suite.open_session(suite.task("solve-printer-ticket"))
    yield s
    s.close()


def summary(session: Session) -> list[tuple[str, str, str]]:
    return [(c.table, c.key, c.kind) for c in session.effects().changes]


def test_an_inserted_row_is_an_insert_with_the_row_as_stored():
    suite = mini_suite()
    s = run_calls(suite, suite.task("solve-printer-ticket"), [("add_comment", {"ticket_id": "T-1", "body": "Hi"})])
    [change] = s.effects().changes
    assert (change.table, change.key, change.kind, change.before) == ("comments", "C-100", "insert", None)
    assert change.after == {
        "id": "C-100",
        "ticket_id": "T-1",
        "body": "Hi",
        "public": 1,
        "created_at": NOW.isoformat(),
    }


def test_an_update_records_the_changed_fields_before_and_after(session):
    session.update("tickets", "T-1", status="hold", priority="high")
    [change] = session.effects().changes
    assert (change.table, change.key, change.kind) == ("tickets", "T-1", "update")
    assert change.changed_fields == ["priority", "status"]
    assert session.effects().to_json()["updated"] == {
        "tickets": [
            {
                "key": "T-1",
                "fields": {
                    "priority": {"before": "normal", "after": "high"},
                    "status": {"before": "open", "after": "hold"},
                },
            }
        ]
    }


def test_an_update_back_to_the_original_value_is_no_effect(session):
    session.update("tickets", "T-1", status="hold")
    session.update("tickets", "T-1", status="open")
    assert session.effects().is_empty(), session.effects().to_json()


def test_several_updates_of_one_row_are_one_net_change(session):
    session.update("tickets", "T-1", status="pending")
    session.update("tickets", "T-1", status="hold")
    [change] = session.effects().changes
    assert (change.before["status"], change.after["status"]) == ("open", "hold")


def test_a_deleted_row_is_a_delete_with_the_row_as_it_was(session):
    session.execute("DELETE FROM comments WHERE id = 'C-2'")
    [change] = session.effects().changes
    assert (change.table, change.key, change.kind, change.after) == ("comments", "C-2", "delete", None)
    assert change.before == {
        "id": "C-2",
        "ticket_id": "T-2",
        "body": "Asked IT to check the mail relay.",
        "public": 0,
        "created_at": "2024-04-02T10:00:00",
    }


def test_insert_then_delete_is_no_effect():
    suite = mini_suite()
    s = run_calls(
        suite,
        suite.task("solve-printer-ticket"),
        [
            ("add_comment", {"ticket_id": "T-1", "body": "oops", "public": False}),
            ("delete_comment", {"comment_id": "C-100"}),
        ],
    )
    assert s.effects().is_empty(), s.effects().to_json()


def test_delete_then_reinsert_of_the_same_row_is_no_effect(session):
    row = session.one("SELECT * FROM comments WHERE id = 'C-1'")
    session.execute("DELETE FROM comments WHERE id = 'C-1'")
    session.insert("comments", row)
    assert session.effects().is_empty(), session.effects().to_json()


def test_a_side_effect_is_a_row_in_its_ledger_table():
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    s = run_calls(
        suite, task, [("send_email", {"customer_id": "CU-1", "template": "ticket_solved", "ticket_id": "T-1"})]
    )
    assert suite.domain_of(task).world.table("emails_sent").ledger
    assert s.effects().to_json() == {
        "inserted": {
            "emails_sent": [
                {
                    "id": "E-1",
                    "to_address": "ada@example.com",
                    "template": "ticket_solved",
                    "ticket_id": "T-1",
                    "sent_at": NOW.isoformat(),
                }
            ]
        },
        "updated": {},
        "deleted": {},
    }


def test_a_read_changes_nothing():
    suite = mini_suite()
    s = run_calls(suite, suite.task("check-status"), [("get_ticket", {"ticket_id": "T-2"})])
    assert s.effects().is_empty(), s.effects().to_json()


def test_effects_are_sorted_by_table_and_key(session):
    session.update("tickets", "T-2", status="hold")
    session.update("tickets", "T-1", status="hold")
    session.execute("DELETE FROM comments WHERE id = 'C-2'")
    assert summary(session) == [
        ("comments", "C-2", "delete"),
        ("tickets", "T-1", "update"),
        ("tickets", "T-2", "update"),
    ]


def _real_world() -> WorldSpec:
    def seed_accounts(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO accounts VALUES ('A-1', ?, 'open')", (0.1 + 0.2,))

    ddl = "CREATE TABLE accounts (id TEXT PRIMARY KEY, balance REAL NOT NULL, status TEXT NOT NULL);"
    return WorldSpec(
        "floats", ddl, {"accounts": TableSpec("accounts")}, datetime(2024, 1, 1, tzinfo=UTC), seed=seed_accounts
    )


def test_an_untouched_real_field_of_an_updated_row_is_not_reported_as_changed():
    s = Session(Snapshot.build(_real_world()))
    s.update("accounts", "A-1", status="frozen")
    [change] = s.effects().changes
    assert change.changed_fields == ["status"], change.model_dump()


# -- a database of 100,000 rows ------------------------------------------------------------------

BIG = 100_000


def _grown(rows: int) -> Snapshot:
    """The mini world with `rows` old emails (OLD-0 .. OLD-{rows - 1}) in its ledger."""

    def grown_seed(conn: sqlite3.Connection) -> None:
        seed(conn)
        conn.executemany(
            "INSERT INTO emails_sent VALUES (?, 'old@example.com', 'ticket_created', NULL, '2024-01-01T00:00:00')",
            ((f"OLD-{i}",) for i in range(rows)),
        )

    return Snapshot.build(dataclasses.replace(WORLD, seed=grown_seed))


@pytest.fixture(scope="module")
def big_snapshot() -> Snapshot:
    return _grown(BIG)


def _three_changes(s: Session, rows: int) -> None:
    s.update("emails_sent", "OLD-500", template="ticket_solved")
    s.execute("DELETE FROM emails_sent WHERE id = ?", f"OLD-{rows - 1}")
    s.insert(
        "emails_sent",
        {
            "id": "E-1",
            "to_address": "a@example.com",
            "template": "ticket_on_hold",
            "ticket_id": "T-2",
            "sent_at": "2024-05-01",
        },
    )


def test_effects_on_a_100k_row_table_are_exactly_the_three_changes(big_snapshot):
    s = Session(big_snapshot)
    assert s.one("SELECT count(*) AS n FROM emails_sent") == {"n": BIG}
    _three_changes(s, BIG)
    assert summary(s) == [
        ("emails_sent", "E-1", "insert"),
        ("emails_sent", "OLD-500", "update"),
        ("emails_sent", f"OLD-{BIG - 1}", "delete"),
    ]
    assert s.effects().changes[1].changed_fields == ["template"]


def _effects_vm_steps(snapshot: Snapshot, rows: int) -> int:
    """SQLite virtual-machine steps spent extracting effects: a measure of work that does not depend on timing."""
    s = Session(snapshot)
    _three_changes(s, rows)
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    s.db.set_progress_handler(count, 1)
    assert len(s.effects().changes) == 3
    s.db.set_progress_handler(None, 1)
    return steps


def test_effects_work_does_not_grow_with_the_size_of_the_database(big_snapshot):
    small, big = _effects_vm_steps(_grown(1_000), 1_000), _effects_vm_steps(big_snapshot, BIG)
    assert big <= small * 1.1 + 5, f"{small} VM steps with 1,000 rows, {big} with {BIG:,} rows"
