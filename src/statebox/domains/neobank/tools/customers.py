"""Customers: finding and reading a profile, identity checks, verification levels, plans, fee refund history."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from typing import Literal

from statebox.domains.neobank.tools.common import (
    PLAN_ORDER,
    CustomerId,
    CustomerIdWithExample,
    current_account_of,
    customer_row,
    post,
)
from statebox.kit import compact, money, now_iso, today
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

Plan = Literal["standard", "plus", "premium"]
DATE_FORMATS = ("%Y-%m-%d", "%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y", "%d %B %Y", "%B %d, %Y", "%B %d %Y", "%d %b %Y")


def _digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-9:]


def _parse_date(text: str) -> date:
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    raise InvalidArguments(f"cannot read {text!r} as a date.", hint="pass the date of birth as YYYY-MM-DD.")


def _squash(text: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", text.upper())


@tool(writes=False)
def find_customer(db: Session, email: str | None = None, phone: str | None = None) -> list[Row]:
    """Find customer profiles by the email address or the phone number on the account.

    Args:
        email: the email address on the account (case does not matter)
        phone: the phone number on the account, in any format
    """
    if email:
        rows = db.all("SELECT * FROM customers WHERE lower(email) = lower(?)", email.strip())
    elif phone:
        rows = [r for r in db.all("SELECT * FROM customers") if _digits(r["phone"]) == _digits(phone)]
    else:
        raise InvalidArguments("give an email address or a phone number.")
    if not rows:
        raise NotFound("no customer profile matches.",
                       hint="ask the customer for the email address or phone number they signed up with.")
    return [{"customer_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"],
             "status": r["status"]} for r in rows]


@tool(writes=False)
def get_customer(db: Session, customer_id: CustomerIdWithExample) -> Row:
    """A customer's profile: contact details, plan, verification level, accounts, cards and any security review.

    Identity facts (date of birth, postcode) are never shown: check them with verify_identity.
    """
    c = customer_row(db, customer_id)
    accounts = db.all(
        "SELECT id AS account_id, kind, name, balance, status, parent_account_id, "
        "CASE WHEN joint_holder_id IS NULL THEN 'sole' ELSE 'joint' END AS ownership "
        "FROM accounts WHERE holder_id = ? OR joint_holder_id = ? ORDER BY id", c["id"], c["id"])
    cards = db.all("SELECT id AS card_id, account_id, kind, last4, status FROM cards WHERE holder_id = ? ORDER BY id",
                   c["id"])
    out = compact(c, "date_of_birth", "postcode", "failed_identity_checks", "updated_at")
    out["accounts"] = [compact(a) for a in accounts]
    out["cards"] = cards
    hold = db.one("SELECT * FROM fraud_holds WHERE customer_id = ? AND status = 'active'", c["id"])
    if hold:
        out["security_review"] = {"status": "active", "placed_at": hold["placed_at"],
                                  "internal_reason": hold["internal_reason"],
                                  "note": "internal: never disclose the reason or that fraud is suspected"}
    return out


@tool(writes=True)
def verify_identity(db: Session, customer_id: CustomerId, date_of_birth: str, postcode: str) -> Row:
    """Check the private facts a customer gives (date of birth and registered home postcode); the check is
    recorded, and a failed one also counts on the profile (account security acts on those).

    Args:
        date_of_birth: the date of birth the customer gave, e.g. 1986-04-12
        postcode: the postcode of the registered home address the customer gave
    """
    c = customer_row(db, customer_id)
    given = _parse_date(date_of_birth)
    passed = given.isoformat() == c["date_of_birth"] and _squash(postcode) == _squash(c["postcode"])
    db.insert("identity_checks", {"id": db.next_id("identity_checks"), "customer_id": c["id"],
                                  "method": "private_facts", "passed": int(passed), "checked_at": now_iso(db)})
    if passed:
        return {"verified": True, "customer_id": c["id"]}
    failed = c["failed_identity_checks"] + 1
    db.update("customers", c["id"], failed_identity_checks=failed, updated_at=now_iso(db))
    return {"verified": False, "failed_identity_checks": failed,
            "note": "one or both facts do not match; do not say which."}


@tool(writes=False)
def list_fee_refunds(db: Session, customer_id: CustomerId) -> list[Row]:
    """Every fee refund a customer has had (goodwill or bank error), newest first."""
    return db.all("SELECT id AS fee_refund_id, fee_transaction_id, amount, reason, created_at FROM fee_refunds "
                  "WHERE customer_id = ? ORDER BY created_at DESC, id DESC", customer_row(db, customer_id)["id"])


@tool(writes=True)
def change_plan(db: Session, customer_id: CustomerId, plan: Plan, prorated_charge: float) -> Row:
    """Move a customer to another plan: an upgrade starts today and charges the prorated difference to their
    current account; a downgrade starts on the next billing day and charges nothing.

    Args:
        plan: standard, plus or premium
        prorated_charge: the prorated amount to charge now for an upgrade (rulebook section 15); 0 for a downgrade
    """
    c = customer_row(db, customer_id)
    if c["status"] != "active":
        raise PreconditionFailed(f"customer {c['id']} is {c['status']}.")
    if plan == c["plan"]:
        raise PreconditionFailed(f"{c['id']} is already on the {plan} plan.")
    charge = money(prorated_charge)
    if charge < 0:
        raise InvalidArguments("the prorated charge cannot be negative.")
    upgrade = PLAN_ORDER[plan] > PLAN_ORDER[c["plan"]]
    if not upgrade and charge:
        raise InvalidArguments("a downgrade charges nothing: pass prorated_charge 0.")
    if upgrade:
        db.update("customers", c["id"], plan=plan, pending_plan=None, updated_at=now_iso(db))
        effective = today(db)
        if charge:
            post(db, current_account_of(db, c["id"]), "fee", -charge,
                 f"Upgrade to {plan.title()}: rest of this billing month", fee_type="plan_change")
    else:
        db.update("customers", c["id"], pending_plan=plan, updated_at=now_iso(db))
        effective = _next_billing_day(db.now.date(), c["billing_day"]).isoformat()
    db.insert("plan_changes", {"id": db.next_id("plan_changes"), "customer_id": c["id"], "from_plan": c["plan"],
                               "to_plan": plan, "effective_on": effective, "prorated_charge": charge,
                               "created_at": now_iso(db)})
    return {"customer_id": c["id"], "plan": plan, "effective_on": effective, "charged": charge}


def _next_billing_day(now: date, day: int) -> date:
    if now.day < day:
        return now.replace(day=day)
    return (now.replace(day=1, month=now.month % 12 + 1, year=now.year + now.month // 12)).replace(day=day)


@tool(writes=True)
def upgrade_kyc_level(db: Session, customer_id: CustomerId, level: Literal["verified", "enhanced"],
                      document_ids: list[str]) -> Row:
    """Raise a customer's verification level, recording the uploaded documents it was decided on.

    Args:
        level: verified or enhanced
        document_ids: the ids of the uploaded documents checked, e.g. ["DOC-90011", "DOC-90012"]
    """
    c = customer_row(db, customer_id)
    order = {"basic": 0, "verified": 1, "enhanced": 2}
    if order[level] <= order[c["kyc_level"]]:
        raise PreconditionFailed(f"{c['id']} is already at level {c['kyc_level']}.")
    ids = sorted({d.strip().upper() for d in document_ids})
    if not ids:
        raise InvalidArguments("name the documents the upgrade was decided on.")
    for d in ids:
        doc = db.one("SELECT * FROM documents WHERE id = ? AND owner_id = ? AND status = 'uploaded'", d, c["id"])
        if doc is None:
            raise NotFound(f"{c['id']} has no uploaded document {d}.",
                           hint="ask the customer to upload it in the app, then list_customer_documents.")
    db.update("customers", c["id"], kyc_level=level, updated_at=now_iso(db))
    db.insert("kyc_upgrades", {"id": db.next_id("kyc_upgrades"), "customer_id": c["id"], "from_level": c["kyc_level"],
                               "to_level": level, "document_ids": json.dumps(ids), "created_at": now_iso(db)})
    return {"customer_id": c["id"], "kyc_level": level, "documents": ids}
