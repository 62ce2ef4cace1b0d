"""What a Ray worker is sent once: the campaign's configuration, its suite in a form that pickles."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import cast

from statebox.runner.plan import CampaignConfig
from statebox.runner.taskset import TaskSet
from statebox.suites import Suite
from statebox.tasks import Domain, Task


@dataclass(frozen=True)
class CampaignParcel:
    """A campaign configuration without what lives in one process (a built-in suite's snapshot
    caches and their locks): a built-in suite travels as its name, tasks and domains."""

    config: CampaignConfig
    suite_name: str
    tasks: list[Task]
    domains: dict[str, Domain] | None  # None: config.suite travels as it is

    @classmethod
    def of(cls, config: CampaignConfig) -> CampaignParcel:
        suite = config.suite
        if isinstance(suite, Suite):
            bare = replace(config, suite=cast(TaskSet, None))  # rebuilt by open()
            return cls(bare, suite.name, suite.tasks, suite.domains)
        return cls(config, suite.name, list(suite.tasks), None)

    def open(self) -> CampaignConfig:
        """The configuration again, on the worker (snapshots are built there, once per worker)."""
        if self.domains is None:
            return self.config
        return replace(self.config, suite=Suite(self.suite_name, self.tasks, self.domains))
