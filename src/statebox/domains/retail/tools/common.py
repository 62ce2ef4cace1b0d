"""Helpers the retail tools share: lookups that fail with a useful hint, ids, money, the clock."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from statebox.kit import compact, found, json_list, lookup, money, now_iso
from statebox.tools import InvalidArguments, NotFound
from statebox.world import Row, Session

# Arguments described once, for every tool that takes them (a tool's own Args: line says it otherwise).
OrderNumber = Annotated[str, Field(description="the order number")]
CustomerId = Annotated[str, Field(description="the customer id")]
ReturnId = Annotated[str, Field(description="the return id")]
# Ids described with an example of how one looks, for the tools that show it.
CustomerIdWithExample = Annotated[str, Field(description="the customer id, e.g. CUS-1042")]
OrderNumberWithExample = Annotated[str, Field(description="the order number, e.g. ORD-10234")]
ReturnIdWithExample = Annotated[str, Field(description="the return id, e.g. RMA-10012")]
InstallationIdWithExample = Annotated[str, Field(description="the installation id, e.g. INS-10021")]
ProductIdWithExample = Annotated[str, Field(description="the product id, e.g. PRD-125")]
OrderItemIdWithExample = Annotated[str, Field(description="the order item id, e.g. ITM-100345 (see get_order)")]
PromotionCodeWithExample = Annotated[str, Field(description="the promotion code, e.g. WELCOME10")]

__all__ = [
    "compact", "found", "get_customer_row", "get_order_row", "items_of", "json_list", "money", "now_iso", "order_items",
    "payment_of",
]


get_customer_row = lookup(
    "customers", "CUS",
    "customer ids look like CUS-1042; use find_customer with the customer's email, phone, "
    "or name and date of birth.",
)


get_order_row = lookup(
    "orders", "ORD",
    "order numbers look like ORD-10234; ask the customer to check the number in their order "
    "confirmation email, or list the customer's orders with list_customer_orders.",
)


def order_items(db: Session, order_id: str) -> list[Row]:
    return db.all(
        "SELECT i.id AS order_item_id, i.product_id, p.name, p.category, i.quantity, i.unit_price, i.final_sale "
        "FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = ? ORDER BY i.id",
        order_id,
    )


def payment_of(db: Session, order_id: str) -> Row | None:
    return db.one("SELECT * FROM payments WHERE order_id = ? ORDER BY id LIMIT 1", order_id)


def items_of(db: Session, order_id: str, item_ids: list[str]) -> list[Row]:
    """The order's items with these ids, or an error naming the ones that are not in the order."""
    if not item_ids:
        raise InvalidArguments("name at least one order item id.")
    wanted = [i.strip().upper() for i in item_ids]
    if len(set(wanted)) != len(wanted):
        raise InvalidArguments("an order item id is listed twice.")
    rows = {r["id"]: r for r in db.all("SELECT * FROM order_items WHERE order_id = ?", order_id)}
    missing = [i for i in wanted if i not in rows]
    if missing:
        raise NotFound(f"order {order_id} has no item(s) {missing}.", hint=f"its items are {sorted(rows)}.")
    return [rows[i] for i in sorted(wanted)]
