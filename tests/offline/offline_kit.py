"""A small demo-like pair of runs on retail (reference agent, flaky fake model), made in-process."""

from __future__ import annotations

import asyncio
from pathlib import Path

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.suites import Suite, load_suite
from statebox.tasks import RefCall

TASKS = 3  # the first few retail tasks keep the module fixtures to seconds
REPEAT = 3


def small_suite() -> Suite:
    """A few retail tasks, the first of which creates a ticket it saves as `ticket` (tests add a write to it)."""
    suite = load_suite("retail")
    first = next(t for t in suite.tasks if any(c.tool == "create_ticket" and c.save_as == "ticket"
                                               for c in t.reference))  # fmt: skip
    others = [t for t in suite.tasks if t.id != first.id][: TASKS - 1]
    return suite.with_tasks([t for t in suite.tasks if t.id == first.id or t in others])


def with_extra_comment(suite: Suite, task_id: str) -> Suite:
    """The suite with one task's reference ending in one more write: a comment on the ticket it created."""
    args = {"ticket_id": "${ticket.ticket_id}", "body": "Noted.", "public": False}
    extra = RefCall(tool="add_ticket_comment", args=args)
    tasks = [t.model_copy(update={"reference": [*t.reference, extra]}) if t.id == task_id else t for t in suite.tasks]
    return Suite(suite.name, tasks, suite.domains)


def make_runs(root: Path, suite: Suite | None = None, error_rate: float = 0.5) -> tuple[Path, Path]:
    """`root/reference` and `root/fake-flaky`, as `statebox demo` makes them, on a few tasks."""
    suite = suite or small_suite()
    reference, fake = root / "reference", root / "fake-flaky"
    config = CampaignConfig(suite=suite, agent="reference", out=reference, repeat=REPEAT, progress=False)
    asyncio.run(Campaign(config).run())
    app = FakeModelApp(suite, FakeModelConfig(mode="flaky", error_rate=error_rate))
    with FakeModelServer(app) as server:
        config = CampaignConfig(
            suite=suite, agent="llm", out=fake, models=["openai:fake"], base_url=server.base_url,
            user="scripted", repeat=REPEAT, progress=False,
        )  # fmt: skip
        asyncio.run(Campaign(config).run())
    return reference, fake


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its exact content."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
