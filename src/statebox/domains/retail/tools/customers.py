"""Customer accounts: finding them, reading them, contact details, addresses and loyalty points."""

from __future__ import annotations

import re
from typing import Literal

from statebox.domains.retail.tools.common import (
    CustomerId,
    CustomerIdWithExample,
    compact,
    get_customer_row,
    get_order_row,
    now_iso,
)
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session


def _digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-10:]


def us_phone(phone: str) -> str:
    """A US number as the shop stores it (+1-503-555-0188), however it was typed; other numbers as given."""
    digits = re.sub(r"\D", "", phone)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10:
        return phone.strip()
    return f"+1-{digits[:3]}-{digits[3:6]}-{digits[6:]}"


@tool(writes=False)
def find_customer(
    db: Session,
    email: str | None = None,
    phone: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    date_of_birth: str | None = None,
) -> list[Row]:
    """Find customer accounts by email, by phone, or by full name plus date of birth.

    Args:
        email: the email address on the account (case does not matter)
        phone: the phone number on the account, in any format
        first_name: first name (use with last_name and date_of_birth)
        last_name: last name (use with first_name and date_of_birth)
        date_of_birth: YYYY-MM-DD (use with first_name and last_name)
    """
    if email:
        rows = db.all("SELECT * FROM customers WHERE lower(email) = lower(?)", email.strip())
    elif phone:
        with_phone = db.all("SELECT * FROM customers WHERE phone IS NOT NULL")
        rows = [r for r in with_phone if _digits(r["phone"]) == _digits(phone)]
    elif first_name and last_name and date_of_birth:
        rows = db.all(
            "SELECT * FROM customers WHERE lower(first_name) = lower(?) AND lower(last_name) = lower(?) "
            "AND date_of_birth = ?", first_name.strip(), last_name.strip(), date_of_birth.strip())
    else:
        raise InvalidArguments("give an email, a phone number, or first name + last name + date of birth.")
    if not rows:
        raise NotFound("no customer account matches.",
                       hint="ask the customer for the email address or phone number they used to order.")
    return [{"customer_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"], "tier": r["tier"]}
            for r in rows]


@tool(writes=False)
def get_customer(db: Session, customer_id: CustomerIdWithExample) -> Row:
    """A customer's profile: contact details, date of birth, tier, loyalty points and addresses."""
    c = get_customer_row(db, customer_id)
    addresses = db.all("SELECT id AS address_id, line1, line2, city, region, postal_code, country, is_default "
                       "FROM addresses WHERE customer_id = ? ORDER BY id", c["id"])
    return {**compact(c, "updated_at"), "addresses": [compact(a) for a in addresses]}


@tool(writes=True)
def update_customer_contact(
    db: Session, customer_id: CustomerId, email: str | None = None, phone: str | None = None,
) -> Row:
    """Change the email address and/or phone number on a customer account.

    Args:
        email: the new email address
        phone: the new phone number, in any format
    """
    c = get_customer_row(db, customer_id)
    if not email and not phone:
        raise InvalidArguments("give a new email, a new phone number, or both.")
    changes: dict[str, str] = {}
    if email:
        email = email.strip().lower()
        if "@" not in email:
            raise InvalidArguments(f"{email!r} is not an email address.")
        other = db.one("SELECT id FROM customers WHERE lower(email) = ? AND id != ?", email, c["id"])
        if other:
            raise PreconditionFailed("that email address belongs to another account.",
                                     hint="ask the customer for a different email address.")
        changes["email"] = email
    if phone:
        changes["phone"] = us_phone(phone)
    db.update("customers", c["id"], **changes, updated_at=now_iso(db))
    return {"customer_id": c["id"], **changes}


@tool(writes=True)
def add_address(
    db: Session, customer_id: CustomerId, line1: str, city: str, region: str, postal_code: str,
    line2: str | None = None, country: str = "US",
) -> Row:
    """Add a postal address to a customer's account (it does not change any order by itself).

    Args:
        line1: street and number
        city: city
        region: state, two letters (e.g. OR)
        postal_code: ZIP code
        line2: apartment, suite or unit, if any
        country: two-letter country code
    """
    c = get_customer_row(db, customer_id)
    address_id = db.next_id("addresses")
    row = {"id": address_id, "customer_id": c["id"], "line1": line1.strip(), "line2": (line2 or "").strip() or None,
           "city": city.strip(), "region": region.strip().upper(), "postal_code": postal_code.strip(),
           "country": country.strip().upper(), "is_default": 0}
    db.insert("addresses", row)
    return {"address_id": address_id, **compact(row, "id", "is_default")}


@tool(writes=False)
def get_loyalty_history(db: Session, customer_id: CustomerId) -> Row:
    """A customer's loyalty point balance and every point transaction, newest first."""
    c = get_customer_row(db, customer_id)
    rows = db.all("SELECT id, points, reason, order_id, created_at FROM loyalty_transactions "
                  "WHERE customer_id = ? ORDER BY created_at DESC, id DESC", c["id"])
    return {"customer_id": c["id"], "balance": c["loyalty_points"], "transactions": [compact(r) for r in rows]}


@tool(writes=True)
def add_loyalty_points(
    db: Session, customer_id: CustomerId, points: int, reason: Literal["late_delivery"], order_id: str,
) -> Row:
    """Grant loyalty points to a customer (100 points = $1 of store credit) as compensation for one order.

    Args:
        points: how many points to add (a positive whole number)
        reason: why the points are granted
        order_id: the order the points compensate (required: each order is compensated at most once)
    """
    c = get_customer_row(db, customer_id)
    if points <= 0:
        raise InvalidArguments("points must be a positive whole number.")
    order = get_order_row(db, order_id)
    if order["customer_id"] != c["id"]:
        raise PreconditionFailed(f"order {order['id']} belongs to another customer.")
    oid = order["id"]
    tx = db.next_id("loyalty_transactions")
    db.insert("loyalty_transactions", {"id": tx, "customer_id": c["id"], "points": points, "reason": reason,
                                       "order_id": oid, "created_at": now_iso(db)})
    balance = c["loyalty_points"] + points
    db.update("customers", c["id"], loyalty_points=balance, updated_at=now_iso(db))
    return {"transaction_id": tx, "customer_id": c["id"], "points": points, "balance": balance}
