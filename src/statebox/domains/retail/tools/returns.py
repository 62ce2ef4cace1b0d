"""Returns (RMAs) and refunds to the original payment method."""

from __future__ import annotations

import json
from typing import Literal

from statebox.domains.retail.tools.common import (
    OrderNumber,
    ReturnId,
    ReturnIdWithExample,
    get_order_row,
    items_of,
    json_list,
    money,
    now_iso,
    payment_of,
)
from statebox.kit import lookup
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

ReturnReason = Literal["changed_mind", "defective", "damaged_in_transit", "wrong_item", "not_as_described"]
RefundReason = Literal["return", "damaged_item", "missing_item", "price_adjustment", "lost_in_transit"]
ACTIVE = ("requested", "approved", "received", "refunded")


_return_row = lookup("returns", "RMA", "return ids look like RMA-10012; get_order lists an order's returns.")


def _view(r: Row) -> Row:
    return {"return_id": r["id"], "order_id": r["order_id"], "items": json_list(r["items"]), "reason": r["reason"],
            "resolution": r["resolution"], "status": r["status"], "restocking_fee": r["restocking_fee"],
            "refund_amount": r["refund_amount"], "created_at": r["created_at"]}


@tool(writes=False)
def get_return(db: Session, return_id: ReturnIdWithExample) -> Row:
    """A return: its items, reason, resolution, status, restocking fee and refund amount."""
    return _view(_return_row(db, return_id))


@tool(writes=True)
def create_return(
    db: Session,
    order_id: OrderNumber,
    order_item_ids: list[str],
    reason: ReturnReason,
    resolution: Literal["refund", "replacement"] = "refund",
    restocking_fee: float = 0.0,
    customer_comment: str | None = None,
) -> Row:
    """Open an approved return (RMA) for whole item lines of a delivered order.

    The refund amount is the lines' price minus the restocking fee (0 for a replacement).

    Args:
        order_item_ids: the order's item ids being sent back (each line's full quantity)
        reason: why the items come back
        resolution: what the customer gets: a refund, or a free replacement
        restocking_fee: the fee in dollars, when the policy charges one
        customer_comment: the customer's own words about the problem
    """
    o = get_order_row(db, order_id)
    if o["status"] != "delivered":
        raise PreconditionFailed(f"order {o['id']} is {o['status']}; only delivered orders can be returned.")
    items = items_of(db, o["id"], order_item_ids)
    taken = {i for r in db.all("SELECT items FROM returns WHERE order_id = ? AND status IN (?, ?, ?, ?)",
                               o["id"], *ACTIVE) for i in json_list(r["items"])}
    again = sorted(i["id"] for i in items if i["id"] in taken)
    if again:
        raise PreconditionFailed(f"item(s) {again} are already in a return of this order.",
                                 hint="look at the existing return with get_return.")
    value = money(sum(i["unit_price"] * i["quantity"] for i in items))
    fee = money(restocking_fee)
    if fee < 0 or fee > value:
        raise InvalidArguments(f"restocking_fee must be between 0 and the items' value ({value}).")
    refund = money(value - fee) if resolution == "refund" else 0.0
    rid = db.next_id("returns")
    db.insert("returns", {"id": rid, "order_id": o["id"], "items": json.dumps([i["id"] for i in items]),
                          "reason": reason, "resolution": resolution, "status": "approved", "restocking_fee": fee,
                          "refund_amount": refund, "customer_comment": customer_comment, "created_at": now_iso(db),
                          "updated_at": now_iso(db)})
    return _view(_return_row(db, rid))


@tool(writes=True)
def update_return_status(db: Session, return_id: ReturnId, status: Literal["approved", "rejected"]) -> Row:
    """Approve or reject a return the customer requested on the website (status requested).

    Args:
        status: approved or rejected
    """
    r = _return_row(db, return_id)
    if r["status"] != "requested":
        raise PreconditionFailed(f"return {r['id']} is {r['status']}; only requested returns can be reviewed.",
                                 hint="received returns are refunded with issue_refund.")
    db.update("returns", r["id"], status=status, updated_at=now_iso(db))
    return _view({**r, "status": status})


@tool(writes=True)
def issue_refund(
    db: Session, order_id: OrderNumber, amount: float, reason: RefundReason, return_id: str | None = None,
) -> Row:
    """Refund money to the order's original payment method. A refund for a return marks it refunded.

    Args:
        amount: dollars to refund, e.g. 45.90
        reason: why the money goes back
        return_id: the return being refunded (required when reason is return)
    """
    o = get_order_row(db, order_id)
    amount = money(amount)
    if amount <= 0:
        raise InvalidArguments("amount must be more than 0.")
    if (reason == "return") != (return_id is not None):
        raise InvalidArguments("a refund for a return needs its return_id, and only such a refund takes one.")
    pay = payment_of(db, o["id"])
    if pay is None or pay["status"] not in ("captured", "partially_refunded"):
        state = pay["status"] if pay else "missing"
        raise PreconditionFailed(f"order {o['id']} has no captured payment to refund (payment is {state}).")
    remaining = money(pay["amount"] - pay["refunded_amount"])
    if amount > remaining:
        raise PreconditionFailed(f"only {remaining} is left to refund on this payment.")
    rid = None
    if return_id is not None:
        r = _return_row(db, return_id)
        if r["order_id"] != o["id"]:
            raise PreconditionFailed(f"return {r['id']} belongs to order {r['order_id']}.")
        if r["status"] not in ("approved", "received"):
            raise PreconditionFailed(f"return {r['id']} is {r['status']} and cannot be refunded.")
        rid = r["id"]
        db.update("returns", rid, status="refunded", updated_at=now_iso(db))
    refund_id = db.next_id("refunds")
    db.insert("refunds", {"id": refund_id, "order_id": o["id"], "payment_id": pay["id"], "return_id": rid,
                          "amount": amount, "reason": reason, "method": pay["method"],
                          "card_last4": pay["card_last4"], "created_at": now_iso(db)})
    refunded = money(pay["refunded_amount"] + amount)
    db.update("payments", pay["id"], refunded_amount=refunded,
              status="refunded" if refunded >= pay["amount"] else "partially_refunded")
    return {"refund_id": refund_id, "order_id": o["id"], "amount": amount, "method": pay["method"],
            "card_last4": pay["card_last4"], "payment_refunded_total": refunded}
