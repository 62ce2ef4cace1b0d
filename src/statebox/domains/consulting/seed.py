"""Deterministic seed: a 300-person consulting firm with a year of requests before "now"."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Any

from statebox.domains.consulting import catalog
from statebox.kit import Rows, SeedRows, insert_rows, money

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
TODAY = NOW.date()
LEVELS = ("analyst", "consultant", "senior_consultant", "manager", "senior_manager", "director", "partner")
# per practice of 50 people, top level first
SHAPE = (("partner", 2), ("director", 3), ("senior_manager", 6), ("manager", 8), ("senior_consultant", 10),
         ("consultant", 11), ("analyst", 10))
FIRST = (
    "Ava", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonah", "Keira", "Liam", "Maya",
    "Nikhil", "Olga", "Pavel", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wes", "Xena", "Yusuf", "Zoe",
    "Amir", "Bea", "Carlos", "Dina", "Emil", "Fatima", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena", "Marco",
    "Nora", "Omar", "Priya", "Rafael", "Sofia", "Theo", "Uma", "Victor", "Wen", "Yara"
)
LAST = (
    "Abara", "Becker", "Castillo", "Dubois", "Eriksen", "Fontaine", "Garvey", "Haddad", "Ishikawa", "Jansen",
    "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Rahman", "Silva", "Tanaka",
    "Ueda", "Varga", "Whitlock", "Xu", "Yilmaz", "Zeller", "Achebe", "Brennan", "Costa", "Duarte", "Ekström",
    "Ferreira", "Gallagher", "Horvat", "Ibsen", "Joshi", "Keller", "Laurent", "Mensah", "Novak"
)
CLIENTS = ("Halden Foods", "Aster Mutual", "Brightline Rail", "Norvik Energy", "Ostara Health", "Pellman Retail",
           "Quarry Bank", "Redfern Logistics", "Solace Insurance", "Tamsin Pharma", "Umbra Telecom",
           "Vantor Airlines", "Westmark Steel", "Yarrow Media", "Zephyr Motors", "Corvane Partners")
WORK = ("Operating model redesign", "Cost transformation", "Data platform roadmap", "Post-merger integration",
        "Pricing strategy", "Supply chain diagnostic", "ERP selection", "Workforce planning", "Risk framework review",
        "Customer journey redesign", "Procurement savings", "Digital strategy")

REASONS = ("client go-live", "board deadline", "steering committee")


def d(x: date) -> str:
    return x.isoformat()


class FirmSeed(SeedRows):
    """Every seed row, built in memory from one fixed random stream."""

    def __init__(self, seed: int = 20260310) -> None:
        super().__init__(seed)
        self.people: list[dict[str, Any]] = []

    def day_between(self, a: date, b: date) -> date:
        return a + timedelta(days=self.r.randint(0, (b - a).days))

    # -- catalogues ---------------------------------------------------------------
    def reference(self) -> None:
        for oid, city, country, line1, postal in catalog.OFFICES:
            self.add("offices", {"id": oid, "city": city, "country": country, "line1": line1, "postal_code": postal})
        for band, cities in catalog.CITIES.items():
            for name, country in cities:
                self.add("cities", {"id": self.next_id("CTY-", 101), "name": name, "country": country, "band": band})
        for name, vendor, category, cost, restricted in catalog.SOFTWARE:
            pro = (f"{name} Premium", round(cost * catalog.EDITION_FACTOR))
            editions = [(name, cost)] if cost == 0 else [(name, cost), pro]
            for title, price in editions:
                self.add("software", {"id": self.next_id("SW-", 101), "name": title, "vendor": vendor,
                                      "category": category, "annual_cost": float(price), "restricted": restricted})
        for name, kind, cost, standard in catalog.DEVICE_MODELS:
            self.add("device_models", {"id": self.next_id("MDL-", 101), "kind": kind, "name": name,
                                       "cost": float(cost), "standard": standard})
        for title, provider, cost in catalog.COURSE_TOPICS:
            for _ in range(2):
                capacity = self.r.choice((12, 16, 20, 24))
                self.add("courses", {"id": self.next_id("CRS-", 301), "title": title, "provider": provider,
                                     "cost": float(cost), "capacity": capacity,
                                     "starts_on": d(self.day_between(date(2026, 1, 12), date(2026, 9, 28))),
                                     "enrolled": self.r.randint(capacity // 3, capacity)})

    # -- people -------------------------------------------------------------------
    def people_and_accounts(self) -> None:
        used: set[str] = set()
        for _p, (pid, pname) in enumerate(catalog.PRACTICES):
            by_level: dict[str, list[dict[str, Any]]] = {}
            for level, count in SHAPE:
                for _ in range(count):
                    e = self.person(pid, level, used)
                    by_level.setdefault(level, []).append(e)
            lead = by_level["partner"][0]
            self.add("practices", {"id": pid, "name": pname, "lead_id": lead["id"]})
            above = {"director": "partner", "senior_manager": "director", "manager": "senior_manager",
                     "senior_consultant": "manager", "consultant": "manager", "analyst": "manager"}
            for level, boss in above.items():
                for e in by_level[level]:
                    e["manager_id"] = self.r.choice(by_level[boss])["id"]
            for e in by_level["partner"]:
                e["manager_id"] = None if e["id"] == "EMP-1001" else "EMP-1001"
        for e in self.people:  # absences and delegates, once everyone exists
            if e["status"] == "on_leave":
                e["leave_until"] = d(TODAY + timedelta(days=self.r.randint(5, 90)))
                peers = [x for x in self.people if x["practice_id"] == e["practice_id"] and x["status"] == "active"
                         and LEVELS.index(x["level"]) >= LEVELS.index(e["level"]) and x["id"] != e["id"]]
                if peers and self.r.random() < 0.6:
                    e["delegate_id"] = self.r.choice(peers)["id"]
        for e in self.people:
            status = {"pending_start": "not_created", "leaver": "disabled"}.get(e["status"], "active")
            self.add("accounts", {"employee_id": e["id"], "username": e["email"].split("@")[0], "status": status,
                                  "activate_on": e["start_date"] if status == "not_created" else None,
                                  "disable_on": e["end_date"], "mfa_status": "none" if status == "not_created"
                                  else "enrolled", "mfa_reset_at": None})

    def person(self, practice: str, level: str, used: set[str]) -> dict[str, Any]:
        eid = self.next_id("EMP-", 1001)
        first, last = self.r.choice(FIRST), self.r.choice(LAST)
        local = f"{first}.{last}".lower().replace("ö", "o")
        while local in used:
            local = f"{first}.{last}{self.r.randint(2, 99)}".lower().replace("ö", "o")
        used.add(local)
        roll = self.r.random()
        status = ("on_leave" if roll < 0.05 else "pending_start" if roll < 0.07
                  else "leaver" if roll < 0.09 else "active")
        if level == "partner":  # practice leads and the managing partner are always at work
            status = "active"
        start = self.day_between(date(2012, 1, 9), date(2025, 12, 1))
        end = None
        if status == "pending_start":
            start = self.day_between(TODAY + timedelta(days=6), TODAY + timedelta(days=50))
        elif status == "leaver":
            end = d(self.day_between(date(2025, 9, 1), TODAY - timedelta(days=5)))
        elif self.r.random() < 0.03:  # serving notice
            end = d(self.day_between(TODAY + timedelta(days=5), TODAY + timedelta(days=45)))
        e = self.add("employees", {
            "id": eid, "first_name": first, "last_name": last, "email": f"{local}@corvane.com",
            "phone": f"+1-555-{self.r.randint(200, 989):03d}-{int(eid[4:]):04d}", "level": level,
            "practice_id": practice, "office_id": self.r.choice(catalog.OFFICES)[0], "manager_id": None,
            "status": status, "work_mode": self.r.choices(("office", "hybrid", "remote"), (30, 55, 15))[0],
            "leave_until": None, "delegate_id": None, "start_date": d(start), "end_date": end})
        self.people.append(e)
        return e

    # -- engagements --------------------------------------------------------------
    def engagements(self) -> None:
        partners = [e for e in self.people if e["level"] == "partner"]
        managers = [e for e in self.people if e["level"] in ("manager", "senior_manager")]
        for i in range(60):
            eid = f"ENG-{2001 + i}"
            status = "active" if i < 40 else "closed" if i < 54 else "pipeline"
            if status == "active":
                start = self.day_between(date(2025, 3, 1), date(2026, 2, 1))
                end = self.day_between(date(2026, 4, 15), date(2026, 12, 18))
            elif status == "closed":
                start = self.day_between(date(2024, 9, 1), date(2025, 6, 1))
                end = self.day_between(date(2025, 7, 1), date(2026, 2, 27))
            else:
                start = self.day_between(date(2026, 4, 1), date(2026, 6, 1))
                end = start + timedelta(days=self.r.randint(60, 200))
            client = CLIENTS[i % len(CLIENTS)]
            self.add("engagements", {"id": eid, "name": f"{client}: {self.r.choice(WORK)}", "client": client,
                                     "status": status, "billable": 0 if client == "Corvane Partners" else 1,
                                     "partner_id": self.r.choice(partners)["id"],
                                     "manager_id": self.r.choice(managers)["id"], "starts_on": d(start),
                                     "ends_on": d(end)})
            if status == "active" and i % 2 == 0:
                b = self.day_between(date(2026, 3, 16), date(2026, 6, 15))
                self.add("blackouts", {"id": self.next_id("BLK-", 101), "engagement_id": eid, "starts_on": d(b),
                                       "ends_on": d(b + timedelta(days=self.r.randint(4, 13))),
                                       "reason": self.r.choice(REASONS)})
        engagements = self.rows["engagements"]
        for e in self.people:
            if e["level"] == "partner" or e["status"] in ("pending_start", "leaver"):
                continue
            for g in self.r.sample(engagements, self.r.randint(1, 2)):
                if g["status"] == "pipeline":
                    continue
                self.add("assignments", {"id": self.next_id("ASG-", 10001), "employee_id": e["id"],
                                         "engagement_id": g["id"], "role": self.r.choice(("team", "lead", "advisor")),
                                         "starts_on": g["starts_on"], "ends_on": g["ends_on"]})

    # -- kit, licences ------------------------------------------------------------
    def devices_and_grants(self) -> None:
        models = {k: [m for m in self.rows["device_models"] if m["kind"] == k]
                  for k in ("laptop", "phone", "monitor", "dock", "headset")}
        paid = [s for s in self.rows["software"] if s["annual_cost"] > 0 and not s["restricted"]]
        for e in self.people:
            if e["status"] == "pending_start":
                continue
            kinds = ["laptop"] + (["phone"] if LEVELS.index(e["level"]) >= 3 else [])
            kinds += [k for k, p in (("monitor", 0.5), ("dock", 0.4), ("headset", 0.3)) if self.r.random() < p]
            for kind in kinds:
                m = self.r.choice(models[kind]) if self.r.random() < 0.3 else models[kind][0]
                self.add("devices", {
                    "id": self.next_id("AST-", 10001), "employee_id": e["id"], "model_id": m["id"],
                    "serial": f"CV{self.r.randint(10**7, 10**8 - 1)}",
                    "purchased_on": d(self.day_between(date(2021, 6, 1), date(2025, 12, 15))),
                    "condition": self.r.choices(("good", "worn", "damaged", "failed"), (70, 22, 5, 3))[0],
                    "battery_health": self.r.randint(58, 100) if kind in ("laptop", "phone") else None,
                    "status": "returned" if e["status"] == "leaver" else "in_use"})
            for s in self.r.sample(paid, self.r.randint(1, 3)):
                self.add("access_grants", {"id": self.next_id("ACC-", 10001), "employee_id": e["id"],
                                           "software_id": s["id"], "engagement_id": None, "approval_id": None,
                                           "status": "revoked" if e["status"] == "leaver" else "active",
                                           "granted_at": f"{d(self.day_between(date(2024, 1, 8), date(2026, 2, 27)))}"
                                                         "T10:00:00+00:00",
                                           "revoke_on": None, "revoked_at": None})

    # -- a year of requests -------------------------------------------------------
    def history(self) -> None:
        staff = [e for e in self.people if e["status"] in ("active", "on_leave") and e["manager_id"]]
        courses = self.rows["courses"]
        for _ in range(420):
            e = self.r.choice(staff)
            kind = self.r.choice(("software", "device", "training", "leave", "expense"))
            created = self.day_between(date(2025, 4, 1), TODAY - timedelta(days=1))
            status = "pending" if (TODAY - created).days < 4 else self.r.choices(("approved", "rejected"), (85, 15))[0]
            self.add("approval_requests", {"id": self.next_id("APR-", 10001), "requester_id": e["id"],
                                           "approver_id": e["manager_id"], "kind": kind, "item_id": None,
                                           "amount": money(self.r.uniform(80, 2400)), "status": status,
                                           "evidence_document_id": None, "note": None,
                                           "created_at": f"{d(created)}T14:00:00+00:00"})
        for e in staff:
            top = 5 if LEVELS.index(e["level"]) >= 5 else 0
            self.add("leave_balances", {"employee_id": e["id"], "leave_type": "annual",
                                        "days_remaining": float(self.r.randint(2, 22) + top)})
            self.add("leave_balances", {"employee_id": e["id"], "leave_type": "sick", "days_remaining": 10.0})
            self.add("leave_balances", {"employee_id": e["id"], "leave_type": "study",
                                        "days_remaining": float(self.r.randint(0, 5))})
        for _ in range(260):
            e = self.r.choice(staff)
            start = self.day_between(date(2025, 10, 1), date(2026, 6, 30))
            while start.weekday() >= 5:
                start += timedelta(days=1)
            self.add("leave_requests", {"id": self.next_id("LVE-", 10001), "employee_id": e["id"],
                                        "leave_type": self.r.choices(("annual", "sick"), (85, 15))[0],
                                        "starts_on": d(start), "ends_on": d(start), "days": 1.0,
                                        "status": "approved", "approval_id": None, "document_id": None,
                                        "created_at": f"{d(min(start, TODAY) - timedelta(days=3))}T10:00:00+00:00"})
        for _ in range(220):
            e, c = self.r.choice(staff), self.r.choice(courses)
            self.add("enrolments", {"id": self.next_id("ENR-", 10001), "employee_id": e["id"], "course_id": c["id"],
                                    "status": "completed" if c["starts_on"] < d(TODAY) else "enrolled",
                                    "cost": c["cost"], "approval_id": None,
                                    "created_at": "2026-01-05T10:00:00+00:00"})
        self.expenses(staff)

    def expenses(self, staff: list[dict[str, Any]]) -> None:
        cities = self.rows["cities"]
        for _ in range(420):
            e = self.r.choice(staff)
            spent = self.day_between(date(2025, 11, 3), TODAY - timedelta(days=2))
            category = self.r.choices(("meals", "lodging", "transport", "mileage"), (45, 25, 25, 5))[0]
            amount = money(self.r.uniform(12, 60) if category == "meals" else self.r.uniform(90, 300)
                           if category == "lodging" else self.r.uniform(15, 420))
            status = self.r.choices(("reimbursed", "approved", "rejected"), (80, 12, 8))[0]
            xid = self.next_id("EXP-", 10001)
            self.add("expense_claims", {"id": xid, "employee_id": e["id"], "category": category,
                                        "expense_date": d(spent), "city": self.r.choice(cities)["name"],
                                        "amount": amount, "reimbursable_amount": amount, "engagement_id": None,
                                        "receipt_document_id": None, "approval_id": None, "status": status,
                                        "description": None, "created_at": f"{d(spent)}T20:00:00+00:00"})
            if status == "reimbursed":
                self.add("reimbursements", {"id": self.next_id("RMB-", 10001), "expense_id": xid,
                                            "employee_id": e["id"], "amount": amount,
                                            "created_at": f"{d(spent + timedelta(days=3))}T12:00:00+00:00"})

    def build(self) -> Rows:
        return self.run(self.reference, self.people_and_accounts, self.engagements, self.devices_and_grants,
                        self.history)


def seed(conn: sqlite3.Connection) -> None:
    """Insert every seed row (the schema already exists)."""
    insert_rows(conn, FirmSeed().build())
