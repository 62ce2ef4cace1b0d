"""Policyholders: finding them, reading their profile and policies, changing their address."""

from __future__ import annotations

import re

from statebox.domains.auto_insurance.tools.common import PolicyholderId, policy_row, policyholder_row
from statebox.kit import compact, normalize_id, now_iso
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

WRITTEN_STATES = ("OR", "WA")


def _digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-10:]


def _matching(db: Session, email: str | None, phone: str | None, policy_id: str | None) -> list[Row]:
    """The policyholders with this email, else this phone number, else this policy."""
    if email:
        return db.all("SELECT * FROM policyholders WHERE lower(email) = lower(?)", email.strip())
    if phone:
        return [r for r in db.all("SELECT * FROM policyholders") if _digits(r["phone"]) == _digits(phone)]
    if policy_id:
        pol = db.one("SELECT policyholder_id FROM policies WHERE id = ?", normalize_id(policy_id, "POL"))
        return db.all("SELECT * FROM policyholders WHERE id = ?", pol["policyholder_id"]) if pol else []
    raise InvalidArguments("give an email, a phone number or a policy number.")


@tool(writes=False)
def find_policyholder(
    db: Session, email: str | None = None, phone: str | None = None, policy_id: str | None = None,
) -> list[Row]:
    """Find policyholders by the email or phone on file, or by a policy number.

    Returns name, date of birth and contact details so you can check what the customer tells you.

    Args:
        email: the email address on file (case does not matter)
        phone: the phone number on file, in any format
        policy_id: a policy number, e.g. POL-10234
    """
    rows = _matching(db, email, phone, policy_id)
    if not rows:
        raise NotFound("no policyholder matches.",
                       hint="ask the customer to check the policy number on their ID card, or for the email on file.")
    return [{"policyholder_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"],
             "date_of_birth": r["date_of_birth"], "email": r["email"], "phone": r["phone"]} for r in rows]


@tool(writes=False)
def get_policyholder(db: Session, policyholder_id: PolicyholderId) -> Row:
    """A policyholder's profile: contact details, mailing address, payment methods on file and policies."""
    ph = policyholder_row(db, policyholder_id)
    methods = db.all("SELECT id AS payment_method_id, kind, brand, last4, is_default FROM payment_methods "
                     "WHERE policyholder_id = ? ORDER BY id", ph["id"])
    policies = db.all("SELECT id AS policy_id, state, status, term_start, term_end, payment_plan, annual_premium "
                      "FROM policies WHERE policyholder_id = ? ORDER BY term_start DESC", ph["id"])
    return {**compact(ph, "updated_at"), "payment_methods": [compact(m) for m in methods], "policies": policies}


@tool(writes=True)
def update_address(
    db: Session, policyholder_id: str, line1: str, city: str, state: str, postal_code: str,
    garaging_policy_id: str | None = None,
) -> Row:
    """Change the policyholder's mailing address; optionally also the garaging address of a policy's vehicles.

    Args:
        policyholder_id: the policyholder id
        line1: street and number, e.g. 1420 SE Alder St
        city: the city
        state: two-letter state code, e.g. OR
        postal_code: the ZIP code
        garaging_policy_id: when the cars move too, the policy whose active vehicles get this garaging address
    """
    ph = policyholder_row(db, policyholder_id)
    state = state.strip().upper()
    if len(state) != 2:
        raise InvalidArguments("state must be a two-letter code such as OR or WA.")
    fields = {"line1": line1.strip(), "city": city.strip(), "state": state, "postal_code": postal_code.strip()}
    db.update("policyholders", ph["id"], **fields, updated_at=now_iso(db))
    moved: list[str] = []
    if garaging_policy_id:
        pol = policy_row(db, garaging_policy_id)
        if pol["policyholder_id"] != ph["id"]:
            raise PreconditionFailed(f"policy {pol['id']} belongs to another policyholder.")
        if state != pol["state"]:
            raise PreconditionFailed(f"policy {pol['id']} is written in {pol['state']}; its vehicles cannot be "
                                     f"garaged in {state}.", hint="a move to another state needs a new policy.")
        for v in db.all("SELECT id FROM vehicles WHERE policy_id = ? AND status = 'active'", pol["id"]):
            db.update("vehicles", v["id"], garaging_line1=fields["line1"], garaging_city=fields["city"],
                      garaging_state=state, garaging_postal_code=fields["postal_code"])
            moved.append(v["id"])
    return {"policyholder_id": ph["id"], "mailing_address": fields, "vehicles_regaraged": moved}
