"""The retail domain: an online shop's support desk (orders, returns, warranty, installation, helpdesk)."""

from statebox.domains.retail.tools import ALL_TOOLS
from statebox.domains.retail.world import COMPONENTS, DDL, HERE, NOW, POLICY, SEQUENCES, TABLES, seed
from statebox.kit import build_domain

DOMAIN = build_domain(
    name="retail",
    description="Larkspur Goods, an online shop's support desk: orders, shipping, returns and refunds, "
    "late-delivery compensation, warranty claims, installation appointments, promotions and a helpdesk.",
    now=NOW,
    ddl=DDL,
    seed=seed,
    tables=TABLES,
    sequences=SEQUENCES,
    tools=ALL_TOOLS,
    policy=POLICY,
    task_dir=HERE / "tasks",
    components=COMPONENTS,
)
WORLD = DOMAIN.world

__all__ = ["DOMAIN", "WORLD"]
