"""A tiny helpdesk domain for testing the engine, independent of the built-in domains.

Tables: customers, tickets (free-text `description`, don't-care `updated_at`), comments (free-text
`body`, don't-care `created_at`) and the ledger `emails_sent`. Generated ids come from sequences:
tickets T-100, T-101, ...; comments C-100, ...; emails E-1, ....
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from statebox.judge import Verdict, judge_attempt, required_effects, rules_for
from statebox.suites import Suite
from statebox.tasks import Domain, Task, load_task_dir
from statebox.tools import BoundTools, InvalidArguments, NotFound, PreconditionFailed, Toolset, tool
from statebox.world import Effects, Sequence, Session, TableSpec, WorldSpec

TASK_DIR = Path(__file__).parent / "tasks"
NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

DDL = """
CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    tier TEXT NOT NULL DEFAULT 'basic',
    phone TEXT
);
CREATE TABLE tickets (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    subject TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'pending', 'hold', 'solved')),
    priority TEXT NOT NULL DEFAULT 'normal',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    ticket_id TEXT NOT NULL,
    body TEXT NOT NULL,
    public INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);
CREATE TABLE emails_sent (
    id TEXT PRIMARY KEY,
    to_address TEXT NOT NULL,
    template TEXT NOT NULL,
    ticket_id TEXT,
    sent_at TEXT NOT NULL
);
"""

TABLES = {
    "customers": TableSpec("customers"),
    "tickets": TableSpec("tickets", free_text=frozenset({"description"}), dont_care=frozenset({"updated_at"})),
    "comments": TableSpec("comments", free_text=frozenset({"body"}), dont_care=frozenset({"created_at"})),
    "emails_sent": TableSpec("emails_sent", ledger=True, dont_care=frozenset({"sent_at"})),
}

SEQUENCES = {"ticket": Sequence("T-", 100), "comment": Sequence("C-", 100), "email": Sequence("E-", 1)}

SEED_CUSTOMERS = [
    ("CU-1", "Ada Lovelace", "ada@example.com", "gold", "+44 1"),
    ("CU-2", "Bob Byte", "bob@example.com", "basic", "+44 2"),
    ("CU-3", "Cy Cache", "cy@example.com", "basic", None),
]
SEED_TICKETS = [
    ("T-1", "CU-1", "Printer jams", "Paper jams on every page.", "open", "normal"),
    ("T-2", "CU-2", "Cannot log in", "Password reset mail never arrives.", "pending", "high"),
    ("T-3", "CU-3", "Invoice copy", "Needs a copy of the March invoice.", "solved", "low"),
]
SEED_COMMENTS = [
    ("C-1", "T-1", "We are looking into it.", 1),
    ("C-2", "T-2", "Asked IT to check the mail relay.", 0),
]


def seed(conn: sqlite3.Connection) -> None:
    conn.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, ?)", SEED_CUSTOMERS)
    conn.executemany(
        "INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, '2024-04-01T09:00:00', '2024-04-01T09:00:00')", SEED_TICKETS
    )
    conn.executemany("INSERT INTO comments VALUES (?, ?, ?, ?, '2024-04-02T10:00:00')", SEED_COMMENTS)


WORLD = WorldSpec(name="mini", ddl=DDL, tables=TABLES, now=NOW, seed=seed, sequences=SEQUENCES)

Priority = Literal["low", "normal", "high"]
Status = Literal["open", "pending", "hold", "solved"]
Template = Literal["ticket_created", "ticket_solved", "ticket_on_hold"]


def _ticket(session: Session, ticket_id: str) -> dict[str, Any]:
    row = session.one("SELECT * FROM tickets WHERE id = ?", ticket_id)
    if row is None:
        raise NotFound(
            f"no ticket {ticket_id!r}.", hint="ticket ids look like T-1; ask the customer for the id in their email."
        )
    return row


@tool(writes=False)
def get_ticket(session: Session, ticket_id: str) -> dict[str, Any]:
    """Look up a ticket with its comments.

    Args:
        ticket_id: The ticket id, like T-1.
    """
    row = _ticket(session, ticket_id)
    row["comments"] = session.all("SELECT id, body, public FROM comments WHERE ticket_id = ? ORDER BY id", ticket_id)
    return row


@tool(writes=True)
def create_ticket(
    session: Session, customer_id: str, subject: str, description: str = "", priority: Priority = "normal"
) -> dict[str, Any]:
    """Open a new ticket for a customer.

    Args:
        customer_id: The customer's id, like CU-1.
        subject: One line saying what the problem is.
        description: The problem in the customer's words.
        priority: How urgent the problem is.
    """
    if session.one("SELECT id FROM customers WHERE id = ?", customer_id) is None:
        raise NotFound(f"no customer {customer_id!r}.", hint="customer ids look like CU-1.")
    now = session.now.isoformat()
    row = {
        "id": session.next_id("ticket"),
        "customer_id": customer_id,
        "subject": subject,
        "description": description,
        "status": "open",
        "priority": priority,
        "created_at": now,
        "updated_at": now,
    }
    return session.insert("tickets", row)


@tool(writes=True)
def update_ticket(
    session: Session, ticket_id: str, status: Status | None = None, priority: Priority | None = None
) -> dict[str, Any]:
    """Change a ticket's status and/or priority.

    Args:
        ticket_id: The ticket id, like T-1.
        status: The new status; a solved ticket cannot be reopened.
        priority: The new priority.
    """
    if status is None and priority is None:
        raise InvalidArguments("give a status, a priority or both.")
    row = _ticket(session, ticket_id)
    if row["status"] == "solved" and status not in (None, "solved"):
        raise PreconditionFailed(f"ticket {ticket_id} is solved and cannot be reopened.", hint="open a new ticket.")
    fields: dict[str, Any] = {"updated_at": session.now.isoformat()}
    if status is not None:
        fields["status"] = status
    if priority is not None:
        fields["priority"] = priority
    session.update("tickets", ticket_id, **fields)
    return _ticket(session, ticket_id)


@tool(writes=True)
def add_comment(session: Session, ticket_id: str, body: str, public: bool = True) -> dict[str, Any]:
    """Add a comment to a ticket.

    Args:
        ticket_id: The ticket id, like T-1.
        body: The comment text.
        public: Whether the customer sees the comment.
    """
    _ticket(session, ticket_id)
    row = {
        "id": session.next_id("comment"),
        "ticket_id": ticket_id,
        "body": body,
        "public": int(public),
        "created_at": session.now.isoformat(),
    }
    return session.insert("comments", row)


@tool(writes=True)
def delete_comment(session: Session, comment_id: str) -> dict[str, Any]:
    """Delete an internal comment.

    Args:
        comment_id: The comment id, like C-2.
    """
    row = session.one("SELECT * FROM comments WHERE id = ?", comment_id)
    if row is None:
        raise NotFound(f"no comment {comment_id!r}.")
    if row["public"]:
        raise PreconditionFailed(
            f"comment {comment_id} is public and cannot be deleted.", hint="add a correcting comment instead."
        )
    session.execute("DELETE FROM comments WHERE id = ?", comment_id)
    return {"deleted": comment_id}


@tool(writes=True)
def send_email(session: Session, customer_id: str, template: Template, ticket_id: str | None = None) -> dict[str, Any]:
    """Email a customer from a template.

    Args:
        customer_id: The customer's id, like CU-1.
        template: Which message to send.
        ticket_id: The ticket the message is about, if any.
    """
    customer = session.one("SELECT email FROM customers WHERE id = ?", customer_id)
    if customer is None:
        raise NotFound(f"no customer {customer_id!r}.", hint="customer ids look like CU-1.")
    row = {
        "id": session.next_id("email"),
        "to_address": customer["email"],
        "template": template,
        "ticket_id": ticket_id,
        "sent_at": session.now.isoformat(),
    }
    return session.insert("emails_sent", row)


TOOLS = [get_ticket, create_ticket, update_ticket, add_comment, delete_comment, send_email]


def mini_domain(world: WorldSpec = WORLD) -> Domain:
    return Domain(
        name="mini", world=world, tools=Toolset(TOOLS), policy="Be kind. Solve what you can.", task_dir=TASK_DIR
    )


def mini_suite(tasks: Iterable[Task] | None = None, world: WorldSpec = WORLD) -> Suite:
    """The mini suite: the YAML tasks under tasks/, or the tasks given."""
    chosen = list(tasks) if tasks is not None else load_task_dir(TASK_DIR, "mini")
    return Suite("mini", chosen, {"mini": mini_domain(world)})


def make_task(**fields: Any) -> Task:
    """A valid task over the mini domain; keyword arguments override its fields."""
    data: dict[str, Any] = {
        "id": "made-up",
        "domain": "mini",
        "opening_message": "Hi, please help.",
        "customer": {"goal": "get help"},
        "reference": [],
    }
    return Task.model_validate({**data, **fields})


Call = tuple[str, dict[str, Any]]


def run_calls(suite: Suite, task: Task, calls: Iterable[Call]) -> Session:
    """A fresh session of the task after the calls; a tool error fails the test that made it."""
    session = suite.open_session(task)
    tools = BoundTools(suite.domain_of(task).tools, session)
    for i, (name, args) in enumerate(calls):
        outcome = tools.call(name, args)
        assert not outcome.is_error, f"call {i} {name}({args}) failed: {outcome.text}"
    return session


def effects_of(suite: Suite, task: Task, calls: Iterable[Call]) -> Effects:
    session = run_calls(suite, task, calls)
    try:
        return session.effects()
    finally:
        session.close()


def judge(suite: Suite, task: Task, calls: Iterable[Call]) -> Verdict:
    """The verdict on an attempt that made these calls."""
    return judge_attempt(effects_of(suite, task, calls), required_effects(suite, task), rules_for(suite, task))


def explain(verdict: Verdict) -> list[str]:
    """The verdict's discrepancies, readable in a failure message."""
    return [d.describe() for d in verdict.discrepancies]
