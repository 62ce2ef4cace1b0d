"""The neobank domain: Nimbus, an app-only bank's support desk (identity, cards, disputes, transfers, fees)."""

from __future__ import annotations

from pathlib import Path

from statebox.domains.neobank.seed import NOW, seed
from statebox.domains.neobank.tools import ALL_TOOLS
from statebox.kit import (
    OwnWorld,
    build_domain,
    customer_side,
    email_ledger,
    handoff_ledger,
    helpdesk,
    id_sequences,
    table_specs,
)
from statebox.world import TableSpec

HERE = Path(__file__).parent
DESCRIPTION = (
    "Nimbus, an app-only bank's support desk: identity by one-time code or private facts, card "
    "freezes and replacements, disputes with time limits and provisional credit, transfer limits by "
    "verification level, held payments and scams, goodwill fee refunds, plan changes and fraud holds."
)

AUDITED = frozenset({"updated_at"})

TABLES = [
    *table_specs("customers", "accounts", "cards", dont_care=AUDITED),
    TableSpec("transactions", dont_care=AUDITED, free_text=frozenset({"description"})),
    TableSpec("disputes", dont_care=AUDITED, free_text=frozenset({"details"})),
    *table_specs("chargebacks", "fee_refunds", "recalls", ledger=True),
    # A passed check is judged on the trace (trace_checks.yaml), so an agent that verifies before a refusal,
    # or twice, makes no mistake; a failed check counts on the profile (customers.failed_identity_checks).
    TableSpec("identity_checks", ledger=True, ignored=True),
    *table_specs("plan_changes", "kyc_upgrades", ledger=True),
]

# Seed ids stay below these starts; task rows use the 9xxxx ranges (see AUTHORING.md).
SEQUENCES = id_sequences(
    50001, transactions=("TXN-", 500001), cards="CRD-", disputes="DSP-", chargebacks="CHB-", fee_refunds="FRF-",
    recalls="RCL-", identity_checks="IDC-", plan_changes="PLC-", kyc_upgrades="KYU-",
)

COMPONENTS = [
    helpdesk(reference_table="accounts", reference_column="account_id", reference_prefix="ACC",
             hold_reasons=("chargeback_pending", "recall_pending")),
    email_ledger(templates={"statement": ("accounts", "account"), "closure_confirmation": ("accounts", "account")}),
    handoff_ledger(teams=("fraud_team", "account_security", "compliance", "financial_support", "complaints")),
    customer_side(codes_judged_on="trace"),
]

DOMAIN = build_domain(HERE, OwnWorld(NOW, seed, TABLES, SEQUENCES), ALL_TOOLS, COMPONENTS, description=DESCRIPTION)

__all__ = ["DOMAIN"]
