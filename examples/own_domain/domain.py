"""The riverside_climbing domain: a climbing gym's membership desk. `statebox validate .` checks it."""

from pathlib import Path

from statebox.kit import OwnWorld, build_domain

from .seed import DDL, NOW, SEQUENCES, TABLES, seed
from .tools import TOOLS

HERE = Path(__file__).parent

# The folder's policy.md and tasks/ are read by build_domain; its tables come from seed.py's DDL.
DOMAIN = build_domain(
    HERE,
    OwnWorld(NOW, seed, TABLES, SEQUENCES, ddl=DDL),
    TOOLS,
    name="riverside_climbing",
    description="Riverside Climbing, a climbing gym's membership desk: plans, payments, freezes and class bookings.",
)
