"""The domain kit: what a built-in domain composes instead of rewriting.

Helpers for tools (ids, lookups by id, money, the clock, a domain's tools gathered from its area modules), for
seeds (rows built in memory, id counters, one inserter), components (a helpdesk, an email ledger, a hand-off
ledger, customer-side state) and `build_domain`, which builds a domain from its folder, merging its own tables
and tools with the components and making its policy searchable.
"""

from statebox.kit.build import DomainRules, OwnWorld, build_domain
from statebox.kit.component import Component
from statebox.kit.customer_side import customer_side, one_time_code
from statebox.kit.helpdesk import helpdesk
from statebox.kit.ledgers import email_ledger, handoff_ledger
from statebox.kit.lookup import Lookup, lookup
from statebox.kit.party import Party
from statebox.kit.records import compact, fetch, found, json_list, money, normalize_id, now_iso, shorten, today
from statebox.kit.registry import tools_of
from statebox.kit.seeding import Rows, SeedRows, insert_rows
from statebox.kit.signature import Arg, choice, configured_tool
from statebox.kit.specs import id_sequences, table_specs

__all__ = [
    "Arg",
    "Component",
    "DomainRules",
    "Lookup",
    "OwnWorld",
    "Party",
    "Rows",
    "SeedRows",
    "build_domain",
    "choice",
    "compact",
    "configured_tool",
    "customer_side",
    "email_ledger",
    "fetch",
    "found",
    "handoff_ledger",
    "helpdesk",
    "id_sequences",
    "insert_rows",
    "json_list",
    "lookup",
    "money",
    "normalize_id",
    "now_iso",
    "one_time_code",
    "shorten",
    "table_specs",
    "today",
    "tools_of",
]
