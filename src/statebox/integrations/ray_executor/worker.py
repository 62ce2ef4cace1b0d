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
from typing import Any

from statebox.integrations.ray_executor.parcel import CampaignParcel
from statebox.integrations.ray_executor.writer import Handed
from statebox.runner.campaign import Campaign
from statebox.runner.errors import CampaignStopped
from statebox.runner.plan import WorkItem
from statebox.runner.record import ErrorRecord


class AttemptWorker:
    """The worker's campaign; started on the first attempt, so a restarted actor starts again by itself.

    The campaign's parcel comes with each attempt as a reference in a list (so Ray passes the reference, not
    the object), and is fetched once: an actor whose constructor took it from the object store would be
    restartable only while that object lives, which Ray's core worker logs as an error at every creation.
    """

    def __init__(self) -> None:
        self.campaign: Campaign | None = None
        self.stack = AsyncExitStack()
        self.starting = asyncio.Lock()

    def pid(self) -> int:
        return os.getpid()

    async def _started(self, parcel: list[Any]) -> Campaign:
        async with self.starting:
            if self.campaign is None:
                opened: CampaignParcel = await parcel[0]  # the driver's ray.put, fetched once per worker life
                campaign = Campaign(opened.open())
                campaign.source.prepare(list(campaign.config.suite.tasks))
                await self.stack.enter_async_context(campaign.source.running())
                self.campaign = campaign
        return self.campaign

    async def run(self, parcel: list[Any], task_id: str, model: str | None, repeat: int, trial_id: str) -> Handed:
        campaign = await self._started(parcel)
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
