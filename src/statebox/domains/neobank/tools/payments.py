"""Money movements: payees, transfers, held payments, recalls, recurring payments and refunds of fees and debits."""

from __future__ import annotations

from typing import Literal

from statebox.domains.neobank.tools.common import (
    INTERNATIONAL_FEE,
    CustomerId,
    EuroAmount,
    FromAccount,
    PayeeId,
    account_row,
    current_and_payee,
    customer_row,
    owner_of,
    positive,
    post,
    transaction_row,
)
from statebox.kit import found, money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session


@tool(writes=False)
def list_payees(db: Session, customer_id: CustomerId) -> list[Row]:
    """A customer's saved payees, with when each was added and when its 24-hour cooling-off period ends."""
    c = customer_row(db, customer_id)
    rows = db.all("SELECT id AS payee_id, name, iban, bank_country, currency, added_at, status FROM payees "
                  "WHERE customer_id = ? ORDER BY added_at, id", c["id"])
    for r in rows:
        r["cooling_off_ends"] = db.one("SELECT strftime('%Y-%m-%dT%H:%M:%S+00:00', ?, '+1 day') AS t",
                                       r["added_at"][:19])["t"]  # type: ignore[index]
    return rows


def _quote(db: Session, account: Row, payee: Row, amount: float) -> Row:
    plan = owner_of(db, account)["plan"]
    if payee["currency"] == "EUR":
        return {"amount": amount, "fee": 0.0, "currency": "EUR", "payee_receives": amount, "rate": None}
    rate = db.one("SELECT per_eur FROM fx_rates WHERE id = ?", payee["currency"])
    if rate is None:
        raise PreconditionFailed(f"we do not send {payee['currency']}.")
    pct, minimum = INTERNATIONAL_FEE[plan]
    fee = 0.0 if pct == 0 else max(money(amount * pct), minimum)
    return {"amount": amount, "fee": money(fee), "currency": payee["currency"],
            "payee_receives": money(amount * rate["per_eur"]), "rate": rate["per_eur"]}


def _sent(db: Session, customer_id: str, since: str) -> float:
    row = db.one("SELECT COALESCE(SUM(-t.amount), 0) AS s FROM transactions t JOIN accounts a ON a.id = t.account_id "
                 "WHERE (a.holder_id = ? OR a.joint_holder_id = ?) AND t.kind = 'transfer_out' "
                 "AND t.status != 'cancelled' AND substr(t.occurred_at, 1, 10) >= ?", customer_id, customer_id, since)
    return money(row["s"] if row else 0)


def _pair(db: Session, account_id: str, payee_id: str) -> tuple[Row, Row]:
    return current_and_payee(db, account_id, payee_id, pot_error="{} is a pot; transfers leave from a current account.",
                             payee_error="payee {} is not an active payee of this account's holders.",
                             hint="list_payees shows the customer's payees.")


@tool(writes=False)
def quote_transfer(db: Session, account_id: FromAccount, payee_id: PayeeId, amount: EuroAmount) -> Row:
    """What a transfer would cost: fee, exchange rate, what the payee receives, and what was sent today and this month.
    """
    a, p = _pair(db, account_id, payee_id)
    q = _quote(db, a, p, positive(amount))
    today = db.now.date()
    return {**q, "sent_today": _sent(db, p["customer_id"], today.isoformat()),
            "sent_this_month": _sent(db, p["customer_id"], today.replace(day=1).isoformat()),
            "available": money(a["balance"] + a["overdraft_limit"])}


@tool(writes=True)
def send_transfer(db: Session, account_id: FromAccount, payee_id: PayeeId, amount: EuroAmount, reference: str) -> Row:
    """Send a transfer from a current account to a saved payee; an international one also charges its fee.

    Args:
        reference: the payment reference the payee sees
    """
    a, p = _pair(db, account_id, payee_id)
    q = _quote(db, a, p, positive(amount))
    if a["balance"] + a["overdraft_limit"] < q["amount"] + q["fee"]:
        raise PreconditionFailed(f"{a['id']} does not have {q['amount'] + q['fee']:.2f} available.")
    foreign = {} if q["currency"] == "EUR" else {"foreign_amount": q["payee_receives"],
                                                  "foreign_currency": q["currency"], "fx_rate": q["rate"]}
    sent = post(db, a, "transfer_out", -q["amount"], f"Transfer to {p['name']}: {reference.strip()}",
                payee_id=p["id"], **foreign)
    if q["fee"]:
        post(db, a, "fee", -q["fee"], "International transfer fee", fee_type="international",
             related_id=sent["transaction_id"])
    return {**sent, "fee": q["fee"], "payee_receives": q["payee_receives"], "currency": q["currency"]}


@tool(writes=True)
def resolve_held_payment(db: Session, transaction_id: str, action: Literal["release", "cancel"]) -> Row:
    """Release a held outgoing transfer (it is sent) or cancel it (the money returns to the balance).

    Args:
        transaction_id: the held transfer
        action: release or cancel
    """
    t = transaction_row(db, transaction_id)
    if t["status"] != "held":
        raise PreconditionFailed(f"{t['id']} is {t['status']}, not held.")
    if action == "release":
        db.update("transactions", t["id"], status="posted", updated_at=now_iso(db))
    else:
        db.update("transactions", t["id"], status="cancelled", updated_at=now_iso(db))
        a = account_row(db, t["account_id"])
        db.update("accounts", a["id"], balance=money(a["balance"] - t["amount"]), updated_at=now_iso(db))
    return {"transaction_id": t["id"], "status": "posted" if action == "release" else "cancelled"}


@tool(writes=True)
def request_recall(db: Session, transaction_id: str,
                   reason: Literal["wrong_recipient", "wrong_amount", "duplicate"]) -> Row:
    """Ask the receiving bank to return a posted outgoing transfer sent by mistake.

    Args:
        transaction_id: the transfer to recall
        reason: wrong_recipient, wrong_amount or duplicate
    """
    t = transaction_row(db, transaction_id)
    if t["kind"] != "transfer_out" or t["status"] != "posted":
        raise PreconditionFailed(f"{t['id']} is not a posted outgoing transfer.")
    if t["recall_status"]:
        raise PreconditionFailed(f"a recall of {t['id']} was already requested.")
    db.update("transactions", t["id"], recall_status="requested", updated_at=now_iso(db))
    rid = db.next_id("recalls")
    db.insert("recalls", {"id": rid, "transaction_id": t["id"], "reason": reason, "requested_at": now_iso(db)})
    return {"recall_id": rid, "transaction_id": t["id"], "status": "requested", "answer_within": "15 business days"}


@tool(writes=True)
def cancel_recurring_payment(db: Session, payment_id: str) -> Row:
    """Cancel a standing order (STO-...) or a direct debit mandate (DDM-...): no further payments are made.

    Args:
        payment_id: the standing order id or the mandate id, from get_account
    """
    pid = payment_id.strip().upper()
    table = "standing_orders" if pid.startswith("STO") else "mandates" if pid.startswith("DDM") else None
    if table is None:
        raise InvalidArguments(f"{pid!r} is neither a standing order (STO-...) nor a mandate (DDM-...).")
    row = found(db.one(f"SELECT * FROM {table} WHERE id = ?", pid), f"no {table[:-1].replace('_', ' ')} {pid}.",
                "get_account lists them.")
    if row["status"] != "active":
        raise PreconditionFailed(f"{pid} is already {row['status']}.")
    db.update(table, pid, status="cancelled", cancelled_at=now_iso(db))
    return {"payment_id": pid, "status": "cancelled"}


@tool(writes=True)
def refund_direct_debit(db: Session, transaction_id: str) -> Row:
    """Refund a collected direct debit in full to the account (the SEPA refund right).

    Args:
        transaction_id: the direct debit transaction
    """
    t = transaction_row(db, transaction_id)
    if t["kind"] != "direct_debit" or t["status"] != "posted":
        raise PreconditionFailed(f"{t['id']} is not a posted direct debit.")
    if db.one("SELECT id FROM transactions WHERE related_id = ? AND kind = 'direct_debit_refund'", t["id"]):
        raise PreconditionFailed(f"{t['id']} was already refunded.")
    return post(db, account_row(db, t["account_id"]), "direct_debit_refund", -t["amount"],
                f"Refund of direct debit {t['merchant'] or ''}".strip(), related_id=t["id"], merchant=t["merchant"],
                mandate_id=t["mandate_id"])


@tool(writes=True)
def refund_fee(db: Session, fee_transaction_id: str, amount: float,
               reason: Literal["goodwill", "bank_error"]) -> Row:
    """Give back all or part of a fee, credited to the account it was charged to; recorded in the fee refund history.

    Args:
        fee_transaction_id: the fee transaction
        amount: the euro amount to refund
        reason: goodwill or bank_error (rulebook section 14)
    """
    t = transaction_row(db, fee_transaction_id)
    if t["kind"] != "fee" or t["status"] != "posted":
        raise PreconditionFailed(f"{t['id']} is not a posted fee.", hint="list_transactions with kind fee.")
    done = db.one("SELECT COALESCE(SUM(amount), 0) AS s FROM fee_refunds WHERE fee_transaction_id = ?", t["id"])
    left = money(-t["amount"] - (done["s"] if done else 0))
    value = positive(amount)
    if value > left:
        raise PreconditionFailed(f"only {left:.2f} of fee {t['id']} is left to refund.")
    a = account_row(db, t["account_id"])
    out = post(db, a, "fee_refund", value, f"Fee refund ({reason})", related_id=t["id"])
    db.insert("fee_refunds", {"id": db.next_id("fee_refunds"), "customer_id": owner_of(db, a)["id"],
                              "fee_transaction_id": t["id"], "amount": value, "reason": reason,
                              "created_at": now_iso(db)})
    return {**out, "reason": reason}


