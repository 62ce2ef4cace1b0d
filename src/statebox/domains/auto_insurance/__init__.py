"""The auto-insurance domain: a personal auto insurer's service desk (policies, endorsements, billing, claims)."""

from __future__ import annotations

from pathlib import Path

from statebox.domains.auto_insurance.seed import NOW, seed
from statebox.domains.auto_insurance.tools import ALL_TOOLS
from statebox.kit import OwnWorld, build_domain, customer_side, email_ledger, handoff_ledger, helpdesk, id_sequences
from statebox.kit.party import Party
from statebox.world import TableSpec

HERE = Path(__file__).parent
DESCRIPTION = (
    "Cedarline Auto Insurance, a personal auto insurer's service desk: policies, drivers and "
    "vehicles, coverages and deductibles, endorsements with prorated premium, billing and reinstatement, "
    "cancellations, and claims from first notice of loss to payment, rental, total loss and subrogation."
)

_ADDRESS = frozenset({"line1", "city", "postal_code"})
TABLES = [
    TableSpec("policyholders", normalized=_ADDRESS, dont_care=frozenset({"updated_at"})),
    TableSpec("policies", free_text=frozenset({"cancel_reason"}), dont_care=frozenset({"updated_at"})),
    TableSpec("vehicles", normalized=frozenset({"garaging_line1", "garaging_city", "garaging_postal_code",
                                                "make", "model"})),
    TableSpec("drivers", normalized=frozenset({"first_name", "last_name"})),
    TableSpec("coverages"),
    TableSpec("installments"),
    TableSpec("endorsements", tolerance={"premium_change": 0.005, "annual_change": 0.005}),
    TableSpec("claims", free_text=frozenset({"description"}), normalized=frozenset({"driver_name",
                                                                                    "other_party_insurer"}),
              dont_care=frozenset({"updated_at"})),
    TableSpec("claim_lines", tolerance={"approved_amount": 0.005}),
    TableSpec("claim_documents"),
    TableSpec("rental_authorizations"),
    TableSpec("subrogations", normalized=frozenset({"other_party_insurer"}), tolerance={"amount": 0.005}),
    TableSpec("billing_payments", ledger=True, tolerance={"amount": 0.005}),
    TableSpec("premium_refunds", ledger=True, tolerance={"amount": 0.005}),
    TableSpec("claim_payments", ledger=True, tolerance={"amount": 0.005}),
]

# Seed ids stay below these starts; task rows use the 9xxxx ranges (see AUTHORING.md).
SEQUENCES = id_sequences(
    50001, drivers="DRV-", vehicles="VEH-", coverages=("COV-", 500001), endorsements="END-",
    billing_payments=("BPY-", 500001), premium_refunds="PRF-", claims="CLM-", claim_lines=("CLL-", 500001),
    claim_documents="CDC-", rental_authorizations="RNT-", claim_payments="CPY-", subrogations="SUB-",
)

POLICYHOLDERS = Party("policyholders", "PH", "policyholder_id")
COMPONENTS = [
    helpdesk(requester=POLICYHOLDERS, reference_table="policies", reference_column="policy_id", reference_prefix="POL",
             reference_owner="policyholder_id", hold_reasons=("late_report_review", "adjuster_review")),
    email_ledger(recipient=POLICYHOLDERS,
                 templates={"claim_acknowledgement": ("claims", "claim"), "id_card": ("policies", "policy"),
                            "cancellation_confirmation": ("policies", "policy")}),
    handoff_ledger(teams=("special_investigations", "underwriting", "customer_care")),
    # Codes are judged on the trace (trace_checks.yaml), so an extra code sent is no mistake.
    customer_side(owner=POLICYHOLDERS, phone_column="phone", codes_judged_on="trace"),
]

DOMAIN = build_domain(HERE, OwnWorld(NOW, seed, TABLES, SEQUENCES), ALL_TOOLS, COMPONENTS, description=DESCRIPTION)

__all__ = ["DOMAIN"]
