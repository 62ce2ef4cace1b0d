"""The neobank domain: Nimbus, an app-only bank's support desk (identity, cards, disputes, transfers, fees)."""

from __future__ import annotations

from pathlib import Path

from statebox.domains.neobank.seed import NOW, seed
from statebox.domains.neobank.tools import ALL_TOOLS
from statebox.kit import build_domain, customer_side, email_ledger, handoff_ledger, helpdesk
from statebox.world import Sequence, TableSpec

HERE = Path(__file__).parent
AUDITED = frozenset({"updated_at"})

TABLES = {t.name: t for t in [
    TableSpec("customers", dont_care=AUDITED),
    TableSpec("accounts", dont_care=AUDITED),
    TableSpec("cards", dont_care=AUDITED),
    TableSpec("transactions", dont_care=AUDITED, free_text=frozenset({"description"})),
    TableSpec("disputes", dont_care=AUDITED, free_text=frozenset({"details"})),
    TableSpec("chargebacks", ledger=True),
    TableSpec("fee_refunds", ledger=True),
    TableSpec("recalls", ledger=True),
    # A passed check is judged on the trace (trace_checks.yaml), so an agent that verifies before a refusal,
    # or twice, makes no mistake; a failed check counts on the profile (customers.failed_identity_checks).
    TableSpec("identity_checks", ledger=True, ignored=True),
    TableSpec("plan_changes", ledger=True),
    TableSpec("kyc_upgrades", ledger=True),
]}

# Seed ids stay below these starts; task rows use the 9xxxx ranges (see AUTHORING.md).
SEQUENCES = {
    "transactions": Sequence("TXN-", 500001),
    "cards": Sequence("CRD-", 50001),
    "disputes": Sequence("DSP-", 50001),
    "chargebacks": Sequence("CHB-", 50001),
    "fee_refunds": Sequence("FRF-", 50001),
    "recalls": Sequence("RCL-", 50001),
    "identity_checks": Sequence("IDC-", 50001),
    "plan_changes": Sequence("PLC-", 50001),
    "kyc_upgrades": Sequence("KYU-", 50001),
}

DOMAIN = build_domain(
    name="neobank",
    description="Nimbus, an app-only bank's support desk: identity by one-time code or private facts, card "
    "freezes and replacements, disputes with time limits and provisional credit, transfer limits by "
    "verification level, held payments and scams, goodwill fee refunds, plan changes and fraud holds.",
    now=NOW,
    ddl=(HERE / "schema.sql").read_text(encoding="utf-8"),
    seed=seed,
    tables=TABLES,
    sequences=SEQUENCES,
    tools=ALL_TOOLS,
    policy=(HERE / "policy.md").read_text(encoding="utf-8"),
    task_dir=HERE / "tasks",
    components=[
        helpdesk(requester_table="customers", requester_prefix="CUS", reference_table="accounts",
                 reference_column="account_id", reference_prefix="ACC",
                 hold_reasons=("chargeback_pending", "recall_pending"), list_tool="list_customer_tickets"),
        email_ledger(recipient_table="customers", recipient_prefix="CUS",
                     templates={"statement": ("accounts", "account"),
                                "closure_confirmation": ("accounts", "account")}),
        handoff_ledger(teams=("fraud_team", "account_security", "compliance", "financial_support", "complaints")),
        customer_side(owner_table="customers", owner_prefix="CUS", codes_judged_on="trace"),
    ],
)

__all__ = ["DOMAIN"]
