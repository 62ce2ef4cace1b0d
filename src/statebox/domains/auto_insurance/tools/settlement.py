"""Settling claims: shops, adjusters, line decisions, payments, rental cars and subrogation."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field

from statebox.domains.auto_insurance.tools.common import (
    AdjusterId,
    ClaimId,
    ClaimLineId,
    RepairShopId,
    adjuster_row,
    claim_line_row,
    claim_row,
    parse_date,
    repair_shop_row,
)
from statebox.kit import fetch, money, normalize_id, now_iso, today
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

DenialReason = Literal["covered", "not_in_force", "vehicle_not_listed", "excluded_driver", "business_use",
                       "no_coverage", "below_deductible"]
Decision = Annotated[Literal["approved", "denied"], Field(description="approved or denied")]
Payee = Annotated[Literal["repair_shop", "insured"], Field(description="repair_shop or insured")]


@tool(writes=False)
def find_repair_shops(db: Session, city: str, network_only: bool = False) -> list[Row]:
    """Repair shops in a city: network (direct-repair) or not, and whether they do glass only.

    Args:
        city: the city, e.g. Portland
        network_only: only network shops
    """
    rows = db.all("SELECT id AS repair_shop_id, name, city, state, phone, network, glass_only FROM repair_shops "
                  "WHERE lower(city) = lower(?) ORDER BY id", city.strip())
    return [r for r in rows if r["network"] or not network_only]


@tool(writes=False)
def list_adjusters(
    db: Session, specialty: Literal["physical_damage", "total_loss", "injury"] | None = None,
) -> list[Row]:
    """Claims adjusters with their specialty, the states they are licensed in, open caseload and whether active.

    Args:
        specialty: only adjusters of this specialty
    """
    rows = db.all("SELECT id AS adjuster_id, name, specialty, states, open_claims, active FROM adjusters ORDER BY id")
    return [{**r, "states": json.loads(r["states"]), "active": bool(r["active"])} for r in rows
            if specialty is None or r["specialty"] == specialty]


@tool(writes=True)
def assign_adjuster(db: Session, claim_id: ClaimId, adjuster_id: AdjusterId) -> Row:
    """Assign a claim to an adjuster."""
    c = claim_row(db, claim_id)
    a = adjuster_row(db, adjuster_id)
    if not a["active"]:
        raise PreconditionFailed(f"adjuster {a['id']} is not active.")
    db.update("claims", c["id"], adjuster_id=a["id"], updated_at=now_iso(db))
    return {"claim_id": c["id"], "adjuster_id": a["id"], "adjuster": a["name"], "specialty": a["specialty"]}


@tool(writes=True)
def assign_repair_shop(db: Session, claim_id: ClaimId, repair_shop_id: RepairShopId) -> Row:
    """Send a claim's vehicle to a repair shop (the shop then sends us its estimate)."""
    c = claim_row(db, claim_id)
    s = repair_shop_row(db, repair_shop_id)
    db.update("claims", c["id"], repair_shop_id=s["id"], updated_at=now_iso(db))
    return {"claim_id": c["id"], "repair_shop_id": s["id"], "name": s["name"], "network": bool(s["network"])}


@tool(writes=True)
def decide_claim_line(
    db: Session, claim_line_id: ClaimLineId, decision: Decision, reason: DenialReason,
    approved_amount: float | None = None,
) -> Row:
    """Approve a claim line for an amount, or deny it with the reason.

    Args:
        reason: covered (for an approval) or why the line is denied
        approved_amount: the amount payable on an approved line (estimate minus deductible)
    """
    line = claim_line_row(db, claim_line_id)
    if line["status"] != "open":
        raise PreconditionFailed(f"claim line {line['id']} is already {line['status']}.")
    if decision == "approved":
        if approved_amount is None or approved_amount <= 0 or reason != "covered":
            raise InvalidArguments("an approval needs reason covered and an approved_amount above 0.")
        amount: float | None = money(approved_amount)
    else:
        if reason == "covered" or approved_amount:
            raise InvalidArguments("a denial needs a denial reason and no approved_amount.")
        amount = None
    db.update("claim_lines", line["id"], status=decision, approved_amount=amount, decision_reason=reason)
    return {"claim_line_id": line["id"], "status": decision, "approved_amount": amount, "reason": reason}


@tool(writes=True)
def issue_claim_payment(
    db: Session, claim_line_id: str, payee: Payee, amount: float, repair_shop_id: str | None = None,
) -> Row:
    """Pay an approved claim line to a repair shop or to the policyholder. A fully paid line becomes paid.

    Args:
        claim_line_id: the approved claim line
        amount: dollars to pay, at most the line's approved amount not yet paid
        repair_shop_id: the shop to pay (required when payee is repair_shop)
    """
    line = claim_line_row(db, claim_line_id)
    c = claim_row(db, line["claim_id"])
    if line["status"] != "approved":
        raise PreconditionFailed(f"claim line {line['id']} is {line['status']}; only approved lines are paid.")
    paid = db.one("SELECT coalesce(sum(amount), 0) AS s FROM claim_payments WHERE claim_line_id = ?", line["id"])
    left = money(line["approved_amount"] - (paid["s"] if paid else 0))
    amount = money(amount)
    if amount <= 0 or amount > left:
        raise InvalidArguments(f"amount must be above 0 and at most {left} (approved, not yet paid).")
    if payee == "repair_shop":
        if not repair_shop_id:
            raise InvalidArguments("name the repair_shop_id to pay.")
        payee_id = fetch(db, "repair_shops", normalize_id(repair_shop_id, "RSH"), "repair shop", "")["id"]
    else:
        owner = db.one("SELECT policyholder_id FROM policies WHERE id = ?", c["policy_id"])
        payee_id = owner["policyholder_id"] if owner else ""
    pid = db.next_id("claim_payments")
    db.insert("claim_payments", {"id": pid, "claim_id": c["id"], "claim_line_id": line["id"], "payee": payee,
                                 "payee_id": payee_id, "amount": amount, "created_at": now_iso(db)})
    if amount == left:
        db.update("claim_lines", line["id"], status="paid")
    return {"payment_id": pid, "claim_line_id": line["id"], "payee": payee, "payee_id": payee_id, "amount": amount}


@tool(writes=True)
def authorize_rental(db: Session, claim_id: ClaimId, daily_rate: float, days: int, start_date: str) -> Row:
    """Authorise a rental car on a claim under the vehicle's rental coverage.

    Args:
        daily_rate: dollars per day, at most the coverage's daily cap
        days: number of days, at most the coverage's maximum
        start_date: YYYY-MM-DD, the day the car goes into the shop
    """
    c = claim_row(db, claim_id)
    cov = db.one("SELECT * FROM coverages WHERE vehicle_id = ? AND coverage = 'rental' AND status = 'active'",
                 c["vehicle_id"])
    if cov is None:
        raise PreconditionFailed(f"vehicle {c['vehicle_id']} carries no rental coverage.")
    if daily_rate <= 0 or daily_rate > cov["daily_cap"] or days < 1 or days > cov["max_days"]:
        raise InvalidArguments(f"the rental coverage allows up to ${cov['daily_cap']:.0f} a day for up to "
                               f"{cov['max_days']} days.")
    start = parse_date(start_date, "start_date").isoformat()
    if start < today(db):
        raise InvalidArguments("a rental cannot start in the past.")
    rid = db.next_id("rental_authorizations")
    db.insert("rental_authorizations", {"id": rid, "claim_id": c["id"], "daily_rate": money(daily_rate), "days": days,
                                        "start_date": start, "status": "authorized", "created_at": now_iso(db)})
    return {"rental_id": rid, "claim_id": c["id"], "daily_rate": money(daily_rate), "days": days, "start_date": start}


@tool(writes=True)
def open_subrogation(db: Session, claim_id: ClaimId, other_party_insurer: str, amount: float) -> Row:
    """Pursue the at-fault party's insurer for what we paid plus the insured's deductible.

    Args:
        other_party_insurer: the other driver's insurance company
        amount: dollars to recover
    """
    c = claim_row(db, claim_id)
    if amount <= 0:
        raise InvalidArguments("amount must be above 0.")
    if db.one("SELECT id FROM subrogations WHERE claim_id = ? AND status = 'open'", c["id"]):
        raise PreconditionFailed(f"claim {c['id']} already has an open subrogation.")
    sid = db.next_id("subrogations")
    db.insert("subrogations", {"id": sid, "claim_id": c["id"], "other_party_insurer": other_party_insurer.strip(),
                               "amount": money(amount), "status": "open", "created_at": now_iso(db)})
    return {"subrogation_id": sid, "claim_id": c["id"], "amount": money(amount)}
