"""The auto-insurance domain's own tools, grouped by area (the kit adds helpdesk, email, hand-off, codes)."""

from statebox.domains.auto_insurance.tools import billing, claims, endorsements, policies, policyholders, settlement
from statebox.kit import tools_of

# Offered area by area, each area's tools in the order its module defines them.
ALL_TOOLS = tools_of(policyholders, policies, endorsements, billing, claims, settlement)

__all__ = ["ALL_TOOLS"]
