"""Orders: reading them, cancelling, changing where they ship, and free replacement orders."""

from __future__ import annotations

from datetime import timedelta

from statebox.domains.retail.tools.common import (
    CustomerId,
    OrderNumber,
    OrderNumberWithExample,
    compact,
    get_customer_row,
    get_order_row,
    items_of,
    json_list,
    money,
    now_iso,
    order_items,
    payment_of,
)
from statebox.tools import NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

NOT_SHIPPED = ("placed", "paid")


@tool(writes=False)
def list_customer_orders(db: Session, customer_id: CustomerId) -> list[Row]:
    """A customer's orders, newest first, with status, dates and totals."""
    c = get_customer_row(db, customer_id)
    rows = db.all(
        "SELECT o.id AS order_id, o.status, o.placed_at, o.delivered_at, o.total, "
        "(SELECT group_concat(p.name, '; ') FROM order_items i JOIN products p ON p.id = i.product_id "
        " WHERE i.order_id = o.id) AS items FROM orders o WHERE o.customer_id = ? ORDER BY o.placed_at DESC",
        c["id"],
    )
    return [compact(r) for r in rows]


@tool(writes=False)
def get_order(db: Session, order_id: OrderNumberWithExample) -> Row:
    """An order with its items, payment, shipping address, shipments, returns and installations."""
    o = get_order_row(db, order_id)
    pay = payment_of(db, o["id"])
    address = db.one("SELECT line1, line2, city, region, postal_code, country FROM addresses WHERE id = ?",
                     o["shipping_address_id"])
    shipments = db.all("SELECT id AS shipment_id, carrier, tracking_number, status FROM shipments WHERE order_id = ?",
                       o["id"])
    returns = db.all("SELECT id AS return_id, status, items, reason FROM returns WHERE order_id = ? ORDER BY id",
                     o["id"])
    installs = db.all("SELECT id AS installation_id, order_item_id, slot_id, status FROM installation_jobs "
                      "WHERE order_id = ? ORDER BY id", o["id"])
    refunds = db.all("SELECT id AS refund_id, amount, reason, return_id, created_at FROM refunds "
                     "WHERE order_id = ? ORDER BY id", o["id"])
    return {
        **compact(o, "updated_at"),
        "items": order_items(db, o["id"]),
        "payment": compact(pay, "order_id") if pay else None,
        "refunds": [compact(r) for r in refunds],
        "shipping_address": compact(address) if address else None,
        "shipments": shipments,
        "returns": [{**r, "items": json_list(r["items"])} for r in returns],
        "installations": installs,
    }


@tool(writes=True)
def cancel_order(db: Session, order_id: OrderNumber, reason: str) -> Row:
    """Cancel a whole order that has not shipped yet; the payment is refunded or voided automatically.

    Args:
        reason: the customer's reason, in a few words
    """
    o = get_order_row(db, order_id)
    if o["status"] not in NOT_SHIPPED:
        raise PreconditionFailed(
            f"order {o['id']} is {o['status']} and can no longer be cancelled.",
            hint="only placed or paid orders can be cancelled; a delivered order can be returned instead.")
    now = now_iso(db)
    db.update("orders", o["id"], status="cancelled", cancelled_at=now, cancel_reason=reason.strip(), updated_at=now)
    refunded = _refund_or_void(db, o["id"])
    for item in db.all("SELECT product_id, quantity FROM order_items WHERE order_id = ?", o["id"]):
        db.execute("UPDATE inventory SET reserved = max(0, reserved - ?) WHERE product_id = ?",
                   item["quantity"], item["product_id"])
    jobs = db.all("SELECT id, slot_id FROM installation_jobs WHERE order_id = ? AND status = 'scheduled'", o["id"])
    for job in jobs:
        db.update("installation_jobs", job["id"], status="cancelled", updated_at=now)
        db.execute("UPDATE installation_slots SET booked = max(0, booked - 1) WHERE id = ?", job["slot_id"])
    return {"order_id": o["id"], "status": "cancelled", "refunded": refunded,
            "installations_cancelled": [j["id"] for j in jobs]}


def _refund_or_void(db: Session, order_id: str) -> float:
    pay = payment_of(db, order_id)
    if pay is None:
        return 0.0
    if pay["status"] == "authorized":
        db.update("payments", pay["id"], status="voided")
        return 0.0
    remaining = money(pay["amount"] - pay["refunded_amount"])
    if remaining <= 0:
        return 0.0
    db.insert("refunds", {"id": db.next_id("refunds"), "order_id": order_id, "payment_id": pay["id"],
                          "return_id": None, "amount": remaining, "reason": "cancellation", "method": pay["method"],
                          "card_last4": pay["card_last4"], "created_at": now_iso(db)})
    db.update("payments", pay["id"], refunded_amount=pay["amount"], status="refunded")
    return remaining


@tool(writes=True)
def update_shipping_address(db: Session, order_id: OrderNumber, address_id: str) -> Row:
    """Ship an order that has not shipped yet to another address of the same customer.

    Args:
        address_id: an address on the customer's account (add one first with add_address)
    """
    o = get_order_row(db, order_id)
    a = db.one("SELECT * FROM addresses WHERE id = ?", address_id.strip().upper())
    if a is None or a["customer_id"] != o["customer_id"]:
        raise NotFound(f"the customer of {o['id']} has no address {address_id!r}.",
                       hint="add the new address with add_address and use the address_id it returns.")
    if o["status"] not in NOT_SHIPPED:
        raise PreconditionFailed(f"order {o['id']} is {o['status']}; its address can no longer be changed.")
    if a["country"] != "US":
        raise PreconditionFailed("orders ship only to addresses in the United States.")
    db.update("orders", o["id"], shipping_address_id=a["id"], updated_at=now_iso(db))
    return {"order_id": o["id"], "shipping_address_id": a["id"]}


@tool(writes=True)
def create_replacement_order(db: Session, order_id: str, order_item_ids: list[str]) -> Row:
    """Create a free order that re-sends the given items (their full quantity) to the original address.

    Args:
        order_id: the original order number
        order_item_ids: the original order's item ids to re-send (see get_order)
    """
    o = get_order_row(db, order_id)
    if o["status"] not in ("shipped", "delivered"):
        raise PreconditionFailed(
            f"order {o['id']} is {o['status']}; only shipped or delivered orders get replacements.")
    items = items_of(db, o["id"], order_item_ids)
    for it in items:
        stock = db.one("SELECT on_hand - reserved AS available FROM inventory WHERE product_id = ?", it["product_id"])
        if stock is None or stock["available"] < it["quantity"]:
            raise PreconditionFailed(f"{it['product_id']} is out of stock for a replacement.",
                                     hint="offer the customer a refund instead.")
    new_id = db.next_id("orders")
    db.insert("orders", {
        "id": new_id, "customer_id": o["customer_id"], "status": "paid", "placed_at": now_iso(db),
        "promised_delivery": (db.now + timedelta(days=5)).strftime("%Y-%m-%d"), "delivered_at": None,
        "shipping_address_id": o["shipping_address_id"], "subtotal": 0.0, "discount": 0.0, "shipping_fee": 0.0,
        "total": 0.0, "promo_code": None, "replacement_for": o["id"], "updated_at": now_iso(db),
    })
    for it in items:
        db.insert("order_items", {"id": db.next_id("order_items"), "order_id": new_id, "product_id": it["product_id"],
                                  "quantity": it["quantity"], "unit_price": 0.0, "final_sale": 0})
        db.execute("UPDATE inventory SET reserved = reserved + ? WHERE product_id = ?",
                   it["quantity"], it["product_id"])
    return {"order_id": new_id, "replacement_for": o["id"], "status": "paid",
            "items": [{"product_id": it["product_id"], "quantity": it["quantity"]} for it in items]}

