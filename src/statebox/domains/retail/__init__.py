"""The retail domain: an online shop's support desk (orders, returns, warranty, installation, helpdesk)."""

from pathlib import Path

from statebox.domains.retail.tools import ALL_TOOLS
from statebox.domains.retail.world import COMPONENTS, NOW, SEQUENCES, TABLES, seed
from statebox.kit import OwnWorld, build_domain

HERE = Path(__file__).parent
DESCRIPTION = (
    "Larkspur Goods, an online shop's support desk: orders, shipping, returns and refunds, "
    "late-delivery compensation, warranty claims, installation appointments, promotions and a helpdesk."
)

DOMAIN = build_domain(HERE, OwnWorld(NOW, seed, TABLES, SEQUENCES), ALL_TOOLS, COMPONENTS, description=DESCRIPTION)
WORLD = DOMAIN.world

__all__ = ["DOMAIN", "WORLD"]
