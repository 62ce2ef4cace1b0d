"""Disputes of card payments: opening one (with evidence and provisional credit) and filing the chargeback."""

from __future__ import annotations

import json
from typing import Literal

from statebox.domains.neobank.tools.common import DisputeIdWithExample, account_row, post, transaction_row
from statebox.kit import lookup, money, now_iso
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

Reason = Literal["unauthorised", "duplicate", "not_received", "cancelled_subscription"]
# The card scheme's reason code each dispute reason is filed under.
SCHEME_REASON = {
    "unauthorised": "10.4 fraud, card-absent or card lost/stolen",
    "duplicate": "12.6 duplicate processing",
    "not_received": "13.1 merchandise or services not received",
    "cancelled_subscription": "13.2 cancelled recurring transaction",
}

_dispute_row = lookup(
    "disputes", "DSP", "dispute ids look like DSP-50001; get_transaction lists a transaction's disputes.")


@tool(writes=True)
def open_dispute(
    db: Session, transaction_id: str, reason: Reason, details: str, provisional_credit: float = 0.0,
    evidence_document_ids: list[str] | None = None,
) -> Row:
    """Open a dispute on a posted card payment or cash withdrawal, attaching uploaded evidence and crediting the
    provisional credit (if any) to the account at once.

    Args:
        transaction_id: the disputed transaction
        reason: unauthorised, duplicate, not_received or cancelled_subscription
        details: what the customer says happened, in a sentence or two
        provisional_credit: euros to credit now while the dispute runs (rulebook section 9), 0 for none
        evidence_document_ids: ids of the customer's uploaded documents that support the dispute
    """
    t = transaction_row(db, transaction_id)
    if t["kind"] not in ("card_payment", "atm_withdrawal"):
        raise PreconditionFailed(f"{t['id']} is a {t['kind']}; only card payments and cash withdrawals are disputed.")
    if t["status"] != "posted":
        raise PreconditionFailed(f"{t['id']} is {t['status']}; only posted transactions can be disputed.")
    earlier = db.one("SELECT id FROM disputes WHERE transaction_id = ?", t["id"])
    if earlier:
        raise PreconditionFailed(f"{t['id']} already has dispute {earlier['id']}.")
    amount = money(-t["amount"])
    credit = money(provisional_credit)
    if not 0 <= credit <= amount:
        raise InvalidArguments(f"the provisional credit must be between 0 and the disputed {amount}.")
    account = account_row(db, t["account_id"])
    card = db.one("SELECT holder_id FROM cards WHERE id = ?", t["card_id"]) if t["card_id"] else None
    customer = card["holder_id"] if card else account["holder_id"]
    docs = sorted({d.strip().upper() for d in evidence_document_ids or []})
    for d in docs:
        if db.one("SELECT id FROM documents WHERE id = ? AND status = 'uploaded'", d) is None:
            raise NotFound(f"no uploaded document {d}.",
                           hint="ask the customer to upload it, then list their documents.")
    did = db.next_id("disputes")
    now = now_iso(db)
    db.insert("disputes", {"id": did, "transaction_id": t["id"], "customer_id": customer, "reason": reason,
                           "amount": amount, "details": details.strip(), "evidence": json.dumps(docs),
                           "provisional_credit": credit, "status": "open", "created_at": now, "updated_at": now})
    if credit:
        post(db, account, "provisional_credit", credit, f"Provisional credit, dispute {did}", related_id=t["id"],
             merchant=t["merchant"])
    return {"dispute_id": did, "transaction_id": t["id"], "amount": amount, "provisional_credit": credit,
            "status": "open", "next": "file the chargeback when the dispute has everything it needs"}


@tool(writes=True)
def file_chargeback(db: Session, dispute_id: DisputeIdWithExample) -> Row:
    """File an open dispute with the card scheme as a chargeback."""
    d = _dispute_row(db, dispute_id)
    if d["status"] != "open":
        raise PreconditionFailed(f"dispute {d['id']} is {d['status']}; only an open dispute is filed.")
    cid = db.next_id("chargebacks")
    now = now_iso(db)
    db.insert("chargebacks", {"id": cid, "dispute_id": d["id"], "transaction_id": d["transaction_id"],
                              "amount": d["amount"], "scheme_reason": SCHEME_REASON[d["reason"]], "filed_at": now})
    db.update("disputes", d["id"], status="chargeback_filed", updated_at=now)
    return {"chargeback_id": cid, "dispute_id": d["id"], "status": "chargeback_filed",
            "scheme_decides_within_days": 45}
