"""Deterministic seed data: a small real shop with about a year of history before "now"."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from datetime import UTC, date, datetime, timedelta
from typing import Any

from statebox.domains.retail import catalog
from statebox.kit import Rows, SeedRows, insert_rows

NOW = datetime(2025, 10, 1, 13, 0, tzinfo=UTC)
N_CUSTOMERS = 240
N_ORDERS = 1200
TIERS = ("standard", "silver", "gold", "platinum")
TIER_WEIGHTS = (55, 25, 14, 6)


def iso(t: datetime) -> str:
    return t.isoformat()


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def day(t: datetime | date) -> str:
    return t.strftime("%Y-%m-%d")


class ShopSeed(SeedRows):
    """Builds every seed row in memory, table by table, from one fixed random stream."""

    def __init__(self, seed: int = 20251001) -> None:
        super().__init__(seed)
        self.products: list[dict[str, Any]] = []
        self.customers: list[dict[str, Any]] = []
        self.payment_by_order: dict[str, dict[str, Any]] = {}

    # -- reference data ---------------------------------------------------------
    def build_catalog(self) -> None:
        for i, (name, category, price, months, installable, brand) in enumerate(catalog.PRODUCTS):
            pid = f"PRD-{101 + i}"
            sku = f"{category[:3].upper()}-{brand[:3].upper()}-{1000 + i}"
            p = self.add("products", {"id": pid, "sku": sku, "name": name, "category": category, "price": price,
                                      "warranty_months": months, "installable": installable, "brand": brand})
            self.products.append(p)
            on_hand = 0 if i % 13 == 7 else self.r.randint(3, 80)
            self.add("inventory", {"id": f"STK-{101 + i}", "product_id": pid, "warehouse": "Reno, NV",
                                   "on_hand": on_hand, "reserved": min(on_hand, self.r.randint(0, 3))})
        for pid, code, desc, pct, amt, min_sub, cat, tier, start, end in catalog.PROMOTIONS:
            self.add("promotions", {"id": pid, "code": code, "description": desc, "percent_off": pct,
                                    "amount_off": amt, "min_subtotal": min_sub, "category": cat,
                                    "min_tier": tier, "starts_at": start, "expires_at": end})
        for offset in range(-30, 36):
            d = NOW.date() + timedelta(days=offset)
            if d.weekday() == 6:  # no installations on Sundays
                continue
            for period in ("AM", "PM"):
                booked = self.r.randint(0, 4) if offset > 0 else 4
                self.add("installation_slots", {"id": f"SLT-{day(d)}-{period}", "date": day(d),
                                                "period": period, "capacity": 4, "booked": booked})

    # -- customers ---------------------------------------------------------------
    def build_customers(self) -> None:
        used_emails: set[str] = set()
        for i in range(N_CUSTOMERS):
            first, last = self.r.choice(catalog.FIRST_NAMES), self.r.choice(catalog.LAST_NAMES)
            email = ascii_fold(f"{first}.{last}".lower())
            if email in used_emails:
                email = f"{email}{i}"
            used_emails.add(email)
            city, region, zip3, area = self.r.choice(catalog.CITIES)
            cid = f"CUS-{1001 + i}"
            dob = date(1950, 1, 1) + timedelta(days=self.r.randint(0, 19700))
            c = self.add("customers", {
                "id": cid, "first_name": first, "last_name": last,
                "email": f"{email}@{self.r.choice(catalog.EMAIL_DOMAINS)}",
                "phone": f"+1-{area}-555-{1000 + i:04d}", "date_of_birth": day(dob),
                "tier": self.r.choices(TIERS, TIER_WEIGHTS)[0], "loyalty_points": 0,
                "created_at": iso(NOW - timedelta(days=self.r.randint(420, 2400))), "updated_at": None,
            })
            c["_addresses"] = [self.add_address(cid, city, region, zip3, default=True)]
            if self.r.random() < 0.25:
                other = self.r.choice(catalog.CITIES)
                c["_addresses"].append(self.add_address(cid, other[0], other[1], other[2], default=False))
            self.customers.append(c)

    def add_address(self, cid: str, city: str, region: str, zip3: str, default: bool) -> str:
        aid = self.next_id("ADR-", 10001)
        line2 = f"Apt {self.r.randint(1, 40)}" if self.r.random() < 0.3 else None
        self.add("addresses", {"id": aid, "customer_id": cid,
                               "line1": f"{self.r.randint(10, 9899)} {self.r.choice(catalog.STREETS)}",
                               "line2": line2, "city": city, "region": region,
                               "postal_code": f"{zip3}{self.r.randint(10, 99)}", "country": "US",
                               "is_default": int(default)})
        return aid

    # -- orders ------------------------------------------------------------------
    def build_orders(self) -> None:
        for i in range(N_ORDERS):
            self.build_order(f"ORD-{10001 + i}", self.r.choice(self.customers))
        for c in self.customers:
            c.pop("_addresses")

    def build_order(self, oid: str, customer: dict[str, Any]) -> None:
        r = self.r
        age_days = r.randint(0, 4) if r.random() < 0.06 else int(r.triangular(0, 400, 20))
        placed = NOW - timedelta(days=age_days, hours=r.randint(0, 23), minutes=r.randint(0, 59))
        if placed >= NOW:
            placed = NOW - timedelta(hours=2)
        promised = placed.date() + timedelta(days=r.choice((3, 5, 5, 7)))
        lines = [(p, r.choice((1, 1, 1, 2))) for p in r.sample(self.products, r.choice((1, 1, 2, 2, 3)))]
        subtotal = round(sum(p["price"] * q for p, q in lines), 2)
        fee = 0.0 if subtotal >= 75 else 7.95
        status, delivered = self.lifecycle(placed, promised)
        order = self.add("orders", {
            "id": oid, "customer_id": customer["id"], "status": status, "placed_at": iso(placed),
            "promised_delivery": day(promised), "delivered_at": iso(delivered) if delivered else None,
            "shipping_address_id": r.choice(customer["_addresses"]), "subtotal": subtotal, "discount": 0.0,
            "shipping_fee": fee, "total": round(subtotal + fee, 2), "promo_code": None, "replacement_for": None,
            "cancelled_at": iso(placed + timedelta(hours=5)) if status == "cancelled" else None,
            "cancel_reason": "Customer changed their mind" if status == "cancelled" else None,
            "updated_at": None,
        })
        items = []
        for p, q in lines:
            final_sale = int(p["category"] == "apparel" and r.random() < 0.15)
            items.append(self.add("order_items", {"id": self.next_id("ITM-", 100001), "order_id": oid,
                                                  "product_id": p["id"], "quantity": q,
                                                  "unit_price": p["price"], "final_sale": final_sale}))
        pay = self.add_payment(order, placed)
        if status in ("shipped", "delivered", "returned"):
            self.add_shipment(order, placed, delivered)
        if status == "delivered":
            customer["loyalty_points"] += self.earn_points(customer["id"], order, delivered or placed)
            self.maybe_extras(order, items, customer, delivered or placed)
        if status == "returned":
            self.add_return(order, items, pay, delivered or placed, "refunded")

    def lifecycle(self, placed: datetime, promised: date) -> tuple[str, datetime | None]:
        age = (NOW - placed).days
        if self.r.random() < 0.05:
            return "cancelled", None
        late = self.r.choice((0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 6, 8)) if self.r.random() < 0.5 else -1
        delivered = datetime.combine(promised + timedelta(days=late), datetime.min.time(), UTC)
        delivered += timedelta(hours=self.r.randint(10, 19))
        if age < 1:
            return self.r.choice(("placed", "paid")), None
        if delivered >= NOW or age < 3:
            return ("shipped", None) if age >= 1 and self.r.random() < 0.8 else ("paid", None)
        if age > 60 and self.r.random() < 0.04:
            return "returned", delivered
        return "delivered", delivered

    def add_payment(self, order: dict[str, Any], placed: datetime) -> dict[str, Any]:
        method = self.r.choices(("card", "paypal", "gift_card"), (80, 15, 5))[0]
        card = method == "card"
        status = {"placed": "authorized", "cancelled": "refunded", "returned": "refunded"}.get(
            order["status"], "captured")
        pay = self.payment_by_order[order["id"]] = self.add("payments", {
            "id": self.next_id("PAY-", 100001), "order_id": order["id"], "method": method,
            "card_brand": self.r.choice(("visa", "mastercard", "amex")) if card else None,
            "card_last4": f"{self.r.randint(0, 9999):04d}" if card else None, "amount": order["total"],
            "refunded_amount": order["total"] if status == "refunded" else 0.0, "status": status,
            "captured_at": None if status == "authorized" else iso(placed + timedelta(minutes=3)),
        })
        if order["status"] == "cancelled":
            self.add_refund(order, pay, None, order["total"], "cancellation", placed + timedelta(hours=5))
        return pay

    def add_refund(self, order: dict[str, Any], pay: dict[str, Any], rma: str | None, amount: float,
                   reason: str, when: datetime) -> None:
        self.add("refunds", {"id": self.next_id("RFD-", 100001), "order_id": order["id"], "payment_id": pay["id"],
                             "return_id": rma, "amount": amount, "reason": reason, "method": pay["method"],
                             "card_last4": pay["card_last4"], "created_at": iso(when)})

    def add_shipment(self, order: dict[str, Any], placed: datetime, delivered: datetime | None) -> None:
        r = self.r
        carrier = r.choice(catalog.CARRIERS)
        sid = self.next_id("SHP-", 100001)
        shipped = placed + timedelta(days=1, hours=r.randint(1, 8))
        self.add("shipments", {"id": sid, "order_id": order["id"], "carrier": carrier,
                               "tracking_number": f"{carrier[:2].upper()}{r.randint(10**9, 10**10 - 1)}",
                               "status": "delivered" if delivered else "in_transit", "shipped_at": iso(shipped),
                               "delivered_at": iso(delivered) if delivered else None})
        events = [(shipped, "Reno, NV", "Picked up by carrier")]
        hub_time = shipped + timedelta(hours=r.randint(14, 30))
        if hub_time < NOW:
            events.append((hub_time, r.choice(catalog.HUBS), "Arrived at sorting facility"))
        if delivered:
            events.append((delivered - timedelta(hours=4), "Local facility", "Out for delivery"))
            events.append((delivered, "Front door", "Delivered"))
        for when, where, what in events:
            self.add("tracking_events", {"id": self.next_id("TRK-", 1000001), "shipment_id": sid,
                                         "occurred_at": iso(when), "location": where, "description": what})

    def earn_points(self, cid: str, order: dict[str, Any], when: datetime) -> int:
        points = int(order["subtotal"])
        self.add("loyalty_transactions", {"id": self.next_id("LOY-", 100001), "customer_id": cid,
                                          "points": points, "reason": "purchase", "order_id": order["id"],
                                          "created_at": iso(when)})
        return points

    def add_return(self, order: dict[str, Any], items: list[dict[str, Any]], pay: dict[str, Any] | None,
                   delivered: datetime, status: str) -> None:
        chosen = items if order["status"] == "returned" else items[:1]
        amount = round(sum(i["unit_price"] * i["quantity"] for i in chosen), 2)
        rma = self.next_id("RMA-", 10001)
        created = delivered + timedelta(days=self.r.randint(2, 12))
        self.add("returns", {"id": rma, "order_id": order["id"], "items": json.dumps(sorted(i["id"] for i in chosen)),
                             "reason": self.r.choice(("changed_mind", "defective", "not_as_described")),
                             "resolution": "refund", "status": status, "restocking_fee": 0.0,
                             "refund_amount": amount, "customer_comment": None, "created_at": iso(created),
                             "updated_at": None})
        if status == "refunded" and pay is not None:
            self.add_refund(order, pay, rma, amount, "return", created + timedelta(days=6))

    def maybe_extras(self, order: dict[str, Any], items: list[dict[str, Any]], customer: dict[str, Any],
                     delivered: datetime) -> None:
        r = self.r
        age = (NOW - delivered).days
        if r.random() < 0.04 and age < 40:
            self.add_return(order, items, None, delivered, r.choice(("requested", "approved", "received")))
        elif r.random() < 0.03 and age >= 40:
            self.add_return(order, items, self.payment_by_order[order["id"]], delivered, "refunded")
        by_id = {p["id"]: p for p in self.products}
        for it in items:
            p = by_id[it["product_id"]]
            if p["category"] in ("electronics", "appliances") and r.random() < 0.2:
                plan = r.choice(("protect", "protect_plus"))
                self.add("warranty_contracts", {
                    "id": self.next_id("WAR-", 10001), "order_item_id": it["id"], "plan": plan,
                    "covers_accidental": int(plan == "protect_plus"), "starts_on": day(delivered),
                    "ends_on": day(delivered + timedelta(days=365 * 3)), "price": round(p["price"] * 0.12, 2)})
                if age > 90 and r.random() < 0.3:
                    self.add_claim(it, self.rows["warranty_contracts"][-1]["id"], delivered)
            if p["installable"] and r.random() < 0.6:
                slot_day = delivered.date() + timedelta(days=r.randint(1, 10))
                if slot_day.weekday() == 6:
                    slot_day += timedelta(days=1)
                past = slot_day < NOW.date()
                self.add("installation_jobs", {
                    "id": self.next_id("INS-", 10001), "order_id": order["id"], "order_item_id": it["id"],
                    "slot_id": f"SLT-{day(slot_day)}-{r.choice(('AM', 'PM'))}",
                    "status": "completed" if past else "scheduled", "reschedule_count": 0,
                    "technician": r.choice(catalog.TECHNICIANS), "updated_at": None})
        if r.random() < 0.12:
            self.add_ticket(order, customer, delivered)

    def add_claim(self, item: dict[str, Any], contract_id: str, delivered: datetime) -> None:
        kind = self.r.choice(("malfunction", "malfunction", "accidental_damage"))
        self.add("warranty_claims", {
            "id": self.next_id("CLM-", 10001), "order_item_id": item["id"], "contract_id": contract_id,
            "issue_type": kind, "issue_description": "Stopped working" if kind == "malfunction" else "Dropped it",
            "status": self.r.choice(("approved", "repaired", "denied")),
            "created_at": iso(delivered + timedelta(days=self.r.randint(60, 80)))})

    def add_ticket(self, order: dict[str, Any], customer: dict[str, Any], when: datetime) -> None:
        subject, description = self.r.choice(catalog.TICKET_TOPICS)
        tid = self.next_id("TCK-", 10001)
        opened = when + timedelta(days=self.r.randint(0, 5))
        self.add("tickets", {"id": tid, "requester_id": customer["id"], "order_id": order["id"], "subject": subject,
                             "description": description, "status": "solved", "priority": "normal",
                             "hold_reason": None, "channel": self.r.choice(("chat", "email", "phone")),
                             "created_at": iso(opened), "updated_at": None})
        for public, body in ((0, "Checked the order and tracking."), (1, "Thanks for reaching out — all sorted.")):
            self.add("ticket_comments", {"id": self.next_id("CMT-", 100001), "ticket_id": tid, "public": public,
                                         "author": "agent", "body": body, "created_at": iso(opened)})


def build_rows() -> Rows:
    """All seed rows, by table. The same every time."""
    shop = ShopSeed()
    return shop.run(shop.build_catalog, shop.build_customers, shop.build_orders)


def seed(conn: sqlite3.Connection) -> None:
    """Insert the seed rows into a fresh database."""
    insert_rows(conn, build_rows())
