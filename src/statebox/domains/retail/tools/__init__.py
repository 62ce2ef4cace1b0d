"""The retail domain's own tools, grouped by area (the kit adds the helpdesk, emails, hand-offs and search_policy)."""

from statebox.domains.retail.tools import (
    customers,
    installation,
    orders,
    products,
    promotions,
    returns,
    shipping,
    warranty,
)
from statebox.kit import tools_of

# Offered area by area, each area's tools in the order its module defines them.
ALL_TOOLS = tools_of(customers, orders, shipping, promotions, returns, products, warranty, installation)

__all__ = ["ALL_TOOLS"]
