"""Claims: first notice of loss, claim lines per coverage, documents, status and total loss."""

from __future__ import annotations

from typing import Literal

from statebox.domains.auto_insurance.tools.common import (
    ClaimId,
    PolicyNumber,
    claim_row,
    parse_date,
    policy_row,
    vehicle_row,
)
from statebox.kit import compact, fetch, normalize_id, now_iso, today
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

LossType = Literal["collision", "hit_and_run", "theft", "vandalism", "weather", "animal", "glass"]
LineCoverage = Literal["liability", "collision", "comprehensive", "uninsured_motorist"]
ClaimStatus = Literal["open", "pending_documents", "under_review", "approved", "denied", "closed"]


@tool(writes=False)
def get_claim(db: Session, claim_id: str) -> Row:
    """A claim with its lines, estimates, documents, rental, payments, subrogation and adjuster.

    Args:
        claim_id: the claim number, e.g. CLM-10234
    """
    c = claim_row(db, claim_id)
    part = {
        "lines": "SELECT id AS claim_line_id, coverage, deductible, status, approved_amount, decision_reason "
                 "FROM claim_lines WHERE claim_id = ? ORDER BY id",
        "estimates": "SELECT e.id AS estimate_id, e.repair_shop_id, s.name AS shop_name, s.network, e.amount, "
                     "e.repair_days, e.glass_work, e.created_on FROM estimates e JOIN repair_shops s "
                     "ON s.id = e.repair_shop_id WHERE e.claim_id = ? ORDER BY e.id",
        "documents": "SELECT document_id, kind, attached_at FROM claim_documents WHERE claim_id = ? ORDER BY id",
        "rentals": "SELECT id AS rental_id, daily_rate, days, start_date, status FROM rental_authorizations "
                   "WHERE claim_id = ? ORDER BY id",
        "payments": "SELECT id AS payment_id, claim_line_id, payee, payee_id, amount, created_at FROM claim_payments "
                    "WHERE claim_id = ? ORDER BY id",
        "subrogations": "SELECT id AS subrogation_id, other_party_insurer, amount, status FROM subrogations "
                        "WHERE claim_id = ? ORDER BY id",
    }
    out: Row = {**compact(c, "updated_at", "id"), "claim_id": c["id"]}
    for key, sql in part.items():
        out[key] = [compact(r) for r in db.all(sql, c["id"])]
    if c["adjuster_id"]:
        out["adjuster"] = db.one("SELECT id AS adjuster_id, name, specialty FROM adjusters WHERE id = ?",
                                 c["adjuster_id"])
    return out


@tool(writes=True)
def file_claim(
    db: Session, policy_id: PolicyNumber, vehicle_id: str, loss_date: str, loss_type: LossType, description: str,
    at_fault: Literal["insured", "other_party", "no_fault", "unknown"], driver_id: str | None = None,
    driver_name: str | None = None, injuries: bool = False, police_report_number: str | None = None,
    other_party_insurer: str | None = None,
) -> Row:
    """Record a first notice of loss: a new claim (status open) on a vehicle of the policy.

    Args:
        vehicle_id: the vehicle involved
        loss_date: YYYY-MM-DD, the day of the loss
        loss_type: collision, hit_and_run, theft, vandalism, weather, animal or glass
        description: what happened, in the customer's words
        at_fault: who caused the loss as reported (no_fault for a parked vehicle)
        driver_id: the policy's driver who was driving, if listed on the policy
        driver_name: the full name of a driver who is not on the policy
        injuries: whether anyone was hurt
        police_report_number: the police report number, when there is one
        other_party_insurer: the other driver's insurance company, when known
    """
    p = policy_row(db, policy_id)
    v = vehicle_row(db, vehicle_id)
    if v["policy_id"] != p["id"]:
        raise PreconditionFailed(f"vehicle {v['id']} is on policy {v['policy_id']}, not {p['id']}.")
    loss = parse_date(loss_date, "loss_date").isoformat()
    if loss > today(db):
        raise InvalidArguments(f"loss_date {loss} is in the future.")
    if driver_id and driver_name:
        raise InvalidArguments("give driver_id for a driver on the policy, or driver_name for anyone else, not both.")
    did = None
    if driver_id:
        d = db.one("SELECT id FROM drivers WHERE id = ? AND policy_id = ?", normalize_id(driver_id, "DRV"), p["id"])
        if d is None:
            raise NotFound(f"policy {p['id']} has no driver {driver_id!r}.", hint="get_policy lists its drivers.")
        did = d["id"]
    cid = db.next_id("claims")
    db.insert("claims", {
        "id": cid, "policy_id": p["id"], "vehicle_id": v["id"], "driver_id": did,
        "driver_name": driver_name.strip() if driver_name else None, "loss_date": loss, "loss_type": loss_type,
        "description": description.strip(), "at_fault": at_fault, "injuries": int(injuries),
        "police_report_number": police_report_number.strip().upper() if police_report_number else None,
        "other_party_insurer": other_party_insurer.strip() if other_party_insurer else None, "status": "open",
        "adjuster_id": None, "repair_shop_id": None, "total_loss": 0, "reported_at": now_iso(db),
        "updated_at": now_iso(db),
    })
    return {"claim_id": cid, "status": "open", "loss_date": loss, "reported_at": now_iso(db)}


@tool(writes=True)
def add_claim_line(db: Session, claim_id: ClaimId, coverage: LineCoverage, deductible: float) -> Row:
    """Open a claim line under one coverage, with the deductible that applies to it.

    Args:
        coverage: the coverage the loss falls under
        deductible: the deductible in dollars (0 when none applies)
    """
    c = claim_row(db, claim_id)
    if deductible < 0:
        raise InvalidArguments("deductible cannot be negative.")
    if db.one("SELECT id FROM claim_lines WHERE claim_id = ? AND coverage = ?", c["id"], coverage):
        raise PreconditionFailed(f"claim {c['id']} already has a {coverage} line.", hint="see get_claim.")
    lid = db.next_id("claim_lines")
    db.insert("claim_lines", {"id": lid, "claim_id": c["id"], "coverage": coverage, "deductible": float(deductible),
                              "status": "open", "approved_amount": None, "decision_reason": None,
                              "created_at": now_iso(db)})
    return {"claim_line_id": lid, "claim_id": c["id"], "coverage": coverage, "deductible": float(deductible)}


@tool(writes=True)
def attach_claim_document(
    db: Session, claim_id: ClaimId, document_id: str, kind: Literal["damage_photos", "police_report", "other"],
) -> Row:
    """Attach a document the policyholder uploaded (see list_customer_documents) to a claim.

    Args:
        document_id: the uploaded document's id
        kind: what the document is
    """
    c = claim_row(db, claim_id)
    owner = db.one("SELECT policyholder_id FROM policies WHERE id = ?", c["policy_id"])
    doc = db.one("SELECT * FROM documents WHERE id = ? AND status = 'uploaded'", document_id.strip().upper())
    if doc is None or owner is None or doc["owner_id"] != owner["policyholder_id"]:
        raise NotFound(f"the policyholder has uploaded no document {document_id!r}.",
                       hint="ask them to upload it, then check list_customer_documents.")
    if db.one("SELECT id FROM claim_documents WHERE claim_id = ? AND document_id = ?", c["id"], doc["id"]):
        raise PreconditionFailed(f"{doc['id']} is already attached to {c['id']}.")
    aid = db.next_id("claim_documents")
    db.insert("claim_documents", {"id": aid, "claim_id": c["id"], "document_id": doc["id"], "kind": kind,
                                  "attached_at": now_iso(db)})
    return {"claim_id": c["id"], "document_id": doc["id"], "kind": kind}


@tool(writes=True)
def update_claim_status(db: Session, claim_id: ClaimId, status: ClaimStatus) -> Row:
    """Move a claim through its lifecycle: open, pending_documents, under_review, approved, denied, closed.

    Args:
        status: the new status
    """
    c = claim_row(db, claim_id)
    if c["status"] == status:
        raise PreconditionFailed(f"claim {c['id']} is already {status}.")
    db.update("claims", c["id"], status=status, updated_at=now_iso(db))
    return {"claim_id": c["id"], "status": status, "was": c["status"]}


@tool(writes=True)
def mark_total_loss(db: Session, claim_id: ClaimId) -> Row:
    """Flag a claim's vehicle as a total loss (the repair estimate reaches the threshold of section 9)."""
    c = claim_row(db, claim_id)
    if c["total_loss"]:
        raise PreconditionFailed(f"claim {c['id']} is already a total loss.")
    v = fetch(db, "vehicles", c["vehicle_id"], "vehicle", "")
    db.update("claims", c["id"], total_loss=1, updated_at=now_iso(db))
    return {"claim_id": c["id"], "total_loss": True, "actual_cash_value": v["actual_cash_value"]}
