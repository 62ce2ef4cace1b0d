"""Customer-side state: what only the customer sees or does — a code on their phone, a document they upload.

The agent's tools send a one-time code and check what the customer reads back; the customer's
tools (called by the simulated customer, never by the agent) read the phone and upload documents.
Both act on the attempt's own state, so their effects are judged like any other.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from statebox.kit.component import Component
from statebox.kit.party import Party
from statebox.kit.records import now_iso, shorten
from statebox.kit.signature import Arg, configured_tool
from statebox.tools import NotFound, PreconditionFailed, Tool
from statebox.world import Row, Sequence, Session, TableSpec

MAX_CODE_TRIES = 3


@dataclass(frozen=True)
class CustomerSide:
    owner: Party = field(default_factory=Party)
    phone_column: str = "phone"
    start: int = 50001
    # "state": the code records are judged like any rows (skipping the check leaves one missing);
    # "trace": they are never judged, and a domain's verify_before check (verified_by
    # check_verification_code) says when a code was needed, so a code sent once too often is no mistake.
    codes_judged_on: str = "state"


def one_time_code(owner_id: str, code_id: str) -> str:
    """The 6-digit code of a sending: fixed by who and which sending, so every attempt sees the same one."""
    digest = hashlib.sha256(f"{owner_id}|{code_id}".encode()).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 900000 + 100000}"


def customer_side(**options: Any) -> Component:
    """Tables verification_codes, phone_messages (a ledger) and documents; agent and customer tools."""
    side = CustomerSide(**options)
    ddl = f"""
CREATE TABLE verification_codes (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES "{side.owner.table}"(id),
    code TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('sent', 'verified', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    sent_at TEXT NOT NULL,
    verified_at TEXT
);
CREATE TABLE phone_messages (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'uploaded')),
    uploaded_at TEXT
);
"""
    if side.codes_judged_on not in ("state", "trace"):
        raise ValueError(f"codes_judged_on must be 'state' or 'trace', not {side.codes_judged_on!r}")
    on_trace = side.codes_judged_on == "trace"
    tables = {
        # A mistyped code before the right one is no mistake: the status, not the count of tries, is judged.
        "verification_codes": TableSpec("verification_codes", dont_care=frozenset({"verified_at", "attempts"}),
                                        ignored=on_trace),
        "phone_messages": TableSpec("phone_messages", ledger=True, free_text=frozenset({"body"}), ignored=on_trace),
        "documents": TableSpec("documents", dont_care=frozenset({"uploaded_at"})),
    }
    sequences = {"verification_codes": Sequence("OTP-", side.start), "phone_messages": Sequence("SMS-", side.start)}
    tools = [_send_code(side), _check_code(side), _list_documents(side), _get_document(side)]
    return Component("customer_side", ddl, tables, sequences, tools, [_read_phone(side), _upload(side)])


def _send_code(side: CustomerSide) -> Tool:
    def body(db: Session, **a: str) -> Row:
        who = side.owner.find(db, a[side.owner.arg], "customer")
        phone = who.get(side.phone_column)
        if not phone:
            raise PreconditionFailed(f"{who['id']} has no phone number on file.", hint="verify another way.")
        db.execute("UPDATE verification_codes SET status = 'failed' WHERE owner_id = ? AND status = 'sent'", who["id"])
        code_id = db.next_id("verification_codes")
        code = one_time_code(who["id"], code_id)
        now = now_iso(db)
        db.insert("verification_codes", {"id": code_id, "owner_id": who["id"], "code": code, "status": "sent",
                                         "attempts": 0, "sent_at": now, "verified_at": None})
        db.insert("phone_messages", {"id": db.next_id("phone_messages"), "owner_id": who["id"], "phone": phone,
                                     "body": f"Your verification code is {code}. Never share it except with "
                                             "our support agent in this conversation.", "sent_at": now})
        return {"sent_to": f"phone ending {str(phone)[-4:]}", "verification_id": code_id,
                "next": "ask the customer to read the 6-digit code back, then check it with check_verification_code."}

    return configured_tool(
        body, name="send_verification_code",
        summary="Text a one-time 6-digit code to the phone on file (a new code replaces any earlier one); "
                "you never see the code.",
        args=[Arg(side.owner.arg, str, "the customer's id")], writes=True)


def _check_code(side: CustomerSide) -> Tool:
    def body(db: Session, **a: str) -> Row:
        who = side.owner.find(db, a[side.owner.arg], "customer")
        row = db.one("SELECT * FROM verification_codes WHERE owner_id = ? AND status = 'sent' "
                     "ORDER BY id DESC LIMIT 1", who["id"])
        if row is None:
            raise PreconditionFailed(f"no code is waiting to be checked for {who['id']}.",
                                     hint="send one with send_verification_code first.")
        given = "".join(ch for ch in a["code"] if ch.isdigit())
        if given == row["code"]:
            db.update("verification_codes", row["id"], status="verified", verified_at=now_iso(db))
            return {"verified": True, "customer_id": who["id"]}
        tries = row["attempts"] + 1
        status = "failed" if tries >= MAX_CODE_TRIES else "sent"
        db.update("verification_codes", row["id"], attempts=tries, status=status)
        return {"verified": False, "tries_left": MAX_CODE_TRIES - tries}

    return configured_tool(
        body, name="check_verification_code",
        summary=f"Check the code the customer read back; after {MAX_CODE_TRIES} wrong tries the code is void.",
        args=[Arg(side.owner.arg, str, "the customer's id"), Arg("code", str, "the 6 digits the customer read out")],
        writes=True)


def _list_documents(side: CustomerSide) -> Tool:
    def body(db: Session, **a: str) -> list[Row]:
        who = side.owner.find(db, a[side.owner.arg], "customer")
        return db.all("SELECT id AS document_id, kind, title, uploaded_at FROM documents "
                      "WHERE owner_id = ? AND status = 'uploaded' ORDER BY uploaded_at, id", who["id"])

    return configured_tool(body, name="list_customer_documents",
                           summary="Documents the customer has uploaded, oldest first.",
                           args=[Arg(side.owner.arg, str, "the customer's id")], writes=False)


def _get_document(side: CustomerSide) -> Tool:
    def body(db: Session, document_id: str) -> Row:
        doc = db.one("SELECT id AS document_id, owner_id, kind, title, content, uploaded_at FROM documents "
                     "WHERE id = ? AND status = 'uploaded'", document_id.strip().upper())
        if doc is None:
            raise NotFound(f"no uploaded document {shorten(document_id)!r}.",
                           hint="ask the customer to upload it, then list their documents.")
        return doc

    return configured_tool(body, name="get_document", summary="An uploaded document with its content.",
                           args=[Arg("document_id", str, "the document id, e.g. DOC-90011")], writes=False)


def _read_phone(side: CustomerSide) -> Tool:
    def body(db: Session, **a: str) -> Row:
        msgs = db.all("SELECT body, sent_at FROM phone_messages WHERE owner_id = ? ORDER BY id DESC LIMIT 3",
                      side.owner.id(a[side.owner.arg]))
        if not msgs:
            raise NotFound("no new text messages on your phone.")
        latest = db.one("SELECT code FROM verification_codes WHERE owner_id = ? ORDER BY id DESC LIMIT 1",
                        side.owner.id(a[side.owner.arg]))
        return {"messages": msgs, "code": latest["code"] if latest else None}

    return configured_tool(body, name="read_phone_messages", summary="(Customer) the latest texts on my phone.",
                           args=[Arg(side.owner.arg, str, "my customer id")], writes=False)


def _upload(side: CustomerSide) -> Tool:
    def body(db: Session, document_id: str) -> Row:
        doc = db.one("SELECT * FROM documents WHERE id = ?", document_id.strip().upper())
        if doc is None:
            raise NotFound(f"I have no document {shorten(document_id)!r}.")
        if doc["status"] != "uploaded":
            db.update("documents", doc["id"], status="uploaded", uploaded_at=now_iso(db))
        return {"document_id": doc["id"], "title": doc["title"], "uploaded": True}

    return configured_tool(body, name="upload_document", summary="(Customer) upload one of my documents.",
                           args=[Arg("document_id", str, "the document's id")], writes=True)
