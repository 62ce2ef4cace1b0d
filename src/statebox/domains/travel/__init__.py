"""The travel domain: a travel agency's support desk for flights and hotels (fares, disruptions, credits)."""

from __future__ import annotations

from pathlib import Path

from statebox.domains.travel.seed import NOW, seed
from statebox.domains.travel.tools import ALL_TOOLS
from statebox.kit import OwnWorld, build_domain, customer_side, handoff_ledger, helpdesk, id_sequences, table_specs
from statebox.kit.party import Party
from statebox.world import TableSpec

HERE = Path(__file__).parent
DESCRIPTION = (
    "Skylark Journeys, a travel agency's support desk: flight changes and cancellations by fare "
    "family and loyalty tier, delay compensation, weather waivers, schedule changes, name corrections, bags, "
    "hotel stays, travel credits and points."
)

AUDITED = frozenset({"updated_at"})

TABLES = [
    *table_specs("travellers", "bookings", dont_care=AUDITED),
    TableSpec("passengers", dont_care=AUDITED, normalized=frozenset({"first_name", "last_name"})),
    *table_specs("segments", "hotel_stays", "travel_credits", "schedule_changes", dont_care=AUDITED),
    *table_specs("refunds", "charges", "compensations", "points_ledger", "bag_purchases", ledger=True),
    # A passed card check is judged on the trace (trace_checks.yaml): an agent that checks the card before a
    # refusal, or twice, makes no mistake. Failed checks count on the booking (bookings.failed_card_checks).
    TableSpec("identity_checks", ledger=True, ignored=True),
    TableSpec("seat_assignments", primary_key=("passenger_id", "segment_id"), dont_care=frozenset({"assigned_at"})),
]

# Seed ids stay below these starts; task rows use the 9xxxx ranges (see AUTHORING.md).
SEQUENCES = id_sequences(
    50001, refunds="RFD-", charges="CHG-", travel_credits="CRD-", compensations="CMP-", points_ledger="PTS-",
    bag_purchases="BAG-", assistance_requests="SSR-", waitlist="WTL-", identity_checks="IDC-",
)

TRAVELLERS = Party("travellers", "TRV", "traveller_id")
COMPONENTS = [
    helpdesk(requester=TRAVELLERS, reference_table="bookings", reference_column="booking_id", reference_prefix="BKG",
             reference_owner="traveller_id", hold_reasons=("carrier_confirmation", "waitlist")),
    handoff_ledger(teams=("groups_desk", "medical_desk", "carrier_relations", "account_security", "billing",
                          "customer_care")),
    customer_side(owner=TRAVELLERS, codes_judged_on="trace"),
]

DOMAIN = build_domain(HERE, OwnWorld(NOW, seed, TABLES, SEQUENCES), ALL_TOOLS, COMPONENTS, description=DESCRIPTION)

__all__ = ["DOMAIN"]
