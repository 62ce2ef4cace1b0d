"""The neobank domain's own tools, grouped by area (the kit adds the helpdesk, email, hand-offs and codes)."""

from statebox.domains.neobank.tools import accounts, cards, customers, disputes, payments
from statebox.kit import tools_of

# Offered area by area, each area's tools in the order its module defines them.
ALL_TOOLS = tools_of(customers, accounts, cards, disputes, payments)

__all__ = ["ALL_TOOLS"]
