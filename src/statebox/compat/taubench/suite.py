"""τ-bench as statebox suites: `tau-bench:airline` and `tau-bench:retail` (test split), and retail's other
splits as `tau-bench:retail:train` / `:dev`; how their attempts run is a `TauSource`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from statebox.compat.taubench.checkout import TauCheckout
from statebox.compat.taubench.models import Domain, Split
from statebox.compat.taubench.options import TauRunOptions
from statebox.compat.taubench.task import TauBenchTask, tau_task
from statebox.runner.taskset import Listing, TaskSet
from statebox.tasks import Task

if TYPE_CHECKING:
    from statebox.compat.taubench.source import TauSource

PREFIX = "tau-bench"


def suite_name(domain: Domain, split: Split) -> str:
    return f"{PREFIX}:{domain}" + ("" if split == "test" else f":{split}")


@dataclass
class TauSuite(TaskSet):
    """One split of one τ-bench domain of a checkout, plus how its attempts run."""

    checkout: TauCheckout
    domain: Domain
    split: Split
    tasks: list[Task]
    options: TauRunOptions = field(default_factory=TauRunOptions)
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or suite_name(self.domain, self.split)

    def with_tasks(self, tasks: list[Task]) -> TauSuite:
        return replace(self, tasks=tasks)

    def tau_task(self, task_id: str) -> TauBenchTask:
        task = self.task(task_id)
        assert isinstance(task, TauBenchTask)
        return task

    def attempt_source(self, tools_via: str = "memory") -> TauSource:
        """Its own tool servers, over stdio (`tools_via` is for world-backed tools)."""
        from statebox.compat.taubench.source import TauSource  # the servers' side, loaded when attempts run

        return TauSource(self)

    def listing(self) -> Listing:
        table = Listing(f"{self.name}: {len(self.tasks)} tasks", ("id", "user", "actions", "outputs", "instruction"))
        for task in self.tasks:
            assert isinstance(task, TauBenchTask)
            tau = task.tau
            table.rows.append((task.id, tau.user_id, len(tau.actions), len(tau.outputs), tau.instruction[:60]))
        return table

    def listing_json(self) -> dict[str, Any]:
        return {**super().listing_json(), "domain": self.domain, "split": self.split}


def load_tau_suite(data: Any, domain: Domain, split: Split = "test", options: TauRunOptions | None = None) -> TauSuite:
    """The suite of one split of a checkout's domain (its tasks files read, nothing run)."""
    checkout = TauCheckout(data)
    fingerprint = checkout.fingerprint(domain)
    tasks: list[Task] = [
        tau_task(domain, split, i, t, fingerprint) for i, t in enumerate(checkout.tasks(domain, split))
    ]
    return TauSuite(checkout, domain, split, tasks, options or TauRunOptions())
