"""Deterministic seed: a regional auto insurer's book of business, about a year of history before "now"."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Any

from statebox.domains.auto_insurance.rating import RATES, driver_surcharge
from statebox.kit import SeedRows, insert_rows

NOW = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
TODAY = NOW.date()
N_POLICYHOLDERS = 220
N_PRIOR_POLICIES = 100
N_CLAIMS = 260

FIRST = ("Avery", "Noah", "Priya", "Mateo", "Hana", "Liam", "Sofia", "Ethan", "Amara", "Diego", "Ingrid",
         "Kenji", "Lucia", "Omar", "Freya", "Tariq", "Nadia", "Caleb", "Rosa", "Felix", "Maya", "Jonah",
         "Leila", "Marcus", "Yuki", "Elena", "Samir", "Greta", "Dmitri", "Ada", "Rafael", "Chloe")
LAST = ("Okafor", "Lindgren", "Patel", "Alvarez", "Nakamura", "Brennan", "Castillo", "Whitfield", "Adeyemi",
        "Moreau", "Halvorsen", "Tanaka", "Ferreira", "Haddad", "Sorensen", "Kowalski", "Mensah", "Dubois",
        "Reyes", "Novak", "Ibarra", "Larsen", "Quinn", "Achebe", "Rossi", "Valdez", "Eriksen", "Bauer")
STREETS = ("Alder St", "Cedar Ave", "Hawthorne Blvd", "Division St", "Maple Dr", "Fremont Ave", "Rainier Ave",
           "Madrona Way", "Juniper Ln", "Willamette St", "Olympic Dr", "Spruce Ct", "Garfield St", "Elm Rd")
# city, state, zip prefix, area code
CITIES = (("Portland", "OR", "972", "503"), ("Salem", "OR", "973", "971"), ("Eugene", "OR", "974", "541"),
          ("Bend", "OR", "977", "458"), ("Seattle", "WA", "981", "206"), ("Tacoma", "WA", "984", "253"),
          ("Spokane", "WA", "992", "509"), ("Vancouver", "WA", "986", "360"))
VEHICLES = (("Toyota", "Camry", 28000), ("Honda", "Civic", 24000), ("Subaru", "Outback", 31000),
            ("Ford", "F-150", 42000), ("Tesla", "Model 3", 41000), ("Mazda", "CX-5", 29000),
            ("Hyundai", "Elantra", 22000), ("Chevrolet", "Equinox", 27000), ("Kia", "Sorento", 33000),
            ("Volkswagen", "Jetta", 23000), ("Nissan", "Rogue", 28000), ("Jeep", "Wrangler", 38000))
SHOP_NAMES = ("Collision Works", "Auto Body", "Paint & Body", "Body Shop", "Auto Glass", "Car Care")
ADJUSTERS = (("Renata Oyelaran", "physical_damage", ["OR"]), ("Gustavo Pinheiro", "physical_damage", ["OR", "WA"]),
             ("Hollis Fairbanks", "physical_damage", ["WA"]), ("Mei-Lin Castellano", "physical_damage", ["WA"]),
             ("Tobias Wrenfield", "total_loss", ["OR", "WA"]), ("Anouk Vermeulen", "total_loss", ["OR"]),
             ("Desmond Achterberg", "total_loss", ["WA"]), ("Paloma Iturbe", "injury", ["OR", "WA"]),
             ("Kwabena Asante", "injury", ["WA"]), ("Sigrid Holmqvist", "injury", ["OR"]),
             ("Emeka Lawal", "physical_damage", ["OR"]), ("Beatrix Nolan", "total_loss", ["OR", "WA"]))
LOSS_TYPES = ("collision", "collision", "collision", "hit_and_run", "theft", "vandalism", "weather", "animal",
              "glass", "glass")


def iso(d: date) -> str:
    return d.isoformat()


class BookSeed(SeedRows):
    """Builds every seed row in memory from one fixed random stream."""

    def __init__(self, seed: int = 20260310) -> None:
        super().__init__(seed)
        self.shops: dict[str, list[str]] = {}

    # -- reference data ---------------------------------------------------------
    def build_reference(self) -> None:
        n = 101
        for city, state, _, area in CITIES:
            for k in range(3):
                glass = int(k == 2)
                name = f"{self.r.choice(LAST)} {SHOP_NAMES[4] if glass else self.r.choice(SHOP_NAMES[:4])}"
                sid = f"RSH-{n}"
                self.shops.setdefault(city, []).append(sid)
                self.add("repair_shops", {"id": sid, "name": name, "city": city, "state": state,
                                          "phone": f"+1-{area}-555-{2000 + n}", "network": int(k != 1),
                                          "glass_only": glass})
                n += 1
        for i, (name, specialty, states) in enumerate(ADJUSTERS):
            self.add("adjusters", {"id": f"ADJ-{101 + i}", "name": name, "specialty": specialty,
                                   "states": json.dumps(states), "open_claims": self.r.randint(8, 40),
                                   "active": int(i != 11)})

    # -- policyholders and policies --------------------------------------------------
    def build_book(self) -> None:
        for i in range(N_POLICYHOLDERS):
            ph = self.policyholder(i)
            self.policy(ph, current=True)
        for ph in self.r.sample(self.rows["policyholders"], N_PRIOR_POLICIES):
            self.policy(ph, current=False)

    def policyholder(self, i: int) -> dict[str, Any]:
        r = self.r
        first, last = r.choice(FIRST), r.choice(LAST)
        city, state, zip3, area = r.choice(CITIES)
        born = date(1948, 1, 1) + timedelta(days=r.randint(0, 17500))
        pid = f"PH-{1001 + i}"
        ph = self.add("policyholders", {
            "id": pid, "first_name": first, "last_name": last, "email": f"{first}.{last}{i}@example.net".lower(),
            "phone": f"+1-{area}-555-{1000 + i:04d}", "date_of_birth": iso(born),
            "line1": f"{r.randint(100, 9899)} {r.choice(STREETS)}", "city": city, "state": state,
            "postal_code": f"{zip3}{r.randint(10, 99)}",
            "created_at": f"{iso(TODAY - timedelta(days=r.randint(400, 3000)))}T10:00:00+00:00",
            "updated_at": None,
        })
        for k in range(r.choice((1, 1, 2))):
            self.add("payment_methods", {"id": self.next_id("PMT-", 10001), "policyholder_id": pid,
                                         "kind": "card" if k == 0 or r.random() < 0.5 else "bank_account",
                                         "brand": r.choice(("visa", "mastercard")) if k == 0 else None,
                                         "last4": f"{r.randint(0, 9999):04d}", "is_default": int(k == 0)})
        return ph

    def policy(self, ph: dict[str, Any], current: bool) -> None:
        r = self.r
        start = TODAY - timedelta(days=r.randint(5, 360)) if current else TODAY - timedelta(days=r.randint(380, 700))
        end = start + timedelta(days=365)
        status = "active"
        if not current:
            status = "expired" if r.random() < 0.7 else "cancelled"
        elif r.random() < 0.04:
            status = "cancelled"
        plan = r.choice(("monthly", "monthly", "paid_in_full"))
        pol_id = self.next_id("POL-", 10001)
        pol = self.add("policies", {
            "id": pol_id, "policyholder_id": ph["id"], "state": ph["state"], "term_start": iso(start),
            "term_end": iso(end), "status": status, "payment_plan": plan, "annual_premium": 0.0,
            "lapsed_on": None, "cancelled_on": None, "cancelled_by": None, "cancel_reason": None,
            "reinstated_on": None, "created_at": f"{iso(start - timedelta(days=3))}T12:00:00+00:00", "updated_at": None,
        })
        vehicles = [self.vehicle(pol, ph, start) for _ in range(r.choice((1, 1, 1, 2, 2, 3)))]
        premium = sum(self.coverages(v, start) for v in vehicles)
        premium += sum(self.drivers(pol, ph, start))
        pol["annual_premium"] = float(premium)
        if status == "cancelled":
            cancelled = start + timedelta(days=r.randint(20, 200 if current else 300))
            cancelled = min(cancelled, TODAY - timedelta(days=1))
            pol.update(cancelled_on=iso(cancelled), cancelled_by="policyholder", cancel_reason="Sold the vehicle")
        self.installments(pol, plan, start, status)

    def vehicle(self, pol: dict[str, Any], ph: dict[str, Any], start: date) -> dict[str, Any]:
        r = self.r
        make, model, new_price = r.choice(VEHICLES)
        year = r.randint(2010, 2025)
        acv = round(new_price * max(0.18, 1 - 0.075 * (2026 - year)) / 100) * 100
        vin = "".join(r.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17))
        return self.add("vehicles", {
            "id": self.next_id("VEH-", 10001), "policy_id": pol["id"], "vin": vin, "year": year, "make": make,
            "model": model, "use": r.choice(("commute", "commute", "pleasure", "business")),
            "actual_cash_value": float(acv), "garaging_line1": ph["line1"], "garaging_city": ph["city"],
            "garaging_state": ph["state"], "garaging_postal_code": ph["postal_code"], "status": "active",
            "added_on": iso(start), "removed_on": None,
        })

    def coverages(self, v: dict[str, Any], start: date) -> float:
        r = self.r
        chosen = {"liability": r.choice(tuple(RATES["liability"]))}
        if r.random() < 0.8:
            chosen["collision"] = r.choice(tuple(RATES["collision"]))
            chosen["comprehensive"] = r.choice(tuple(RATES["comprehensive"]))
            if r.random() < 0.45:
                chosen["rental"] = r.choice(tuple(RATES["rental"]))
        if r.random() < 0.6:
            chosen["uninsured_motorist"] = r.choice(tuple(RATES["uninsured_motorist"]))
        if r.random() < 0.5:
            chosen["roadside"] = "standard"
        total = 0.0
        for cov, option in chosen.items():
            premium, ded, cap, days = RATES[cov][option]
            total += premium
            self.add("coverages", {"id": self.next_id("COV-", 100001), "vehicle_id": v["id"], "coverage": cov,
                                   "option": option, "deductible": ded, "daily_cap": cap, "max_days": days,
                                   "annual_premium": float(premium), "status": "active", "effective_on": iso(start),
                                   "removed_on": None})
        return total

    def drivers(self, pol: dict[str, Any], ph: dict[str, Any], start: date) -> list[float]:
        r = self.r
        people = [(ph["first_name"], ph["last_name"], ph["date_of_birth"], "named_insured", "listed")]
        if r.random() < 0.5:
            born = date(1950, 1, 1) + timedelta(days=r.randint(0, 17000))
            people.append((r.choice(FIRST), ph["last_name"], iso(born), "spouse", "listed"))
        if r.random() < 0.25:
            born = date(2003, 1, 1) + timedelta(days=r.randint(0, 2600))
            people.append((r.choice(FIRST), ph["last_name"], iso(born), "child",
                           "excluded" if r.random() < 0.25 else "listed"))
        out = []
        for first, last, born, rel, status in people:
            self.add("drivers", {
                "id": self.next_id("DRV-", 10001), "policy_id": pol["id"], "first_name": first, "last_name": last,
                "date_of_birth": born, "license_number": f"{pol['state']}{r.randint(1000000, 9999999)}",
                "license_state": pol["state"], "relationship": rel, "status": status, "added_on": iso(start),
                "status_changed_on": None,
            })
            out.append(driver_surcharge(born, iso(start)) if status == "listed" else 0.0)
        return out

    def installments(self, pol: dict[str, Any], plan: str, start: date, status: str) -> None:
        r = self.r
        n = 1 if plan == "paid_in_full" else 12
        amount = round(pol["annual_premium"] / n, 2)
        stop = date.fromisoformat(pol["cancelled_on"]) if pol["cancelled_on"] else None
        lapse_candidate = status == "active" and n == 12 and r.random() < 0.08
        for k in range(n):
            due = start + timedelta(days=round(k * 365 / 12))
            amt = amount if k < n - 1 else round(pol["annual_premium"] - amount * (n - 1), 2)
            row = {"id": self.next_id("INS-", 100001), "policy_id": pol["id"], "number": k + 1, "due_date": iso(due),
                   "amount": amt, "late_fee": 0.0, "late_fee_waived": 0, "status": "due", "paid_on": None}
            if stop is not None and due > stop:
                row["status"] = "cancelled"
            elif due <= TODAY:
                if lapse_candidate and (TODAY - due).days > 10 and (TODAY - due).days <= 40:
                    row.update(status="overdue", late_fee=15.0)
                    pol.update(status="lapsed", lapsed_on=iso(due + timedelta(days=11)))
                    lapse_candidate = False
                    self.add("installments", row)
                    continue
                if pol["status"] == "lapsed":
                    row["status"] = "overdue"
                else:
                    late = r.random() < 0.08
                    row.update(status="paid", paid_on=iso(due + timedelta(days=r.randint(1, 8) if late else 0)),
                               late_fee=15.0 if late else 0.0)
            self.add("installments", row)

    # -- claims ----------------------------------------------------------------------
    def build_claims(self) -> None:
        active = [p for p in self.rows["policies"] if p["term_start"] < iso(TODAY - timedelta(days=20))]
        vehicles_of: dict[str, list[dict[str, Any]]] = {}
        for v in self.rows["vehicles"]:
            vehicles_of.setdefault(v["policy_id"], []).append(v)
        drivers_of: dict[str, list[dict[str, Any]]] = {}
        for d in self.rows["drivers"]:
            if d["status"] == "listed":
                drivers_of.setdefault(d["policy_id"], []).append(d)
        holders = {p["id"]: p for p in self.rows["policyholders"]}
        for _ in range(N_CLAIMS):
            pol = self.r.choice(active)
            vehicle = self.r.choice(vehicles_of[pol["id"]])
            self.claim(pol, vehicle, drivers_of[pol["id"]], holders[pol["policyholder_id"]])

    def claim(self, pol: dict[str, Any], v: dict[str, Any], drivers: list[dict[str, Any]], ph: dict[str, Any]) -> None:
        r = self.r
        start = date.fromisoformat(pol["term_start"])
        last = min(date.fromisoformat(pol["cancelled_on"] or pol["term_end"]), TODAY - timedelta(days=2))
        loss = start + timedelta(days=r.randint(1, max(1, (last - start).days)))
        reported = loss + timedelta(days=r.choice((0, 0, 1, 1, 2, 3, 5)))
        kind = r.choice(LOSS_TYPES)
        parked = kind not in ("collision",)
        age = (TODAY - reported).days
        status = "closed" if age > 45 else r.choice(("open", "pending_documents", "under_review", "approved", "closed"))
        cid = self.next_id("CLM-", 10001)
        shops = self.shops[v["garaging_city"]]
        shop = shops[2] if kind == "glass" else shops[r.choice((0, 0, 1))]
        self.add("claims", {
            "id": cid, "policy_id": pol["id"], "vehicle_id": v["id"],
            "driver_id": None if parked else r.choice(drivers)["id"], "driver_name": None, "loss_date": iso(loss),
            "loss_type": kind, "description": f"{kind.replace('_', ' ').capitalize()} reported by phone.",
            "at_fault": "no_fault" if parked else r.choice(("insured", "other_party", "unknown")),
            "injuries": 0,
            "police_report_number": f"PR-{r.randint(100000, 999999)}" if kind in ("theft", "hit_and_run") else None,
            "other_party_insurer": None, "status": status, "adjuster_id": None,
            "repair_shop_id": shop if status != "pending_documents" else None, "total_loss": 0,
            "reported_at": f"{iso(reported)}T{r.randint(8, 20):02d}:15:00+00:00", "updated_at": None,
        })
        coverage = {"collision": "collision", "hit_and_run": "collision"}.get(kind, "comprehensive")
        ded = 0.0 if kind == "glass" else float(r.choice((250, 500, 1000)))
        line = self.add("claim_lines", {"id": self.next_id("CLL-", 100001), "claim_id": cid, "coverage": coverage,
                                        "deductible": ded, "status": "open", "approved_amount": None,
                                        "decision_reason": None, "created_at": f"{iso(reported)}T21:00:00+00:00"})
        if status in ("pending_documents", "open"):
            return
        if kind == "glass":
            amount = float(r.randint(2, 9) * 50)
        else:
            amount = float(r.randint(3, 90) * 100 + r.choice((0, 25, 50, 75)))
        self.add("estimates", {"id": self.next_id("EST-", 10001), "claim_id": cid, "repair_shop_id": shop,
                               "amount": amount, "repair_days": r.randint(2, 12),
                               "glass_work": "repair" if kind == "glass" else None,
                               "created_on": iso(reported + timedelta(days=2))})
        if status in ("approved", "closed"):
            pay = round(amount - ded, 2)
            line.update(status="paid", approved_amount=pay, decision_reason="covered")
            self.add("claim_payments", {"id": self.next_id("CPY-", 10001), "claim_id": cid, "claim_line_id": line["id"],
                                        "payee": "repair_shop", "payee_id": shop, "amount": pay,
                                        "created_at": f"{iso(reported + timedelta(days=4))}T16:00:00+00:00"})
        elif status == "under_review":
            adj = r.choice([a for a in self.rows["adjusters"] if a["specialty"] == "physical_damage"])
            self.rows["claims"][-1]["adjuster_id"] = adj["id"]


def seed(conn: sqlite3.Connection) -> None:
    """Insert the whole book: reference data, policyholders, policies, vehicles, billing, claims."""
    book = BookSeed()
    insert_rows(conn, book.run(book.build_reference, book.build_book, book.build_claims))
