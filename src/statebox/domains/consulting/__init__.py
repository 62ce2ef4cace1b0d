"""The consulting domain: Corvane Partners' internal IT and people service desk."""

from __future__ import annotations

from pathlib import Path

from statebox.domains.consulting.seed import NOW, seed
from statebox.domains.consulting.tools import ALL_TOOLS
from statebox.kit import OwnWorld, build_domain, customer_side, email_ledger, handoff_ledger, helpdesk, id_sequences
from statebox.kit.party import Party
from statebox.world import TableSpec

HERE = Path(__file__).parent
DESCRIPTION = (
    "Corvane Partners, a consulting firm's internal IT and people service desk: software licences, "
    "devices, training, leave, expenses, joiners and leavers, approvals routed through the org chart."
)

TABLES = [
    TableSpec("employees"),
    TableSpec("accounts", primary_key="employee_id"),
    TableSpec("leave_balances", primary_key=("employee_id", "leave_type")),
    TableSpec("approval_requests", free_text=frozenset({"note"})),
    TableSpec("device_orders", normalized=frozenset({"ship_line1", "ship_city", "ship_postal_code"})),
    TableSpec("expense_claims", free_text=frozenset({"description"}), normalized=frozenset({"city"}),
              tolerance={"amount": 0.005, "reimbursable_amount": 0.005}),
    TableSpec("reimbursements", ledger=True, tolerance={"amount": 0.005}),
    TableSpec("asset_returns"),
]

# Seed ids stay below 50001; task rows use 9xxxx ids (see AUTHORING.md).
SEQUENCES = id_sequences(
    50001, approval_requests="APR-", access_grants="ACC-", device_orders="DOR-", asset_returns="RTN-",
    enrolments="ENR-", leave_requests="LVE-", expense_claims="EXP-", reimbursements="RMB-",
)

EMPLOYEES = Party("employees", "EMP", "employee_id")
COMPONENTS = [
    helpdesk(requester=EMPLOYEES, hold_reasons=("awaiting_approval",)),
    email_ledger(recipient=EMPLOYEES, templates={"approval_request": ("approval_requests", "approval request"),
                            "device_order": ("device_orders", "device order"),
                            "asset_return_label": ("asset_returns", "asset return")}),
    handoff_ledger(teams=("it_security", "device_repair", "hr_advisory", "finance_controls")),
    # Codes judged on the trace (trace_checks.yaml, and the home-delivery task's own check): an agent that
    # sends a code before refusing a home delivery, or sends one twice, makes no mistake.
    customer_side(owner=EMPLOYEES, phone_column="phone", codes_judged_on="trace"),
]

DOMAIN = build_domain(HERE, OwnWorld(NOW, seed, TABLES, SEQUENCES), ALL_TOOLS, COMPONENTS, description=DESCRIPTION)

__all__ = ["DOMAIN"]
