"""Helpers the retail tools share: lookups that fail with a useful hint, ids, money, the clock."""

from __future__ import annotations

import json
from typing import Any

from statebox.tools import InvalidArguments, NotFound
from statebox.world import Row, Session


def normalize_id(value: str, prefix: str) -> str:
    """Accept what people type: 'ord-10234', ' ORD-10234 ' and '10234' all mean ORD-10234."""
    v = value.strip().upper().replace(" ", "")
    return f"{prefix}-{v}" if v.isdigit() else v


def fetch(db: Session, table: str, key: str, what: str, hint: str) -> Row:
    """The row with this id, or NotFound naming what was looked for."""
    row = db.one(f'SELECT * FROM "{table}" WHERE id = ?', key)
    if row is None:
        raise NotFound(f"no {what} with id {key!r}.", hint=hint)
    return row


def get_customer_row(db: Session, customer_id: str) -> Row:
    return fetch(db, "customers", normalize_id(customer_id, "CUS"), "customer",
                 "customer ids look like CUS-1042; use find_customer with the customer's email, phone, "
                 "or name and date of birth.")


def get_order_row(db: Session, order_id: str) -> Row:
    return fetch(db, "orders", normalize_id(order_id, "ORD"), "order",
                 "order numbers look like ORD-10234; ask the customer to check the number in their order "
                 "confirmation email, or list the customer's orders with list_customer_orders.")


def get_ticket_row(db: Session, ticket_id: str) -> Row:
    return fetch(db, "tickets", normalize_id(ticket_id, "TCK"), "ticket",
                 "ticket ids look like TCK-50001; list a customer's tickets with list_customer_tickets.")


def order_items(db: Session, order_id: str) -> list[Row]:
    return db.all(
        "SELECT i.id AS order_item_id, i.product_id, p.name, p.category, i.quantity, i.unit_price, i.final_sale "
        "FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = ? ORDER BY i.id",
        order_id,
    )


def payment_of(db: Session, order_id: str) -> Row | None:
    return db.one("SELECT * FROM payments WHERE order_id = ? ORDER BY id LIMIT 1", order_id)


def now_iso(db: Session) -> str:
    """The attempt's frozen clock, as stored in every timestamp column."""
    return db.now.isoformat()


def money(value: float) -> float:
    return round(value + 0.0, 2)


def json_list(text: str | None) -> list[Any]:
    return json.loads(text) if text else []


def compact(row: Row, *drop: str) -> Row:
    """A row without empty fields and internal columns: what the agent needs to read."""
    return {k: v for k, v in row.items() if v is not None and k not in drop}


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
