"""Deterministic seed data: an app-only bank with about four months of account history before "now"."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

from statebox.kit import Rows, SeedRows, insert_rows

NOW = datetime(2025, 11, 12, 14, 0, tzinfo=UTC)
N_CUSTOMERS = 320
HISTORY_DAYS = 120

PLANS = ("standard", "plus", "premium")
PLAN_WEIGHTS = (55, 30, 15)
KYC = ("basic", "verified", "enhanced")
KYC_WEIGHTS = (18, 67, 15)
SPEND_LIMITS = {"standard": 2000.0, "plus": 5000.0, "premium": 10000.0}
ATM_LIMITS = {"standard": 300.0, "plus": 600.0, "premium": 1000.0}
PLAN_FEES = {"standard": 0.0, "plus": 6.0, "premium": 15.0}
FX_RATES = {"GBP": 0.8712, "USD": 1.0835, "CHF": 0.9410, "PLN": 4.3215, "SEK": 11.2480, "CZK": 25.105}

FIRST = ["Anouk", "Sem", "Lotte", "Daan", "Fleur", "Luuk", "Sanne", "Milan", "Eva", "Jesse", "Noor", "Bram",
         "Iris", "Thijs", "Mila", "Ruben", "Lena", "Jonas", "Hanna", "Felix", "Clara", "Mateo", "Lucia", "Pablo",
         "Aoife", "Cian", "Siobhan", "Declan", "Amélie", "Hugo", "Camille", "Louis", "Giulia", "Marco", "Chiara",
         "Tomasz", "Zofia", "Mehmet", "Elif", "Yusuf", "Priya", "Arjun", "Mei", "Kenji", "Ingrid", "Lars",
         "Astrid", "Nils", "Sofia", "Emil"]
LAST = ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "Mulder", "Bos", "Vos", "Peters", "Hendriks",
        "Dekker", "Brouwer", "Schmidt", "Becker", "Wagner", "Hoffmann", "Keller", "Murphy", "Byrne", "Walsh",
        "Dubois", "Moreau", "Laurent", "Rossi", "Ferrari", "Romano", "García", "López", "Martín", "Kowalski",
        "Nowak", "Yılmaz", "Demir", "Sharma", "Patel", "Chen", "Tanaka", "Lindgren", "Nilsson"]
CITIES = [("NL", "Amsterdam", "10{:02d} {}{}"), ("NL", "Utrecht", "35{:02d} {}{}"),
          ("NL", "Rotterdam", "30{:02d} {}{}"), ("DE", "Berlin", "10{:03d}"), ("DE", "Köln", "50{:03d}"),
          ("BE", "Gent", "90{:02d}"), ("IE", "Dublin", "D{:02d} {}{}"), ("FR", "Lyon", "690{:02d}")]
# (merchant, lowest amount, highest amount)
MERCHANTS: list[tuple[str, float, float]] = [
    ("Albert Heijn", 8, 95), ("Lidl", 6, 80), ("Spotify", 10.99, 10.99), ("Netflix", 13.99, 13.99),
    ("NS Reizen", 4, 60), ("Shell", 30, 90), ("Bol.com", 12, 240), ("Zalando", 25, 180),
    ("Uber", 7, 40), ("Thuisbezorgd", 14, 55), ("IKEA", 20, 400), ("MediaMarkt", 30, 900),
    ("Booking.com", 80, 650), ("Ryanair", 35, 300), ("HEMA", 5, 45), ("Etos", 4, 35),
    ("Coolblue", 40, 700), ("Decathlon", 15, 150), ("Apple.com", 0.99, 99), ("Starbucks", 3.5, 12)]
DEBITS: list[tuple[str, float, float]] = [
    ("Vattenfall Energie", 60, 180), ("Ziggo", 45, 70), ("Zilveren Kruis", 120, 160), ("Vodafone", 15, 45),
    ("Gemeente belasting", 30, 90), ("Basic-Fit", 25, 35)]
PAYEES = [("Landlord", "NL"), ("Sister", "NL"), ("Flatmate", "DE"), ("Tax office", "NL"), ("Savings elsewhere", "BE"),
          ("Parents", "IE"), ("Friend", "FR"), ("Football club", "NL")]
FOREIGN = [("GB", "GBP"), ("US", "USD"), ("CH", "CHF"), ("PL", "PLN"), ("SE", "SEK")]


def iso(t: datetime) -> str:
    return t.isoformat()


class BankSeed(SeedRows):
    """Builds every seed row in memory, table by table, from one fixed random stream."""

    def __init__(self, seed: int = 20251112) -> None:
        super().__init__(seed)

    def money(self, lo: float, hi: float) -> float:
        return round(self.r.uniform(lo, hi), 2)

    def moment(self, days_ago_max: int, days_ago_min: int = 1) -> datetime:
        t = NOW - timedelta(days=self.r.randint(days_ago_min, days_ago_max))
        return t.replace(hour=self.r.randint(7, 22), minute=self.r.randint(0, 59), second=0)

    # -- people ------------------------------------------------------------------
    def postcode(self, pattern: str) -> str:
        letters = "ABCDEFGHJKLMNPRSTVWXZ"
        if "{}" in pattern:
            return pattern.format(self.r.randint(1, 99) % 100, self.r.choice(letters), self.r.choice(letters))
        return pattern.format(self.r.randint(1, 999) % (1000 if "{:03d}" in pattern else 100))

    def build_customers(self) -> list[dict[str, Any]]:
        out = []
        for i in range(N_CUSTOMERS):
            cid = f"CUS-{1001 + i}"
            first, last = self.r.choice(FIRST), self.r.choice(LAST)
            country, city, pattern = self.r.choice(CITIES)
            local = f"{first}.{last}".lower().replace(" ", "").replace("é", "e").replace("ı", "i").replace("í", "i")
            created = NOW - timedelta(days=self.r.randint(200, 2400))
            out.append(self.add("customers", {
                "id": cid, "first_name": first, "last_name": last,
                "email": f"{local}{1001 + i}@{self.r.choice(['mail.nl', 'gmail.com', 'proton.me', 'web.de'])}",
                "phone": f"+31 6 {self.r.randint(1000, 9999)} {1000 + i}",
                "date_of_birth": f"{self.r.randint(1950, 2004)}-{self.r.randint(1, 12):02d}-"
                                 f"{self.r.randint(1, 28):02d}",
                "postcode": self.postcode(pattern), "city": city, "country": country,
                "kyc_level": self.r.choices(KYC, KYC_WEIGHTS)[0], "plan": self.r.choices(PLANS, PLAN_WEIGHTS)[0],
                "billing_day": self.r.randint(1, 28), "pending_plan": None, "status": "active",
                "created_at": iso(created.replace(hour=9, minute=0, second=0)), "updated_at": None}))
        return out

    # -- accounts and cards ------------------------------------------------------
    def account(self, kind: str, name: str, holder: str, joint: str | None = None,
                parent: str | None = None) -> dict[str, Any]:
        aid = self.next_id("ACC-", 10001)
        iban = f"NL{self.r.randint(10, 99)}NIMB{self.r.randint(10**9, 10**10 - 1)}" if kind == "current" else None
        return self.add("accounts", {
            "id": aid, "kind": kind, "name": name, "holder_id": holder, "joint_holder_id": joint,
            "parent_account_id": parent, "iban": iban, "balance": 0.0,
            "overdraft_limit": self.r.choice([0.0, 0.0, 250.0, 500.0]) if kind == "current" else 0.0,
            "status": "active", "opened_at": iso(NOW - timedelta(days=self.r.randint(130, 1500))),
            "closed_at": None, "updated_at": None})

    def card(self, account: str, holder: str, plan: str, kind: str) -> dict[str, Any]:
        status = self.r.choices(["active", "frozen", "blocked"], [90, 7, 3])[0]
        return self.add("cards", {
            "id": self.next_id("CRD-", 20001), "account_id": account, "holder_id": holder, "kind": kind,
            "last4": f"{self.r.randint(0, 9999):04d}", "status": status,
            "expires": f"{self.r.randint(2026, 2030)}-{self.r.randint(1, 12):02d}",
            "online_payments": 1, "payments_abroad": int(self.r.random() < 0.8),
            "daily_spend_limit": SPEND_LIMITS[plan], "daily_atm_limit": ATM_LIMITS[plan], "pin_locked": 0,
            "pin_reset_at": None, "block_reason": "lost" if status == "blocked" else None, "replaced_by": None,
            "replacement_of": None, "replacement_fee": None,
            "issued_at": iso(NOW - timedelta(days=self.r.randint(30, 900))), "updated_at": None})

    # -- money -------------------------------------------------------------------
    def txn(self, account: dict[str, Any], kind: str, amount: float, description: str, when: datetime,
            **extra: Any) -> dict[str, Any]:
        row = {"id": self.next_id("TXN-", 100001), "account_id": account["id"], "kind": kind, "amount": amount,
               "description": description, "merchant": None, "card_id": None, "payee_id": None,
               "mandate_id": None, "standing_order_id": None, "related_id": None, "fee_type": None,
               "foreign_amount": None, "foreign_currency": None, "fx_rate": None, "status": "posted",
               "recall_status": None, "occurred_at": iso(when), "updated_at": None, **extra}
        if row["status"] in ("posted", "pending", "held"):
            account["balance"] = round(account["balance"] + amount, 2)
        return self.add("transactions", row)

    def history(self, c: dict[str, Any], acc: dict[str, Any], cards: list[dict[str, Any]],
                payees: list[dict[str, Any]]) -> None:
        salary = self.money(1800, 5200)
        for m in range(4):
            self.txn(acc, "transfer_in", salary, f"Salary {c['last_name']} employer",
                     (NOW - timedelta(days=25 + 30 * m)).replace(hour=6, minute=0, second=0))
        for _ in range(self.r.randint(1, 3)):
            name, lo, hi = self.r.choice(DEBITS)
            mandate = self.add("mandates", {
                "id": self.next_id("DDM-", 3001), "account_id": acc["id"], "creditor": name,
                "creditor_reference": f"{name[:3].upper()}{self.r.randint(100000, 999999)}", "status": "active",
                "created_at": iso(NOW - timedelta(days=self.r.randint(140, 900))), "cancelled_at": None})
            amount = self.money(lo, hi)
            for m in range(4):
                self.txn(acc, "direct_debit", -amount, f"Direct debit {name}",
                         (NOW - timedelta(days=3 + 30 * m + self.r.randint(0, 5))).replace(hour=5, minute=0, second=0),
                         merchant=name, mandate_id=mandate["id"])
        card = next((k for k in cards if k["kind"] == "physical"), cards[0] if cards else None)
        for _ in range(self.r.randint(8, 13)):
            name, lo, hi = self.r.choice(MERCHANTS)
            when = self.moment(HISTORY_DAYS)
            status = "pending" if NOW - when < timedelta(days=2) else "posted"
            self.txn(acc, "card_payment", -self.money(lo, hi), f"Card payment {name}", when, merchant=name,
                     card_id=card["id"] if card else None, status=status)
        if self.r.random() < 0.3 and card:
            self.txn(acc, "atm_withdrawal", -float(self.r.choice([50, 100, 150, 200])), "Cash withdrawal",
                     self.moment(HISTORY_DAYS), card_id=card["id"])
        for p in payees[: self.r.randint(0, 2)]:
            self.txn(acc, "transfer_out", -self.money(20, 900), f"Transfer to {p['name']}",
                     self.moment(HISTORY_DAYS), payee_id=p["id"])
        fee = PLAN_FEES[c["plan"]]
        if fee:
            for m in range(4):
                billed = NOW.replace(day=c["billing_day"], hour=3, minute=0, second=0) - timedelta(days=30 * m)
                if billed < NOW:
                    self.txn(acc, "fee", -fee, f"Nimbus {c['plan'].title()} monthly fee", billed, fee_type="plan")
        if self.r.random() < 0.12:
            self.txn(acc, "fee", -self.r.choice([5.0, 10.0]), "Overdraft fee", self.moment(90), fee_type="overdraft")

    def build(self) -> Rows:
        customers = self.build_customers()
        partners = self.r.sample(customers, 60)
        joints = {a["id"]: b for a, b in zip(partners[:30], partners[30:], strict=True)}
        for c in customers:
            payees = [self.add("payees", {
                "id": self.next_id("PYE-", 4001), "customer_id": c["id"], "name": f"{name} {self.r.choice(LAST)}",
                "iban": f"{country}{self.r.randint(10, 99)}{self.r.randint(10**11, 10**12 - 1)}",
                "bank_country": country, "currency": "EUR", "added_at": iso(self.moment(700, 30)),
                "status": "active"}) for name, country in self.r.sample(PAYEES, self.r.randint(2, 4))]
            if self.r.random() < 0.2:
                country, currency = self.r.choice(FOREIGN)
                payees.append(self.add("payees", {
                    "id": self.next_id("PYE-", 4001), "customer_id": c["id"], "name": f"Abroad {self.r.choice(LAST)}",
                    "iban": f"{country}{self.r.randint(10, 99)}{self.r.randint(10**13, 10**14 - 1)}",
                    "bank_country": country, "currency": currency, "added_at": iso(self.moment(700, 30)),
                    "status": "active"}))
            main = self.account("current", "Main", c["id"])
            cards = [self.card(main["id"], c["id"], c["plan"], "physical")]
            if self.r.random() < 0.3:
                cards.append(self.card(main["id"], c["id"], c["plan"], "virtual"))
            self.txn(main, "transfer_in", self.money(300, 3000), "Opening deposit",
                     NOW - timedelta(days=HISTORY_DAYS + 5))
            self.history(c, main, cards, payees)
            if self.r.random() < 0.35:
                so = self.add("standing_orders", {
                    "id": self.next_id("STO-", 6001), "account_id": main["id"], "payee_id": payees[0]["id"],
                    "amount": self.money(50, 1200), "day_of_month": self.r.randint(1, 28), "next_date": None,
                    "reference": "Monthly", "status": "active", "created_at": iso(self.moment(400, 60)),
                    "cancelled_at": None})
                day = so["day_of_month"]
                nxt = NOW.replace(day=day) if NOW.day < day else \
                    (NOW.replace(day=1) + timedelta(days=32)).replace(day=day)
                so["next_date"] = nxt.date().isoformat()
            n_pots = self.r.choices([0, 1, 2], [45, 40, 15])[0]
            for name in self.r.choices(["Holiday", "Rainy day", "New bike", "Taxes"], k=n_pots):
                pot = self.account("pot", name, c["id"], parent=main["id"])
                self.txn(pot, "pot_transfer", self.money(50, 2500), "Moved from Main", self.moment(100))
            if c["id"] in joints:
                other = joints[c["id"]]
                joint = self.account("current", "Joint", c["id"], joint=other["id"])
                self.card(joint["id"], c["id"], c["plan"], "physical")
                self.card(joint["id"], other["id"], other["plan"], "physical")
                self.txn(joint, "transfer_in", self.money(500, 2500), "Opening deposit",
                         NOW - timedelta(days=HISTORY_DAYS + 5))
                self.history(c, joint, [], [])
        self.build_history_records(customers)
        for code, rate in FX_RATES.items():
            self.add("fx_rates", {"id": code, "per_eur": rate})
        return self.rows

    def build_history_records(self, customers: list[dict[str, Any]]) -> None:
        fees = [t for t in self.rows["transactions"] if t["kind"] == "fee" and t["fee_type"] == "overdraft"]
        owner = {a["id"]: a["holder_id"] for a in self.rows["accounts"]}
        for t in self.r.sample(fees, min(25, len(fees))):
            self.add("fee_refunds", {"id": self.next_id("FRF-", 8001), "customer_id": owner[t["account_id"]],
                                     "fee_transaction_id": t["id"], "amount": -t["amount"], "reason": "goodwill",
                                     "created_at": t["occurred_at"]})
        payments = [t for t in self.rows["transactions"] if t["kind"] == "card_payment" and t["status"] == "posted"]
        for t in self.r.sample(payments, 30):
            self.add("disputes", {
                "id": self.next_id("DSP-", 7001), "transaction_id": t["id"], "customer_id": owner[t["account_id"]],
                "reason": self.r.choice(["not_received", "duplicate", "unauthorised"]), "amount": -t["amount"],
                "details": "Raised in the app", "evidence": "[]", "provisional_credit": 0.0,
                "status": self.r.choice(["won", "lost", "chargeback_filed"]), "created_at": t["occurred_at"],
                "updated_at": None})
        for c in self.r.sample(customers, 5):
            self.add("fraud_holds", {"id": self.next_id("FRH-", 101), "customer_id": c["id"], "status": "active",
                                     "internal_reason": "Incoming funds flagged by transaction monitoring",
                                     "placed_at": iso(self.moment(20))})


def seed(conn: sqlite3.Connection) -> None:
    """Insert the seed rows, table by table, in an order that satisfies the foreign keys."""
    rows = BankSeed().build()
    order = ["customers", "accounts", "cards", "payees", "mandates", "standing_orders", "transactions",
             "disputes", "fee_refunds", "fraud_holds", "fx_rates"]
    insert_rows(conn, {table: rows[table] for table in order if rows.get(table)})
