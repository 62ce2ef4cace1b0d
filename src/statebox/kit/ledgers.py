"""Ledger components: side effects outside the records, judged like rows (emails sent, hand-offs to humans)."""

from __future__ import annotations

from dataclasses import dataclass, field

from statebox.kit.component import Component
from statebox.kit.party import Party
from statebox.kit.records import fetch, normalize_id, now_iso, shorten
from statebox.kit.signature import Arg, choice, configured_tool
from statebox.tools import PreconditionFailed, Tool
from statebox.world import Row, Sequence, Session, TableSpec


@dataclass(frozen=True)
class EmailLedger:
    """Templated emails to a recipient's address on file; each template refers to one kind of record."""

    recipient: Party = field(default_factory=Party)
    address_column: str = "email"
    templates: dict[str, tuple[str, str]] = field(default_factory=dict)  # template -> (table, what it is called)
    start: int = 50001


def email_ledger(**options: object) -> Component:
    """Table `emails_sent` (a ledger) and the tool send_email."""
    ledger = EmailLedger(**options)  # type: ignore[arg-type]
    if not ledger.templates:
        raise ValueError("email_ledger needs at least one template")
    ddl = f"""
CREATE TABLE emails_sent (
    id TEXT PRIMARY KEY,
    "{ledger.recipient.arg}" TEXT NOT NULL REFERENCES "{ledger.recipient.table}"(id),
    to_address TEXT NOT NULL,
    template TEXT NOT NULL,
    reference_id TEXT,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""
    tables = {"emails_sent": TableSpec("emails_sent", ledger=True, free_text=frozenset({"subject", "body"}))}
    return Component("email_ledger", ddl, tables, {"emails_sent": Sequence("EML-", ledger.start)}, [_send(ledger)])


def _send(ledger: EmailLedger) -> Tool:
    def body(db: Session, **a: str) -> Row:
        who = ledger.recipient.find(db, a[ledger.recipient.arg], "recipient")
        table, what = ledger.templates[a["template"]]
        ref = fetch(db, table, a["reference_id"].strip().upper(), what,
                    f"the {a['template']} email refers to a {what} id.")
        eid = db.next_id("emails_sent")
        db.insert("emails_sent", {"id": eid, ledger.recipient.arg: who["id"], "to_address": who[ledger.address_column],
                                  "template": a["template"], "reference_id": ref["id"],
                                  "subject": a["subject"].strip(), "body": a["body"].strip(), "sent_at": now_iso(db)})
        return {"email_id": eid, "to": who[ledger.address_column], "template": a["template"], "reference_id": ref["id"]}

    names = tuple(ledger.templates)
    described = "; ".join(f"{t} (reference: a {what})" for t, (_, what) in ledger.templates.items())
    return configured_tool(
        body, name="send_email",
        summary="Email the recipient at the address on file, using one of the templates.",
        args=[Arg(ledger.recipient.arg, str, "the recipient's id"),
              Arg("template", choice(names), described),
              Arg("reference_id", str, "the id of the record the email is about"),
              Arg("subject", str, "the email subject"), Arg("body", str, "the email text")],
        writes=True)


@dataclass(frozen=True)
class HandoffLedger:
    """Cases handed to human teams; a handed-off ticket takes `status_after` (None: its status is kept)."""

    teams: tuple[str, ...] = ("customer_care",)
    status_after: str | None = None
    start: int = 50001


def handoff_ledger(**options: object) -> Component:
    """Table `handoffs` (a ledger) and the tool handoff_to_human; needs the helpdesk component."""
    ledger = HandoffLedger(**options)  # type: ignore[arg-type]
    ddl = """
CREATE TABLE handoffs (
    id TEXT PRIMARY KEY,
    ticket_id TEXT NOT NULL REFERENCES tickets(id),
    team TEXT NOT NULL,
    summary TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""
    tables = {"handoffs": TableSpec("handoffs", ledger=True, free_text=frozenset({"summary"}))}
    return Component("handoff_ledger", ddl, tables, {"handoffs": Sequence("HND-", ledger.start)}, [_handoff(ledger)])


def _handoff(ledger: HandoffLedger) -> Tool:
    def body(db: Session, ticket_id: str, team: str, summary: str) -> Row:
        t = fetch(db, "tickets", normalize_id(ticket_id, "TCK"), "ticket", "ticket ids look like TCK-50001.")
        if t["status"] == "solved":
            raise PreconditionFailed(f"ticket {shorten(t['id'])} is solved.", hint="set it back to open first.")
        hid = db.next_id("handoffs")
        db.insert("handoffs", {"id": hid, "ticket_id": t["id"], "team": team, "summary": summary.strip(),
                               "created_at": now_iso(db)})
        if ledger.status_after is not None:
            db.update("tickets", t["id"], status=ledger.status_after, updated_at=now_iso(db))
        return {"handoff_id": hid, "ticket_id": t["id"], "team": team,
                "ticket_status": ledger.status_after or t["status"]}

    after = (f"the ticket becomes {ledger.status_after}" if ledger.status_after
             else "the ticket keeps its status for them")
    return configured_tool(
        body, name="handoff_to_human",
        summary=f"Hand a ticket to a human team with a summary of the case; {after}.",
        args=[Arg("ticket_id", str, "the ticket id"), Arg("team", choice(ledger.teams), ", ".join(ledger.teams)),
              Arg("summary", str, "what happened and what the team needs to do")],
        writes=True)
