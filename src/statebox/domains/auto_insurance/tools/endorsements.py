"""Endorsements: drivers and vehicles added or taken off, coverages changed; each re-rated and recorded."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from statebox.domains.auto_insurance.rating import RATES, driver_surcharge
from statebox.domains.auto_insurance.tools.common import (
    AddedPremium,
    EffectiveDate,
    PolicyNumber,
    PremiumChange,
    VehicleId,
    driver_row,
    endorsable,
    policy_row,
    record_endorsement,
    vehicle_row,
)
from statebox.kit import compact
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

Coverage = Literal["liability", "collision", "comprehensive", "uninsured_motorist", "rental", "roadside"]


class CoverageChoice(TypedDict):
    """The option chosen for each coverage a new vehicle gets; a coverage left out or null is not bought."""

    liability: str
    collision: NotRequired[str | None]
    comprehensive: NotRequired[str | None]
    uninsured_motorist: NotRequired[str | None]
    rental: NotRequired[str | None]
    roadside: NotRequired[str | None]


def _rate(coverage: str, option: str) -> tuple[float, float | None, float | None, int | None]:
    if coverage not in RATES:
        raise InvalidArguments(f"unknown coverage {coverage!r}; coverages are {', '.join(RATES)}.")
    if option not in RATES[coverage]:
        raise InvalidArguments(f"{coverage} has no option {option!r}; options are {', '.join(RATES[coverage])}.")
    return RATES[coverage][option]


def _coverage_row(vehicle_id: str, cid: str, coverage: str, option: str, effective: str) -> Row:
    premium, ded, cap, days = _rate(coverage, option)
    return {"id": cid, "vehicle_id": vehicle_id, "coverage": coverage, "option": option, "deductible": ded,
            "daily_cap": cap, "max_days": days, "annual_premium": float(premium), "status": "active",
            "effective_on": effective, "removed_on": None}


@tool(writes=True)
def add_driver(
    db: Session, policy_id: PolicyNumber, first_name: str, last_name: str, date_of_birth: str, license_number: str,
    license_state: str, relationship: Literal["spouse", "child", "other_household"], effective_date: str,
    premium_change: AddedPremium,
) -> Row:
    """List a new driver on a policy. The annual premium gains the driver's age surcharge (rating table).

    Args:
        first_name: the driver's first name
        last_name: the driver's last name
        date_of_birth: YYYY-MM-DD
        license_number: the driver's licence number, as on the licence
        license_state: the two-letter state that issued the licence
        relationship: how the driver is related to the policyholder
        effective_date: YYYY-MM-DD, when the driver is covered from
    """
    p = policy_row(db, policy_id)
    effective = endorsable(db, p, effective_date)
    did = db.next_id("drivers")
    db.insert("drivers", {"id": did, "policy_id": p["id"], "first_name": first_name.strip(),
                          "last_name": last_name.strip(), "date_of_birth": date_of_birth.strip(),
                          "license_number": license_number.strip().upper(),
                          "license_state": license_state.strip().upper(), "relationship": relationship,
                          "status": "listed", "added_on": effective, "status_changed_on": None})
    annual = driver_surcharge(date_of_birth.strip(), effective)
    return {"driver_id": did, **record_endorsement(db, p, "add_driver", did, effective, annual, premium_change)}


@tool(writes=True)
def update_driver_status(
    db: Session, driver_id: str, status: Literal["excluded", "removed"], effective_date: EffectiveDate,
    premium_change: PremiumChange, exclusion_form_id: str | None = None,
) -> Row:
    """Exclude a driver (needs the signed exclusion form the customer uploaded) or remove one from the policy.

    Args:
        driver_id: the driver id, e.g. DRV-10234
        status: excluded (never covered, stays on record) or removed (no longer in the household)
        exclusion_form_id: the uploaded driver exclusion form's document id (required to exclude)
    """
    d = driver_row(db, driver_id)
    p = policy_row(db, d["policy_id"])
    effective = endorsable(db, p, effective_date)
    if d["relationship"] == "named_insured":
        raise PreconditionFailed("the named insured cannot be excluded or removed from their own policy.")
    if d["status"] != "listed":
        raise PreconditionFailed(f"driver {d['id']} is already {d['status']}.")
    doc_id = None
    if status == "excluded":
        if not exclusion_form_id:
            raise InvalidArguments("excluding a driver needs exclusion_form_id, the signed form's document id.")
        doc = db.one("SELECT * FROM documents WHERE id = ?", exclusion_form_id.strip().upper())
        if doc is None or doc["status"] != "uploaded":
            raise NotFound(f"no uploaded document {exclusion_form_id!r}.",
                           hint="ask the customer to upload the signed form, then list_customer_documents.")
        doc_id = doc["id"]
    db.update("drivers", d["id"], status=status, status_changed_on=effective)
    annual = -driver_surcharge(d["date_of_birth"], effective)
    kind = "exclude_driver" if status == "excluded" else "remove_driver"
    return {"driver_id": d["id"], "status": status,
            **record_endorsement(db, p, kind, d["id"], effective, annual, premium_change, doc_id)}


@tool(writes=True)
def add_vehicle(
    db: Session, policy_id: PolicyNumber, vin: str, year: int, make: str, model: str,
    use: Literal["pleasure", "commute", "business"], coverages: CoverageChoice, effective_date: EffectiveDate,
    premium_change: AddedPremium,
) -> Row:
    """Add a vehicle, garaged at the policyholder's mailing address, with the coverages chosen.

    Args:
        vin: the 17-character vehicle identification number
        year: model year
        make: e.g. Subaru
        model: e.g. Outback
        use: pleasure, commute or business
        coverages: the option for each coverage, e.g. {"liability": "100/300/100", "collision": "500"}; liability
            is required, a coverage left out or null is not bought
    """
    p = policy_row(db, policy_id)
    effective = endorsable(db, p, effective_date)
    vin = vin.strip().upper()
    if len(vin) != 17:
        raise InvalidArguments(f"a VIN has 17 characters; {vin!r} has {len(vin)}. Ask the customer to read it again.")
    chosen = {c: o for c, o in coverages.items() if o is not None}
    if "liability" not in chosen:
        raise InvalidArguments("every vehicle needs liability coverage.")
    if "rental" in chosen and not {"collision", "comprehensive"} & set(chosen):
        raise InvalidArguments("rental coverage needs collision or comprehensive on the same vehicle.")
    rows = [_coverage_row("", "", c, str(o), effective) for c, o in chosen.items()]
    ph = db.one("SELECT * FROM policyholders WHERE id = ?", p["policyholder_id"])
    assert ph is not None
    vid = db.next_id("vehicles")
    db.insert("vehicles", {"id": vid, "policy_id": p["id"], "vin": vin, "year": year, "make": make.strip(),
                           "model": model.strip(), "use": use, "actual_cash_value": None,
                           "garaging_line1": ph["line1"], "garaging_city": ph["city"], "garaging_state": ph["state"],
                           "garaging_postal_code": ph["postal_code"], "status": "active", "added_on": effective,
                           "removed_on": None})
    for row in rows:
        db.insert("coverages", {**row, "id": db.next_id("coverages"), "vehicle_id": vid})
    annual = sum(r["annual_premium"] for r in rows)
    return {"vehicle_id": vid, **record_endorsement(db, p, "add_vehicle", vid, effective, annual, premium_change)}


@tool(writes=True)
def remove_vehicle(
    db: Session, vehicle_id: VehicleId, effective_date: EffectiveDate, premium_change: PremiumChange,
) -> Row:
    """Take a vehicle (and its coverages) off a policy that keeps at least one other vehicle."""
    v = vehicle_row(db, vehicle_id)
    p = policy_row(db, v["policy_id"])
    effective = endorsable(db, p, effective_date)
    if v["status"] != "active":
        raise PreconditionFailed(f"vehicle {v['id']} was already removed.")
    others = db.one("SELECT count(*) AS n FROM vehicles WHERE policy_id = ? AND status = 'active' AND id != ?",
                    p["id"], v["id"])
    if not others or others["n"] == 0:
        raise PreconditionFailed(f"{v['id']} is the only vehicle on {p['id']}.", hint="that is a cancellation.")
    covs = db.all("SELECT * FROM coverages WHERE vehicle_id = ? AND status = 'active'", v["id"])
    for c in covs:
        db.update("coverages", c["id"], status="removed", removed_on=effective)
    db.update("vehicles", v["id"], status="removed", removed_on=effective)
    annual = -sum(c["annual_premium"] for c in covs)
    return {"vehicle_id": v["id"], **record_endorsement(db, p, "remove_vehicle", v["id"], effective, annual,
                                                       premium_change)}


@tool(writes=True)
def change_coverage(
    db: Session, vehicle_id: VehicleId, coverage: Coverage, option: str, effective_date: EffectiveDate,
    premium_change: PremiumChange,
) -> Row:
    """Add a coverage to a vehicle, change its option (limits, deductible, rental plan), or remove it.

    Args:
        coverage: which coverage
        option: the new option, or "none" to remove the coverage. Options - liability: 25/50/25, 50/100/50,
            100/300/100, 250/500/250; collision: 250, 500, 1000; comprehensive: 100, 250, 500, 1000;
            uninsured_motorist: 25/50, 50/100, 100/300; rental: 30x21, 50x30; roadside: standard
    """
    v = vehicle_row(db, vehicle_id)
    p = policy_row(db, v["policy_id"])
    effective = endorsable(db, p, effective_date)
    current = db.one("SELECT * FROM coverages WHERE vehicle_id = ? AND coverage = ? AND status = 'active'",
                     v["id"], coverage)
    old = current["annual_premium"] if current else 0.0
    if option.strip().lower() == "none":
        if current is None:
            raise PreconditionFailed(f"{v['id']} has no {coverage} coverage to remove.")
        if coverage == "liability":
            raise PreconditionFailed("liability coverage cannot be removed.")
        db.update("coverages", current["id"], status="removed", removed_on=effective)
        subject, new = current["id"], 0.0
    else:
        row = _coverage_row(v["id"], "", coverage, option.strip(), effective)
        if coverage == "rental":
            has = db.one("SELECT id FROM coverages WHERE vehicle_id = ? AND status = 'active' "
                         "AND coverage IN ('collision', 'comprehensive')", v["id"])
            if has is None:
                raise PreconditionFailed("rental coverage needs collision or comprehensive on the same vehicle.")
        if current is not None:
            if current["option"] == row["option"]:
                raise PreconditionFailed(f"{coverage} is already {current['option']}.")
            db.update("coverages", current["id"], **{k: row[k] for k in
                                                     ("option", "deductible", "daily_cap", "max_days",
                                                      "annual_premium", "effective_on")})
            subject = current["id"]
        else:
            subject = db.next_id("coverages")
            db.insert("coverages", {**row, "id": subject})
        new = row["annual_premium"]
    after = db.one("SELECT * FROM coverages WHERE id = ?", subject)
    return {"coverage": compact(after or {}),
            **record_endorsement(db, p, "coverage_change", subject, effective, new - old, premium_change)}

