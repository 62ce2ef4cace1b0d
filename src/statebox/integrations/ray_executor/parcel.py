"""What a Ray worker is sent once: the campaign's configuration, its suite in a form that pickles."""

from __future__ import annotations

from dataclasses import dataclass

from statebox.runner.plan import CampaignConfig


@dataclass(frozen=True)
class CampaignParcel:
    """A campaign configuration without what lives in one process: every suite pickles without it (a
    built-in suite travels as its name, tasks and domains, `TaskWorlds.__reduce__`, and builds its
    snapshots on the worker, once per worker)."""

    config: CampaignConfig

    @classmethod
    def of(cls, config: CampaignConfig) -> CampaignParcel:
        return cls(config)

    def open(self) -> CampaignConfig:
        """The configuration again, on the worker."""
        return self.config
