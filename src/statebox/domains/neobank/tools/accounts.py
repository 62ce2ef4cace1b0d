"""Accounts and their history: reading an account, its transactions, and closing it."""

from __future__ import annotations

from statebox.domains.neobank.tools.common import (
    AccountIdWithExample,
    TransactionIdWithExample,
    account_row,
    current_and_payee,
    customer_row,
    holders,
    post,
    transaction_row,
)
from statebox.kit import compact, money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

TXN_COLUMNS = ("id AS transaction_id, kind, amount, description, merchant, card_id, payee_id, mandate_id, "
               "standing_order_id, related_id, fee_type, foreign_amount, foreign_currency, status, recall_status, "
               "occurred_at")


@tool(writes=False)
def get_account(db: Session, account_id: AccountIdWithExample) -> Row:
    """An account with its holders, balance, pots, cards, standing orders and direct debit mandates."""
    a = account_row(db, account_id)
    out = compact(a, "updated_at")
    names = {h: db.one("SELECT first_name || ' ' || last_name AS n FROM customers WHERE id = ?", h) for h in holders(a)}
    out["holders"] = [{"customer_id": h, "name": (n or {}).get("n")} for h, n in sorted(names.items())]
    out["pots"] = db.all("SELECT id AS account_id, name, balance, status FROM accounts WHERE parent_account_id = ? "
                         "ORDER BY id", a["id"])
    out["cards"] = db.all("SELECT id AS card_id, holder_id, kind, last4, status FROM cards WHERE account_id = ? "
                          "ORDER BY id", a["id"])
    out["standing_orders"] = [compact(r) for r in db.all(
        "SELECT s.id AS standing_order_id, s.payee_id, p.name AS payee_name, s.amount, s.day_of_month, s.next_date, "
        "s.status FROM standing_orders s JOIN payees p ON p.id = s.payee_id WHERE s.account_id = ? ORDER BY s.id",
        a["id"])]
    out["mandates"] = db.all("SELECT id AS mandate_id, creditor, creditor_reference, status, created_at FROM mandates "
                             "WHERE account_id = ? ORDER BY id", a["id"])
    return out


@tool(writes=False)
def list_transactions(
    db: Session, account_id: str, kind: str | None = None, merchant: str | None = None,
    since: str | None = None, until: str | None = None, limit: int = 50,
) -> list[Row]:
    """An account's transactions, newest first, optionally filtered.

    Args:
        account_id: the account id
        kind: only this kind: card_payment, atm_withdrawal, transfer_in, transfer_out, direct_debit, fee,
            interest, merchant_refund, provisional_credit, fee_refund, direct_debit_refund, pot_transfer
        merchant: only transactions whose merchant contains this text (case does not matter)
        since: only on or after this date, YYYY-MM-DD
        until: only on or before this date, YYYY-MM-DD
        limit: at most this many rows (1-200)
    """
    a = account_row(db, account_id)
    if not 1 <= limit <= 200:
        raise InvalidArguments("limit must be between 1 and 200.")
    sql, params = f"SELECT {TXN_COLUMNS} FROM transactions WHERE account_id = ?", [a["id"]]
    if kind:
        sql, params = sql + " AND kind = ?", [*params, kind.strip()]
    if merchant:
        sql, params = sql + " AND lower(merchant) LIKE ?", [*params, f"%{merchant.strip().lower()}%"]
    if since:
        sql, params = sql + " AND substr(occurred_at, 1, 10) >= ?", [*params, since.strip()]
    if until:
        sql, params = sql + " AND substr(occurred_at, 1, 10) <= ?", [*params, until.strip()]
    rows = db.all(sql + " ORDER BY occurred_at DESC, id DESC LIMIT ?", *params, limit)
    return [compact(r) for r in rows]


@tool(writes=False)
def get_transaction(db: Session, transaction_id: TransactionIdWithExample) -> Row:
    """One transaction with its disputes, the transactions linked to it (refunds, credits, fees) and any recall."""
    t = transaction_row(db, transaction_id)
    out = compact(t, "updated_at")
    out["disputes"] = [compact(d, "updated_at") for d in db.all(
        "SELECT id AS dispute_id, reason, amount, provisional_credit, status, evidence, created_at, updated_at "
        "FROM disputes WHERE transaction_id = ? ORDER BY id", t["id"])]
    out["linked"] = [compact(r) for r in db.all(
        f"SELECT {TXN_COLUMNS} FROM transactions WHERE related_id = ? ORDER BY occurred_at, id", t["id"])]
    return out


@tool(writes=True)
def close_account(db: Session, account_id: str, payout_payee_id: str) -> Row:
    """Close a current account: its pots are emptied into it and closed, the whole balance is paid out to the
    payee, and its cards, standing orders and mandates end.

    Args:
        account_id: the current account to close
        payout_payee_id: the customer's saved payee that receives the balance
    """
    a, p = current_and_payee(db, account_id, payout_payee_id,
                             pot_error="{} is a pot; pots close with their current account.",
                             payee_error="payee {} is not an active payee of this account's holder.")
    busy = db.one("SELECT id, status FROM transactions WHERE account_id = ? AND status IN ('pending', 'held') "
                  "LIMIT 1", a["id"])
    if busy:
        raise PreconditionFailed(f"transaction {busy['id']} on {a['id']} is still {busy['status']}.",
                                 hint="an account closes only when nothing on it is pending or held.")
    now = now_iso(db)
    for pot in db.all("SELECT * FROM accounts WHERE parent_account_id = ? AND status = 'active'", a["id"]):
        if pot["balance"]:
            post(db, pot, "pot_transfer", -pot["balance"], "Moved to Main on closure")
            post(db, a, "pot_transfer", pot["balance"], f"Moved from {pot['name']} on closure")
        db.update("accounts", pot["id"], status="closed", closed_at=now, updated_at=now)
    balance = money((db.one("SELECT balance FROM accounts WHERE id = ?", a["id"]) or {})["balance"])
    if balance < 0:
        raise PreconditionFailed(f"{a['id']} is overdrawn ({balance}); it cannot be closed until it is at 0 or more.")
    if balance:
        post(db, a, "closure_payout", -balance, f"Closing balance to {p['name']}", payee_id=p["id"])
    db.update("accounts", a["id"], status="closed", closed_at=now, updated_at=now)
    db.execute("UPDATE cards SET status = 'closed', updated_at = ? WHERE account_id = ? AND status != 'replaced'",
               now, a["id"])
    db.execute("UPDATE standing_orders SET status = 'cancelled', cancelled_at = ? WHERE account_id = ? "
               "AND status = 'active'", now, a["id"])
    db.execute("UPDATE mandates SET status = 'cancelled', cancelled_at = ? WHERE account_id = ? AND status = 'active'",
               now, a["id"])
    for h in holders(a):
        left = db.one("SELECT id FROM accounts WHERE (holder_id = ? OR joint_holder_id = ?) AND kind = 'current' "
                      "AND status = 'active'", h, h)
        if left is None:
            db.update("customers", customer_row(db, h)["id"], status="closed", updated_at=now)
    return {"account_id": a["id"], "status": "closed", "paid_out": balance, "to_payee": p["id"],
            "payee_name": p["name"]}


