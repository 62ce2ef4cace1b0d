"""A Ray actor that runs attempts: one per node of the cluster by default, many attempts in flight on each.

It holds what attempts share (the attempt source's transport, tool-server templates, model
clients) for its whole life, so a fork server starts once per worker (per node), not per attempt. It never
touches the run directory: each attempt's trial or error record goes back to the driver as JSON
(a `Handed`), serialised here, where the record was made.
"""

from __future__ import annotations

import asyncio
import os
from contextlib import AsyncExitStack

from statebox.integrations.ray_executor.parcel import CampaignParcel
from statebox.integrations.ray_executor.writer import Handed
from statebox.runner.campaign import Campaign
from statebox.runner.errors import CampaignStopped
from statebox.runner.plan import WorkItem
from statebox.runner.record import ErrorRecord


class AttemptWorker:
    """The worker's campaign; started on the first attempt, so a restarted actor starts again by itself."""

    def __init__(self, parcel: CampaignParcel) -> None:
        self.parcel = parcel
        self.campaign: Campaign | None = None
        self.stack = AsyncExitStack()
        self.starting = asyncio.Lock()

    def pid(self) -> int:
        return os.getpid()

    async def _started(self) -> Campaign:
        async with self.starting:
            if self.campaign is None:
                campaign = Campaign(self.parcel.open())
                campaign.source.prepare(list(campaign.config.suite.tasks))
                await self.stack.enter_async_context(campaign.source.running())
                self.campaign = campaign
        return self.campaign

    async def run(self, task_id: str, model: str | None, repeat: int, trial_id: str) -> Handed:
        campaign = await self._started()
        item = WorkItem(campaign.config.suite.task(task_id), model, repeat, trial_id)
        try:
            record = await campaign.attempt(item)
        except CampaignStopped as stop:
            return Handed(trial_id, "stop", str(stop))
        if isinstance(record, ErrorRecord):
            return Handed(trial_id, "error", record.model_dump_json())
        return Handed(trial_id, "trial", record.model_dump_json(), record.passed)

    async def stop(self) -> None:
        """Release the source and the model clients."""
        await self.stack.aclose()
        if self.campaign is not None:
            for client in self.campaign.clients.values():
                await client.aclose()
