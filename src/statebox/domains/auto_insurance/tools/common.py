"""Lookups the auto-insurance tools share: rows by id with hints an agent can act on, dates, endorsements."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field

from statebox.kit import lookup, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed
from statebox.world import Row, Session

# Arguments described once, for every tool that takes them (a tool's own Args: line says it otherwise).
ClaimId = Annotated[str, Field(description="the claim number")]
ClaimLineId = Annotated[str, Field(description="the claim line id, e.g. CLL-100234")]
PolicyNumber = Annotated[str, Field(description="the policy number")]
VehicleId = Annotated[str, Field(description="the vehicle id")]
PolicyholderId = Annotated[str, Field(description="the policyholder id, e.g. PH-1042")]
InstallmentId = Annotated[str, Field(description="the installment id, e.g. INS-100234")]
AdjusterId = Annotated[str, Field(description="the adjuster, e.g. ADJ-104")]
RepairShopId = Annotated[str, Field(description="the shop, e.g. RSH-104")]
EffectiveDate = Annotated[str, Field(description="YYYY-MM-DD")]
PremiumChange = Annotated[
    float, Field(description="the prorated premium change for the rest of the term (a credit is negative)")]
AddedPremium = Annotated[float, Field(description="the prorated premium for the rest of the term, in dollars")]

policyholder_row = lookup(
    "policyholders", "PH",
    "policyholder ids look like PH-1042; use find_policyholder with the email, phone or policy number.",
)


policy_row = lookup(
    "policies", "POL",
    "policy numbers look like POL-10234 (on the ID card or renewal notice); ask the customer to "
    "check it, or list the policyholder's policies with get_policyholder.",
)


vehicle_row = lookup("vehicles", "VEH", "vehicle ids look like VEH-10234; get_policy lists a policy's vehicles.")


driver_row = lookup("drivers", "DRV", "driver ids look like DRV-10234; get_policy lists a policy's drivers.")


claim_row = lookup("claims", "CLM", "claim numbers look like CLM-10234; get_policy lists a policy's claims.")


claim_line_row = lookup("claim_lines", "CLL", "claim line ids look like CLL-100234; get_claim lists a claim's lines.")


installment_row = lookup("installments", "INS", "get_policy lists a policy's installments.")


adjuster_row = lookup("adjusters", "ADJ", "list_adjusters lists them.")


repair_shop_row = lookup("repair_shops", "RSH", "find_repair_shops lists them.")


def parse_date(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        raise InvalidArguments(f"{field} must be a date like 2026-03-10, got {value!r}.") from None


def endorsable(db: Session, policy: Row, effective_date: str) -> str:
    """The effective date, checked: the policy is active and the date falls inside its term."""
    if policy["status"] != "active":
        raise PreconditionFailed(f"policy {policy['id']} is {policy['status']}; only active policies can be changed.")
    d = parse_date(effective_date, "effective_date")
    if not policy["term_start"] <= d.isoformat() < policy["term_end"]:
        raise PreconditionFailed(f"{d} is outside the term {policy['term_start']} to {policy['term_end']}.")
    return d.isoformat()


def record_endorsement(db: Session, policy: Row, kind: str, subject_id: str, effective: str, annual_change: float,
                       premium_change: float, document_id: str | None = None) -> Row:
    """Write the endorsement and carry the annual change into the policy's annual premium."""
    eid = db.next_id("endorsements")
    row = {"id": eid, "policy_id": policy["id"], "kind": kind, "subject_id": subject_id, "effective_date": effective,
           "annual_change": round(annual_change, 2), "premium_change": round(premium_change, 2),
           "document_id": document_id, "created_at": now_iso(db)}
    db.insert("endorsements", row)
    if annual_change:
        db.update("policies", policy["id"], annual_premium=round(policy["annual_premium"] + annual_change, 2),
                  updated_at=now_iso(db))
    return {"endorsement_id": eid, "kind": kind, "effective_date": effective, "annual_change": row["annual_change"],
            "premium_change": row["premium_change"],
            "new_annual_premium": round(policy["annual_premium"] + annual_change, 2)}


def default_payment_method(db: Session, policyholder_id: str) -> Row:
    pm = db.one("SELECT * FROM payment_methods WHERE policyholder_id = ? ORDER BY is_default DESC, id LIMIT 1",
                policyholder_id)
    if pm is None:
        raise PreconditionFailed(f"{policyholder_id} has no payment method on file.",
                                 hint="the customer adds one on the website.")
    return pm


