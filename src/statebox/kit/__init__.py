"""The domain kit: what a built-in domain composes instead of rewriting.

Helpers for tools (ids, lookups, money, the clock), components (a helpdesk, an email ledger, a
hand-off ledger, customer-side state) and `build_domain`, which merges a domain's own tables and
tools with the components and makes its policy searchable.
"""

from statebox.kit.build import build_domain
from statebox.kit.component import Component
from statebox.kit.customer_side import customer_side, one_time_code
from statebox.kit.helpdesk import helpdesk
from statebox.kit.ledgers import email_ledger, handoff_ledger
from statebox.kit.records import compact, fetch, json_list, money, normalize_id, now_iso, shorten, today
from statebox.kit.signature import Arg, choice, configured_tool

__all__ = [
    "Arg",
    "Component",
    "build_domain",
    "choice",
    "compact",
    "configured_tool",
    "customer_side",
    "email_ledger",
    "fetch",
    "handoff_ledger",
    "helpdesk",
    "json_list",
    "money",
    "normalize_id",
    "now_iso",
    "one_time_code",
    "shorten",
    "today",
]
