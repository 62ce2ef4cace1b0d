"""The helpdesk: tickets, comments, emails to customers and hand-offs to human teams."""

from __future__ import annotations

from typing import Literal

from statebox.domains.retail.tools.common import (
    compact,
    fetch,
    get_customer_row,
    get_order_row,
    get_ticket_row,
    now_iso,
)
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

Status = Literal["open", "pending", "hold", "solved"]
Priority = Literal["normal", "high", "urgent"]
HoldReason = Literal["carrier_investigation", "warehouse_inspection", "manufacturer_review"]
Template = Literal["return_label", "warranty_claim", "installation_confirmation"]
Team = Literal["product_safety", "billing", "account_security", "installations", "customer_care"]

# What each email template refers to: (table, what it is called).
TEMPLATE_REFERENCE = {
    "return_label": ("returns", "return"),
    "warranty_claim": ("warranty_claims", "warranty claim"),
    "installation_confirmation": ("installation_jobs", "installation"),
}


@tool(writes=True)
def create_ticket(
    db: Session, customer_id: str, subject: str, description: str,
    order_id: str | None = None, priority: Priority = "normal",
) -> Row:
    """Open a new helpdesk ticket for a customer (status open).

    Args:
        customer_id: the requester's customer id
        subject: a short title
        description: what the customer needs, in a few sentences
        order_id: the order the case is about, if exactly one
        priority: normal, high or urgent
    """
    c = get_customer_row(db, customer_id)
    oid = None
    if order_id:
        o = get_order_row(db, order_id)
        if o["customer_id"] != c["id"]:
            raise PreconditionFailed(f"order {o['id']} belongs to another customer.")
        oid = o["id"]
    tid = db.next_id("tickets")
    now = now_iso(db)
    db.insert("tickets", {"id": tid, "requester_id": c["id"], "order_id": oid, "subject": subject.strip(),
                          "description": description.strip(), "status": "open", "priority": priority,
                          "hold_reason": None, "channel": "chat", "created_at": now, "updated_at": now})
    return {"ticket_id": tid, "status": "open", "priority": priority, "order_id": oid}


@tool(writes=False)
def get_ticket(db: Session, ticket_id: str) -> Row:
    """A ticket with its comments, oldest first.

    Args:
        ticket_id: the ticket id, e.g. TCK-50001
    """
    t = get_ticket_row(db, ticket_id)
    comments = db.all("SELECT id AS comment_id, public, author, body, created_at FROM ticket_comments "
                      "WHERE ticket_id = ? ORDER BY created_at, id", t["id"])
    return {**compact(t, "updated_at"), "comments": [{**c, "public": bool(c["public"])} for c in comments]}


@tool(writes=False)
def list_customer_tickets(db: Session, customer_id: str) -> list[Row]:
    """A customer's tickets, newest first.

    Args:
        customer_id: the customer id
    """
    c = get_customer_row(db, customer_id)
    rows = db.all("SELECT id AS ticket_id, subject, status, priority, hold_reason, order_id, created_at FROM tickets "
                  "WHERE requester_id = ? ORDER BY created_at DESC, id DESC", c["id"])
    return [compact(r) for r in rows]


@tool(writes=True)
def add_ticket_comment(db: Session, ticket_id: str, body: str, public: bool) -> Row:
    """Add a comment to a ticket: public (the customer sees it) or internal (staff only).

    Args:
        ticket_id: the ticket id
        body: the comment text
        public: true for a reply the customer sees, false for an internal note
    """
    t = get_ticket_row(db, ticket_id)
    if not body.strip():
        raise InvalidArguments("the comment body is empty.")
    cid = db.next_id("ticket_comments")
    db.insert("ticket_comments", {"id": cid, "ticket_id": t["id"], "public": int(public), "author": "agent",
                                  "body": body.strip(), "created_at": now_iso(db)})
    return {"comment_id": cid, "ticket_id": t["id"], "public": public}


@tool(writes=True)
def update_ticket_status(db: Session, ticket_id: str, status: Status, hold_reason: HoldReason | None = None) -> Row:
    """Set a ticket's status; hold needs a hold_reason (what third party we are waiting for).

    Args:
        ticket_id: the ticket id
        status: open, pending (waiting on the customer), hold (waiting on a third party) or solved
        hold_reason: required with status hold, not allowed otherwise
    """
    t = get_ticket_row(db, ticket_id)
    if (status == "hold") != (hold_reason is not None):
        raise InvalidArguments("give a hold_reason exactly when the status is hold.")
    db.update("tickets", t["id"], status=status, hold_reason=hold_reason, updated_at=now_iso(db))
    return {"ticket_id": t["id"], "status": status, "hold_reason": hold_reason}


@tool(writes=True)
def set_ticket_priority(db: Session, ticket_id: str, priority: Priority) -> Row:
    """Change a ticket's priority.

    Args:
        ticket_id: the ticket id
        priority: normal, high or urgent
    """
    t = get_ticket_row(db, ticket_id)
    db.update("tickets", t["id"], priority=priority, updated_at=now_iso(db))
    return {"ticket_id": t["id"], "priority": priority}


@tool(writes=True)
def send_email(db: Session, customer_id: str, template: Template, reference_id: str, subject: str, body: str) -> Row:
    """Email the customer at the address on their account, using one of the shop's templates.

    Args:
        customer_id: the customer id
        template: return_label (reference: a return), warranty_claim (a claim) or installation_confirmation
            (an installation)
        reference_id: the id of the return, claim or installation the email is about
        subject: the email subject
        body: the email text
    """
    c = get_customer_row(db, customer_id)
    table, what = TEMPLATE_REFERENCE[template]
    ref = fetch(db, table, reference_id.strip().upper(), what, f"the {template} email refers to a {what} id.")
    eid = db.next_id("emails_sent")
    db.insert("emails_sent", {"id": eid, "customer_id": c["id"], "to_address": c["email"], "template": template,
                              "reference_id": ref["id"], "subject": subject.strip(), "body": body.strip(),
                              "sent_at": now_iso(db)})
    return {"email_id": eid, "to": c["email"], "template": template, "reference_id": ref["id"]}


@tool(writes=True)
def handoff_to_human(db: Session, ticket_id: str, team: Team, summary: str) -> Row:
    """Hand a ticket to a human team with a summary of the case; the ticket stays open for them.

    Args:
        ticket_id: the ticket id
        team: product_safety, billing, account_security, installations or customer_care
        summary: what happened and what the team needs to do
    """
    t = get_ticket_row(db, ticket_id)
    if t["status"] == "solved":
        raise PreconditionFailed(f"ticket {t['id']} is solved.", hint="set it back to open first.")
    hid = db.next_id("handoffs")
    db.insert("handoffs", {"id": hid, "ticket_id": t["id"], "team": team, "summary": summary.strip(),
                           "created_at": now_iso(db)})
    return {"handoff_id": hid, "ticket_id": t["id"], "team": team}
