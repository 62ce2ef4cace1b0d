"""Helpers the neobank tools share: lookups with recovery hints, posting money, and plan facts."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from statebox.kit import lookup, money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed
from statebox.world import Row, Session

# Arguments described once, for every tool that takes them (a tool's own Args: line says it otherwise).
CustomerId = Annotated[str, Field(description="the customer id")]
CardId = Annotated[str, Field(description="the card id")]
PayeeId = Annotated[str, Field(description="the saved payee")]
EuroAmount = Annotated[float, Field(description="the euro amount to send")]
FromAccount = Annotated[str, Field(description="the current account the money leaves from")]
# Ids described with an example of how one looks, for the tools that show it.
CustomerIdWithExample = Annotated[str, Field(description="the customer id, e.g. CUS-1042")]
AccountIdWithExample = Annotated[str, Field(description="the account id, e.g. ACC-10001")]
CardIdWithExample = Annotated[str, Field(description="the card id, e.g. CRD-20001")]
TransactionIdWithExample = Annotated[str, Field(description="the transaction id, e.g. TXN-100001")]
DisputeIdWithExample = Annotated[str, Field(description="the dispute id, e.g. DSP-50001")]

PLAN_ORDER = {"standard": 0, "plus": 1, "premium": 2}
PLAN_FEES = {"standard": 0.0, "plus": 6.0, "premium": 15.0}
# International transfer fee by plan: (percentage of the euro amount, minimum in euros).
INTERNATIONAL_FEE = {"standard": (0.01, 3.0), "plus": (0.005, 1.0), "premium": (0.0, 0.0)}


customer_row = lookup(
    "customers", "CUS",
    "customer ids look like CUS-1042; find the profile with find_customer (email or phone).",
)


account_row = lookup("accounts", "ACC", "account ids look like ACC-10001; get_customer lists a customer's accounts.")


card_row = lookup(
    "cards", "CRD",
    "card ids look like CRD-20001; get_customer lists a customer's cards with their last 4 digits.",
)


transaction_row = lookup(
    "transactions", "TXN",
    "transaction ids look like TXN-100001; find one with list_transactions on the account.",
)


payee_row = lookup("payees", "PYE", "payee ids look like PYE-4001; list_payees shows a customer's saved payees.")


def holders(account: Row) -> set[str]:
    return {h for h in (account["holder_id"], account["joint_holder_id"]) if h}


def active_account(account: Row) -> None:
    if account["status"] != "active":
        raise PreconditionFailed(f"account {account['id']} is {account['status']}.")


def owner_of(db: Session, account: Row) -> Row:
    """The customer an account belongs to (a pot belongs to its current account's holder)."""
    row = db.one("SELECT * FROM customers WHERE id = ?", account["holder_id"])
    assert row is not None
    return row


def positive(amount: float, what: str = "amount") -> float:
    if amount <= 0:
        raise InvalidArguments(f"the {what} must be more than 0 (got {amount}).")
    return money(amount)


def post(db: Session, account: Row, kind: str, amount: float, description: str, **extra: Any) -> Row:
    """Insert a posted transaction and move the account's balance by its (signed) amount."""
    tid = db.next_id("transactions")
    row = {"id": tid, "account_id": account["id"], "kind": kind, "amount": money(amount),
           "description": description, "status": "posted", "occurred_at": now_iso(db), **extra}
    db.insert("transactions", row)
    fresh = db.one("SELECT balance FROM accounts WHERE id = ?", account["id"])
    assert fresh is not None
    db.update("accounts", account["id"], balance=money(fresh["balance"] + amount), updated_at=now_iso(db))
    return {"transaction_id": tid, "account_id": account["id"], "kind": kind, "amount": money(amount)}


def current_account_of(db: Session, customer_id: str) -> Row:
    """The customer's own (not joint) active current account, where plan fees are charged."""
    row = db.one("SELECT * FROM accounts WHERE holder_id = ? AND kind = 'current' AND joint_holder_id IS NULL "
                 "AND status = 'active' ORDER BY id LIMIT 1", customer_id)
    if row is None:
        raise PreconditionFailed(f"customer {customer_id} has no active current account of their own.")
    return row


def current_and_payee(db: Session, account_id: str, payee_id: str, *, pot_error: str, payee_error: str,
                      hint: str | None = None) -> tuple[Row, Row]:
    """An active current account and an active saved payee of its holders; a pot or another's payee is refused
    with the caller's words (`pot_error`, `payee_error`: formats of the account's and the payee's id)."""
    a = account_row(db, account_id)
    active_account(a)
    if a["kind"] != "current":
        raise PreconditionFailed(pot_error.format(a["id"]))
    p = payee_row(db, payee_id)
    if p["customer_id"] not in holders(a) or p["status"] != "active":
        raise PreconditionFailed(payee_error.format(p["id"]), hint=hint)
    return a, p
