"""The consulting desk's own tools, grouped by area (the kit adds helpdesk, email, hand-off and code tools)."""

from statebox.domains.consulting.tools import accounts, approvals, devices, expenses, leave, people, software, training
from statebox.kit import tools_of

# Offered area by area, each area's tools in the order its module defines them.
ALL_TOOLS = tools_of(people, approvals, software, devices, training, leave, expenses, accounts)

__all__ = ["ALL_TOOLS"]
