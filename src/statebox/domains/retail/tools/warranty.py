"""Warranty: manufacturer cover, protection plans, and claims."""

from __future__ import annotations

import calendar
from datetime import date
from typing import Literal

from statebox.domains.retail.tools.common import OrderItemIdWithExample, compact, found, now_iso
from statebox.kit import lookup
from statebox.tools import PreconditionFailed, tool
from statebox.world import Row, Session

_contract_row = lookup("warranty_contracts", None, "get_warranty lists the item's protection plans.",
                       what="protection plan")


def add_months(start: date, months: int) -> date:
    month = start.month - 1 + months
    year, month = start.year + month // 12, month % 12 + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def _item(db: Session, order_item_id: str) -> Row:
    item = db.one(
        "SELECT i.id, i.order_id, i.product_id, p.name, p.warranty_months, o.status, o.delivered_at "
        "FROM order_items i JOIN products p ON p.id = i.product_id JOIN orders o ON o.id = i.order_id "
        "WHERE i.id = ?", order_item_id.strip().upper())
    return found(item, f"no order item {order_item_id!r}.", "get_order lists an order's item ids.")


@tool(writes=False)
def get_warranty(db: Session, order_item_id: OrderItemIdWithExample) -> Row:
    """Warranty cover of a purchased item: manufacturer warranty end, protection plans, earlier claims."""
    item = _item(db, order_item_id)
    ends = None
    if item["delivered_at"]:
        ends = add_months(date.fromisoformat(item["delivered_at"][:10]), item["warranty_months"]).isoformat()
    plans = db.all("SELECT id AS contract_id, plan, covers_accidental, starts_on, ends_on FROM warranty_contracts "
                   "WHERE order_item_id = ? ORDER BY id", item["id"])
    claims = db.all("SELECT id AS claim_id, issue_type, status, created_at FROM warranty_claims "
                    "WHERE order_item_id = ? ORDER BY id", item["id"])
    return {"order_item_id": item["id"], "order_id": item["order_id"], "product": item["name"],
            "delivered_at": item["delivered_at"], "manufacturer_warranty_months": item["warranty_months"],
            "manufacturer_warranty_ends": ends,
            "protection_plans": [{**p, "covers_accidental": bool(p["covers_accidental"])} for p in plans],
            "claims": claims}


@tool(writes=True)
def file_warranty_claim(
    db: Session,
    order_item_id: str,
    issue_type: Literal["malfunction", "accidental_damage", "cosmetic"],
    issue_description: str,
    contract_id: str | None = None,
) -> Row:
    """File a warranty claim for a delivered item, under the manufacturer warranty or a protection plan.

    Args:
        order_item_id: the order item id
        issue_type: what kind of problem it is
        issue_description: the problem in the customer's words
        contract_id: the protection plan the claim is filed under; leave empty for the manufacturer warranty
    """
    item = _item(db, order_item_id)
    if item["status"] != "delivered":
        raise PreconditionFailed(f"order {item['order_id']} is {item['status']}; only delivered items can be claimed.")
    cid = None
    if contract_id:
        c = _contract_row(db, contract_id)
        if c["order_item_id"] != item["id"]:
            raise PreconditionFailed(f"plan {c['id']} covers another item ({c['order_item_id']}).")
        cid = c["id"]
    if db.one("SELECT id FROM warranty_claims WHERE order_item_id = ? AND status = 'submitted'", item["id"]):
        raise PreconditionFailed(f"item {item['id']} already has a claim under review.")
    claim = db.next_id("warranty_claims")
    row = {"id": claim, "order_item_id": item["id"], "contract_id": cid, "issue_type": issue_type,
           "issue_description": issue_description.strip(), "status": "submitted", "created_at": now_iso(db)}
    db.insert("warranty_claims", row)
    return {"claim_id": claim, **compact(row, "id", "issue_description")}
