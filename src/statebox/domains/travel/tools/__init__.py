"""The travel domain's own tools, grouped by area (the kit adds the helpdesk, hand-offs and codes)."""

from statebox.domains.travel.tools import bookings, flights, money, seats, travellers
from statebox.kit import tools_of

# Offered area by area, each area's tools in the order its module defines them.
ALL_TOOLS = tools_of(travellers, bookings, seats, flights, money)

__all__ = ["ALL_TOOLS"]
