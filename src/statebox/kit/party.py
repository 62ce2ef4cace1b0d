"""The people a domain serves, as its kit components name them (customers, policyholders, travellers, employees)."""

from __future__ import annotations

from dataclasses import dataclass

from statebox.kit.records import fetch, normalize_id
from statebox.world import Row, Session


@dataclass(frozen=True)
class Party:
    """Their table, the prefix of their ids and the argument a tool names one by; declared once by a domain and
    given to each component that acts for them (the helpdesk's requester, the email's recipient, the owner of a
    phone and of uploaded documents)."""

    table: str = "customers"
    prefix: str = "CUS"
    arg: str = "customer_id"

    def id(self, value: str) -> str:
        """The id a person typed, normalized (`cus-1042 ` -> `CUS-1042`)."""
        return normalize_id(value, self.prefix)

    def find(self, db: Session, value: str, what: str) -> Row:
        """The row `value` names, or NotFound calling it `what` and saying how ids look."""
        return fetch(db, self.table, self.id(value), what, f"ids look like {self.prefix}-1042.")
