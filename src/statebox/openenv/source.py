"""What every episode of one server shares: the suite, its split, and each task's required effects."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from statebox.judge import required_effects
from statebox.llm.client import ModelClient
from statebox.openenv.episode import Episode
from statebox.openenv.splits import Split, in_split, split_of
from statebox.tasks import Suite, Task
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer
from statebox.world import Effects


class UnknownTask(LookupError):
    """A reset asked for a task this server does not serve."""


@dataclass
class EpisodeSource:
    """Tasks of a suite (one split of them, if asked) and their references replayed once, up front.

    The customer is the task's scripted one, or an LLM playing it through `customer_client`.
    """

    suite: Suite
    split: Split | None = None
    shaped: bool = False
    customer_client: ModelClient | None = None
    required: dict[str, list[Effects]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tasks = {t.id: t for t in self.suite.tasks}
        self.task_ids = in_split(list(self.tasks), self.split)

    def prepare(self) -> None:
        """Replay every reference of the split; a failing one is a task bug (`ReferenceFailed`) and stops the server."""
        for task_id in self.task_ids:
            if task_id not in self.required:
                self.required[task_id] = required_effects(self.suite, self.tasks[task_id])

    def choose(self, task_id: str | None, seed: int | None) -> Task:
        """The task asked for, else a seeded (or, with no seed, arbitrary) choice from the split."""
        if task_id is None:
            if not self.task_ids:
                raise UnknownTask(f"suite {self.suite.name!r} has no {self.split} tasks")
            return self.tasks[random.Random(seed).choice(self.task_ids)]
        if task_id not in self.tasks:
            raise UnknownTask(f"suite {self.suite.name!r} has no task {task_id!r}")
        if self.split is not None and split_of(task_id) != self.split:
            raise UnknownTask(f"task {task_id!r} is in the {split_of(task_id)} split; this server serves {self.split}")
        return self.tasks[task_id]

    def open(self, task: Task) -> Episode:
        if task.id not in self.required:
            self.required[task.id] = required_effects(self.suite, task)
        return Episode(self.suite, task, self.required[task.id], self.customer(task), shaped=self.shaped)

    def customer(self, task: Task) -> SimulatedCustomer:
        if self.customer_client is None:
            return ScriptedCustomer(task.customer)
        return LlmCustomer(self.customer_client, task.customer)

    def customer_kind(self) -> dict[str, str]:
        if self.customer_client is None:
            return {"kind": "scripted"}
        return {"kind": "llm", "model": self.customer_client.spec}
