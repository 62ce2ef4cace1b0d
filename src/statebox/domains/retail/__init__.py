"""The retail domain: an online shop's support desk (orders, returns, warranty, installation, helpdesk)."""

from statebox.domains.retail.tools import ALL_TOOLS
from statebox.domains.retail.world import HERE, POLICY, WORLD
from statebox.tasks import Domain
from statebox.tools import Toolset

DOMAIN = Domain(
    name="retail",
    world=WORLD,
    tools=Toolset(ALL_TOOLS),
    policy=POLICY,
    task_dir=HERE / "tasks",
    description="Larkspur Goods, an online shop's support desk: orders, shipping, returns and refunds, "
    "late-delivery compensation, warranty claims, installation appointments, promotions and a helpdesk.",
)

__all__ = ["DOMAIN"]
