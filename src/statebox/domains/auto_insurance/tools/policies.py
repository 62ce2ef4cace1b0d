"""Reading a policy: its term, vehicles with coverages, drivers, billing, endorsements and claims."""

from __future__ import annotations

from statebox.domains.auto_insurance.tools.common import policy_row
from statebox.kit import compact
from statebox.tools import tool
from statebox.world import Row, Session


@tool(writes=False)
def get_policy(db: Session, policy_id: str) -> Row:
    """Everything on a policy: term and status, vehicles with their coverages, drivers, installments,
    endorsements and claims.

    Args:
        policy_id: the policy number, e.g. POL-10234
    """
    p = policy_row(db, policy_id)
    vehicles = []
    for v in db.all("SELECT * FROM vehicles WHERE policy_id = ? ORDER BY id", p["id"]):
        covs = db.all("SELECT id AS coverage_id, coverage, option, deductible, daily_cap, max_days, annual_premium, "
                      "status, effective_on, removed_on FROM coverages WHERE vehicle_id = ? ORDER BY id", v["id"])
        vehicles.append({**compact(v, "policy_id", "id"), "vehicle_id": v["id"],
                         "coverages": [compact(c) for c in covs]})
    drivers = db.all("SELECT id AS driver_id, first_name, last_name, date_of_birth, license_number, license_state, "
                     "relationship, status, added_on, status_changed_on FROM drivers WHERE policy_id = ? ORDER BY id",
                     p["id"])
    installments = db.all("SELECT id AS installment_id, number, due_date, amount, late_fee, late_fee_waived, status, "
                          "paid_on FROM installments WHERE policy_id = ? ORDER BY number", p["id"])
    endorsements = db.all("SELECT id AS endorsement_id, kind, subject_id, effective_date, annual_change, "
                          "premium_change FROM endorsements WHERE policy_id = ? ORDER BY id", p["id"])
    claims = db.all("SELECT id AS claim_id, vehicle_id, loss_date, loss_type, status, reported_at FROM claims "
                    "WHERE policy_id = ? ORDER BY loss_date", p["id"])
    return {**compact(p, "updated_at", "id"), "policy_id": p["id"], "vehicles": vehicles,
            "drivers": [compact(d) for d in drivers], "installments": [compact(i) for i in installments],
            "endorsements": endorsements, "claims": claims}
