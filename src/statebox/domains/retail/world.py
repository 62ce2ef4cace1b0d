"""The retail backend as the world engine sees it: its own tables, the kit's helpdesk and ledgers, id sequences."""

from __future__ import annotations

from statebox.domains.retail.seed import NOW, seed
from statebox.kit import Component, customer_side, email_ledger, handoff_ledger, helpdesk, id_sequences
from statebox.world import TableSpec

HALF_CENT = 0.005

# Addresses and contact details are dictated by the customer: "12 Oak Road" and "12 oak rd." are one address.
TABLES = [
    TableSpec("customers", dont_care=frozenset({"updated_at"}), normalized=frozenset({"phone"})),
    TableSpec("addresses", normalized=frozenset({"line1", "line2", "city", "region", "postal_code"})),
    TableSpec("orders", free_text=frozenset({"cancel_reason"}), dont_care=frozenset({"updated_at"}),
              tolerance={"subtotal": HALF_CENT, "discount": HALF_CENT, "shipping_fee": HALF_CENT,
                         "total": HALF_CENT}),
    TableSpec("payments", tolerance={"amount": HALF_CENT, "refunded_amount": HALF_CENT}),
    TableSpec("returns", free_text=frozenset({"customer_comment"}), dont_care=frozenset({"updated_at"}),
              tolerance={"restocking_fee": HALF_CENT, "refund_amount": HALF_CENT}),
    TableSpec("warranty_claims", free_text=frozenset({"issue_description"})),
    TableSpec("installation_jobs", dont_care=frozenset({"updated_at"})),
    TableSpec("refunds", ledger=True, tolerance={"amount": HALF_CENT}),
    TableSpec("loyalty_transactions", ledger=True),
    # Reference data no tool writes: one read-only copy per baseline image, not one per attempt.
    *(TableSpec(name, shared=True) for name in ("tracking_events", "products", "promotions", "warranty_contracts")),
]

# Seed ids stay below these starts; task rows use the 9xxxx ranges (see AUTHORING.md).
SEQUENCES = id_sequences(
    50001, addresses="ADR-", orders="ORD-", order_items=("ITM-", 500001), refunds=("RFD-", 500001), returns="RMA-",
    carrier_investigations="CIV-", warranty_claims="CLM-", loyalty_transactions=("LOY-", 500001),
)

COMPONENTS: list[Component] = [
    helpdesk(reference_table="orders", reference_column="order_id", reference_prefix="ORD",
             reference_owner="customer_id",
             hold_reasons=("carrier_investigation", "warehouse_inspection", "manufacturer_review")),
    email_ledger(templates={"return_label": ("returns", "return"),
                            "warranty_claim": ("warranty_claims", "warranty claim"),
                            "installation_confirmation": ("installation_jobs", "installation")}),
    handoff_ledger(teams=("product_safety", "billing", "account_security", "installations", "customer_care")),
    # A texted code (policy 2) and photos the customer uploads (policy 6). Codes are judged on the trace
    # (verify_before accepts check_verification_code), so a code sent that was not needed is no mistake.
    customer_side(phone_column="phone", codes_judged_on="trace"),
]

__all__ = ["COMPONENTS", "NOW", "SEQUENCES", "TABLES", "seed"]
