"""The riverside_climbing domain: a climbing gym's membership desk. `statebox validate .` checks it."""

from pathlib import Path

from statebox.kit import build_domain

from .seed import DDL, NOW, SEQUENCES, TABLES, seed
from .tools import TOOLS

HERE = Path(__file__).parent

DOMAIN = build_domain(
    name="riverside_climbing",
    description="Riverside Climbing, a climbing gym's membership desk: plans, payments, freezes and class bookings.",
    now=NOW,
    ddl=DDL,
    seed=seed,
    tables=TABLES,
    sequences=SEQUENCES,
    tools=TOOLS,
    policy=(HERE / "policy.md").read_text(encoding="utf-8"),
    task_dir=HERE / "tasks",
)
