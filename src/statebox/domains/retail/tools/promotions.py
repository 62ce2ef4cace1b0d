"""Promotion codes: reading them and applying a forgotten code to an existing order."""

from __future__ import annotations

from statebox.domains.retail.tools.common import (
    OrderNumber,
    PromotionCodeWithExample,
    compact,
    found,
    get_order_row,
    money,
    now_iso,
)
from statebox.tools import PreconditionFailed, tool
from statebox.world import Row, Session


def _promotion(db: Session, code: str) -> Row:
    return found(db.one("SELECT * FROM promotions WHERE upper(code) = upper(?)", code.strip()),
                 f"there is no promotion code {code!r}.", "ask the customer to spell the code exactly.")


@tool(writes=False)
def get_promotion(db: Session, code: PromotionCodeWithExample) -> Row:
    """A promotion code's terms: discount, minimum subtotal, category, minimum tier, validity dates."""
    return compact(_promotion(db, code), "id")


@tool(writes=True)
def apply_promotion(db: Session, order_id: OrderNumber, code: str) -> Row:
    """Apply a promotion code to an existing order and record the discount (it refunds nothing).

    Args:
        code: the promotion code
    """
    o = get_order_row(db, order_id)
    p = _promotion(db, code)
    if o["status"] == "cancelled":
        raise PreconditionFailed(f"order {o['id']} is cancelled.")
    if o["promo_code"]:
        raise PreconditionFailed(f"order {o['id']} already uses code {o['promo_code']}; codes cannot be combined.")
    eligible = db.one(
        "SELECT coalesce(sum(i.unit_price * i.quantity), 0) AS v FROM order_items i "
        "JOIN products pr ON pr.id = i.product_id WHERE i.order_id = ? AND (? IS NULL OR pr.category = ?)",
        o["id"], p["category"], p["category"])
    base = money(eligible["v"] if eligible else 0.0)
    percent, amount = p["percent_off"], p["amount_off"] or 0.0
    discount = money(base * percent / 100) if percent else money(min(amount, base))
    total = money(o["subtotal"] - discount + o["shipping_fee"])
    db.update("orders", o["id"], promo_code=p["code"], discount=discount, total=total, updated_at=now_iso(db))
    return {"order_id": o["id"], "promo_code": p["code"], "discount": discount, "new_total": total,
            "note": "refund the discount with issue_refund (reason price_adjustment) if the policy allows it."}
