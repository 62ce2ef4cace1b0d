"""Billing: paying installments, waiving a late fee, reinstating a lapsed policy, cancelling with a refund."""

from __future__ import annotations

import json
from typing import Literal

from statebox.domains.auto_insurance.tools.common import (
    InstallmentId,
    PolicyNumber,
    default_payment_method,
    installment_row,
    parse_date,
    policy_row,
)
from statebox.kit import money, normalize_id, now_iso, today
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

LATE_FEE = 15.0
REINSTATEMENT_FEE = 25.0


def _method(db: Session, policyholder_id: str, payment_method_id: str) -> Row:
    pm = db.one("SELECT * FROM payment_methods WHERE id = ? AND policyholder_id = ?",
                normalize_id(payment_method_id, "PMT"), policyholder_id)
    if pm is None:
        raise NotFound(f"{policyholder_id} has no payment method {payment_method_id!r} on file.",
                       hint="get_policyholder lists the methods on file; new ones are added on the website.")
    return pm


def _charge(db: Session, policy_id: str, pm: Row, amount: float, purpose: str, installments: list[str]) -> Row:
    pid = db.next_id("billing_payments")
    db.insert("billing_payments", {"id": pid, "policy_id": policy_id, "payment_method_id": pm["id"],
                                   "amount": money(amount), "purpose": purpose,
                                   "installment_ids": json.dumps(installments), "created_at": now_iso(db)})
    return {"payment_id": pid, "amount": money(amount), "charged_to": f"{pm['kind']} ending {pm['last4']}"}


@tool(writes=True)
def pay_installments(db: Session, policy_id: PolicyNumber, installment_ids: list[str], payment_method_id: str) -> Row:
    """Charge whole installments, with their late fees, to a payment method on file.

    An installment paid after its due date carries the $15 late fee (added here if not yet charged).

    Args:
        installment_ids: the installments to pay, e.g. ["INS-100234"]
        payment_method_id: a payment method on file, e.g. PMT-10034
    """
    p = policy_row(db, policy_id)
    if not installment_ids:
        raise InvalidArguments("name at least one installment.")
    pm = _method(db, p["policyholder_id"], payment_method_id)
    total, paid = 0.0, []
    for raw in installment_ids:
        i = db.one("SELECT * FROM installments WHERE id = ? AND policy_id = ?", normalize_id(raw, "INS"), p["id"])
        if i is None:
            raise NotFound(f"policy {p['id']} has no installment {raw!r}.", hint="get_policy lists its installments.")
        if i["status"] not in ("due", "overdue"):
            raise PreconditionFailed(f"installment {i['id']} is {i['status']}.")
        fee = i["late_fee"] or (LATE_FEE if i["due_date"] < today(db) else 0.0)
        total += i["amount"] + (0.0 if i["late_fee_waived"] else fee)
        db.update("installments", i["id"], status="paid", paid_on=today(db), late_fee=fee)
        paid.append(i["id"])
    return {**_charge(db, p["id"], pm, total, "installments", paid), "installments_paid": paid}


@tool(writes=True)
def waive_late_fee(db: Session, installment_id: InstallmentId) -> Row:
    """Waive the late fee of an unpaid installment (a paid fee cannot be waived afterwards)."""
    i = installment_row(db, installment_id)
    if i["status"] == "paid":
        raise PreconditionFailed(f"installment {i['id']} was already paid with its fee.")
    if not i["late_fee"]:
        raise PreconditionFailed(f"installment {i['id']} carries no late fee.")
    if i["late_fee_waived"]:
        raise PreconditionFailed(f"the late fee of {i['id']} was already waived.")
    db.update("installments", i["id"], late_fee_waived=1)
    return {"installment_id": i["id"], "late_fee_waived": i["late_fee"]}


@tool(writes=True)
def reinstate_policy(db: Session, policy_id: PolicyNumber, payment_method_id: str) -> Row:
    """Reinstate a lapsed policy whose overdue installments are paid; charges the $25 reinstatement fee.

    Args:
        payment_method_id: the payment method on file for the fee
    """
    p = policy_row(db, policy_id)
    if p["status"] != "lapsed":
        raise PreconditionFailed(f"policy {p['id']} is {p['status']}, not lapsed.")
    owing = db.all("SELECT id FROM installments WHERE policy_id = ? AND status = 'overdue'", p["id"])
    if owing:
        raise PreconditionFailed(f"installments {[o['id'] for o in owing]} are still overdue.",
                                 hint="take payment with pay_installments first.")
    pm = _method(db, p["policyholder_id"], payment_method_id)
    charge = _charge(db, p["id"], pm, REINSTATEMENT_FEE, "reinstatement_fee", [])
    db.update("policies", p["id"], status="active", reinstated_on=today(db), updated_at=now_iso(db))
    return {"policy_id": p["id"], "status": "active", "reinstated_on": today(db), **charge}


@tool(writes=True)
def cancel_policy(
    db: Session, policy_id: PolicyNumber, effective_date: str, requested_by: Literal["policyholder", "company"],
    reason: str, refund_method: Literal["pro_rata", "short_rate"], refund_amount: float,
) -> Row:
    """Cancel a policy and refund the unearned premium to the default payment method on file.

    Installments due after the cancellation date are cancelled. A refund of 0 cancels with no refund.

    Args:
        effective_date: YYYY-MM-DD, the last day of cover
        requested_by: who cancels: the policyholder, or the company
        reason: why, in a few words
        refund_method: pro_rata or short_rate (policy section 14)
        refund_amount: the refund in dollars, computed under section 14
    """
    p = policy_row(db, policy_id)
    if p["status"] != "active":
        raise PreconditionFailed(f"policy {p['id']} is {p['status']}; only active policies are cancelled here.")
    d = parse_date(effective_date, "effective_date").isoformat()
    if not p["term_start"] <= d <= p["term_end"]:
        raise PreconditionFailed(f"{d} is outside the term {p['term_start']} to {p['term_end']}.")
    amount = money(refund_amount)
    paid = db.one("SELECT coalesce(sum(amount), 0) AS s FROM installments WHERE policy_id = ? AND status = 'paid'",
                  p["id"])
    if amount < 0 or (paid is not None and amount > paid["s"]):
        raise InvalidArguments(f"refund_amount must be between 0 and what was paid ({paid['s'] if paid else 0}).")
    db.update("policies", p["id"], status="cancelled", cancelled_on=d, cancelled_by=requested_by,
              cancel_reason=reason.strip(), updated_at=now_iso(db))
    db.execute("UPDATE installments SET status = 'cancelled' WHERE policy_id = ? AND status IN ('due', 'overdue') "
               "AND due_date > ?", p["id"], d)
    refund = None
    if amount > 0:
        pm = default_payment_method(db, p["policyholder_id"])
        refund = db.next_id("premium_refunds")
        db.insert("premium_refunds", {"id": refund, "policy_id": p["id"], "payment_method_id": pm["id"],
                                      "amount": amount, "method": refund_method, "created_at": now_iso(db)})
    return {"policy_id": p["id"], "status": "cancelled", "cancelled_on": d, "refund_id": refund,
            "refund_amount": amount, "refund_method": refund_method}
