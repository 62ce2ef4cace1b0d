"""The helpdesk component: tickets with an open / pending / hold / solved lifecycle, and their comments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from statebox.kit.component import Component
from statebox.kit.party import Party
from statebox.kit.records import compact, fetch, normalize_id, now_iso
from statebox.kit.signature import Arg, choice, configured_tool
from statebox.tools import InvalidArguments, PreconditionFailed, Tool
from statebox.world import Row, Sequence, Session, TableSpec

STATUSES = ("open", "pending", "hold", "solved")
PRIORITIES = ("normal", "high", "urgent")


@dataclass(frozen=True)
class Helpdesk:
    """How a domain's helpdesk reads: who opens tickets, what a ticket may be about, why it may wait."""

    requester: Party = field(default_factory=Party)
    reference_table: str | None = None  # e.g. orders: a ticket may be about one of them
    reference_column: str | None = None  # e.g. order_id (the tickets column and the tool argument)
    reference_prefix: str | None = None
    reference_owner: str | None = None  # the record's column naming its requester (e.g. customer_id)
    hold_reasons: tuple[str, ...] = ("third_party",)
    list_tool: str | None = None  # default: list_<requester>_tickets (list_policyholder_tickets)
    ticket_start: int = 50001
    comment_start: int = 500001
    channel: str = "chat"

    def ddl(self) -> str:
        ref = f'    "{self.reference_column}" TEXT,\n' if self.reference_column else ""
        holds = ", ".join(f"'{h}'" for h in self.hold_reasons)
        return f"""
CREATE TABLE tickets (
    id TEXT PRIMARY KEY,
    requester_id TEXT NOT NULL REFERENCES "{self.requester.table}"(id),
{ref}    subject TEXT NOT NULL,
    description TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'pending', 'hold', 'solved')),
    priority TEXT NOT NULL CHECK (priority IN ('normal', 'high', 'urgent')),
    hold_reason TEXT CHECK (hold_reason IS NULL OR hold_reason IN ({holds})),
    channel TEXT NOT NULL DEFAULT 'chat',
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE TABLE ticket_comments (
    id TEXT PRIMARY KEY,
    ticket_id TEXT NOT NULL REFERENCES tickets(id),
    public INTEGER NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX idx_tickets_requester ON tickets(requester_id);
CREATE INDEX idx_comments_ticket ON ticket_comments(ticket_id);
"""

    def listing_tool(self) -> str:
        """The name of the tool that lists a requester's tickets."""
        return self.list_tool or f"list_{self.requester.arg.removesuffix('_id')}_tickets"

    def ticket(self, db: Session, value: str) -> Row:
        hint = f"ticket ids look like TCK-{self.ticket_start}; list a requester's tickets with {self.listing_tool()}."
        return fetch(db, "tickets", normalize_id(value, "TCK"), "ticket", hint)


def helpdesk(**options: Any) -> Component:
    """The tickets and comments tables and their six tools, configured by `Helpdesk` options."""
    desk = Helpdesk(**options)
    tables = {
        "tickets": TableSpec("tickets", free_text=frozenset({"subject", "description"}),
                             dont_care=frozenset({"updated_at"})),
        "ticket_comments": TableSpec("ticket_comments", free_text=frozenset({"body"})),
    }
    sequences = {
        "tickets": Sequence("TCK-", desk.ticket_start),
        "ticket_comments": Sequence("CMT-", desk.comment_start),
    }
    tools = [_create(desk), _get(desk), _list(desk), _comment(desk), _status(desk), _priority(desk)]
    return Component("helpdesk", desk.ddl(), tables, sequences, tools)


def _create(desk: Helpdesk) -> Tool:
    def body(db: Session, **a: Any) -> Row:
        who = desk.requester.find(db, a[desk.requester.arg], "requester")
        ref_id = None
        if desk.reference_column and desk.reference_table and a.get(desk.reference_column):
            ref = fetch(db, desk.reference_table, normalize_id(a[desk.reference_column], desk.reference_prefix or ""),
                        desk.reference_column.removesuffix("_id"), "check the id with the requester.")
            if desk.reference_owner and ref.get(desk.reference_owner) != who["id"]:
                raise PreconditionFailed(f"{ref['id']} belongs to another requester.")
            ref_id = ref["id"]
        tid = db.next_id("tickets")
        now = now_iso(db)
        row = {"id": tid, "requester_id": who["id"], "subject": a["subject"].strip(),
               "description": a["description"].strip(), "status": "open", "priority": a["priority"],
               "hold_reason": None, "channel": desk.channel, "created_at": now, "updated_at": now}
        if desk.reference_column:
            row[desk.reference_column] = ref_id
        db.insert("tickets", row)
        out = {"ticket_id": tid, "status": "open", "priority": a["priority"]}
        return {**out, desk.reference_column: ref_id} if desk.reference_column else out

    args = [Arg(desk.requester.arg, str, "the requester's id"), Arg("subject", str, "a short title"),
            Arg("description", str, "what the requester needs, in a few sentences")]
    if desk.reference_column:
        args.append(Arg(desk.reference_column, str | None, "the record the case is about, if exactly one", None))
    args.append(Arg("priority", choice(PRIORITIES), "normal, high or urgent", "normal"))
    return configured_tool(body, name="create_ticket", summary="Open a new helpdesk ticket (status open).",
                           args=args, writes=True)


def _get(desk: Helpdesk) -> Tool:
    def body(db: Session, ticket_id: str) -> Row:
        t = desk.ticket(db, ticket_id)
        comments = db.all("SELECT id AS comment_id, public, author, body, created_at FROM ticket_comments "
                          "WHERE ticket_id = ? ORDER BY created_at, id", t["id"])
        return {**compact(t, "updated_at"), "comments": [{**c, "public": bool(c["public"])} for c in comments]}

    return configured_tool(body, name="get_ticket", summary="A ticket with its comments, oldest first.",
                           args=[Arg("ticket_id", str, f"the ticket id, e.g. TCK-{desk.ticket_start}")], writes=False)


def _list(desk: Helpdesk) -> Tool:
    def body(db: Session, **a: Any) -> list[Row]:
        who = desk.requester.find(db, a[desk.requester.arg], "requester")
        ref = f', "{desk.reference_column}"' if desk.reference_column else ""
        rows = db.all(f"SELECT id AS ticket_id, subject, status, priority, hold_reason{ref}, created_at FROM tickets "
                      "WHERE requester_id = ? ORDER BY created_at DESC, id DESC", who["id"])
        return [compact(r) for r in rows]

    return configured_tool(body, name=desk.listing_tool(), summary="A requester's tickets, newest first.",
                           args=[Arg(desk.requester.arg, str, "the requester's id")], writes=False)


def _comment(desk: Helpdesk) -> Tool:
    def body(db: Session, ticket_id: str, body: str, public: bool) -> Row:
        t = desk.ticket(db, ticket_id)
        if not body.strip():
            raise InvalidArguments("the comment body is empty.")
        cid = db.next_id("ticket_comments")
        db.insert("ticket_comments", {"id": cid, "ticket_id": t["id"], "public": int(public), "author": "agent",
                                      "body": body.strip(), "created_at": now_iso(db)})
        return {"comment_id": cid, "ticket_id": t["id"], "public": public}

    return configured_tool(
        body, name="add_ticket_comment",
        summary="Add a comment to a ticket: public (the requester sees it) or internal (staff only).",
        args=[Arg("ticket_id", str, "the ticket id"), Arg("body", str, "the comment text"),
              Arg("public", bool, "true for a reply the requester sees, false for an internal note")],
        writes=True)


def _status(desk: Helpdesk) -> Tool:
    def body(db: Session, ticket_id: str, status: str, hold_reason: str | None = None) -> Row:
        t = desk.ticket(db, ticket_id)
        if (status == "hold") != (hold_reason is not None):
            raise InvalidArguments("give a hold_reason exactly when the status is hold.")
        db.update("tickets", t["id"], status=status, hold_reason=hold_reason, updated_at=now_iso(db))
        return {"ticket_id": t["id"], "status": status, "hold_reason": hold_reason}

    holds = ", ".join(desk.hold_reasons)
    return configured_tool(
        body, name="update_ticket_status",
        summary="Set a ticket's status; hold needs a hold_reason (what third party we are waiting for).",
        args=[Arg("ticket_id", str, "the ticket id"),
              Arg("status", choice(STATUSES),
                  "open, pending (waiting on the requester), hold (waiting on a third party) or solved"),
              Arg("hold_reason", choice(desk.hold_reasons) | None,
                  f"required with status hold ({holds}), not allowed otherwise", None)],
        writes=True)


def _priority(desk: Helpdesk) -> Tool:
    def body(db: Session, ticket_id: str, priority: str) -> Row:
        t = desk.ticket(db, ticket_id)
        db.update("tickets", t["id"], priority=priority, updated_at=now_iso(db))
        return {"ticket_id": t["id"], "priority": priority}

    return configured_tool(body, name="set_ticket_priority", summary="Change a ticket's priority.",
                           args=[Arg("ticket_id", str, "the ticket id"),
                                 Arg("priority", choice(PRIORITIES), "normal, high or urgent")], writes=True)
