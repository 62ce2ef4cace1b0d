"""The driver of `--executor ray`: hands attempts to Ray workers and alone writes the run directory.

- Exactly once: a trial is appended only when its worker hands its record back, and only once per
  run; an attempt whose worker died mid-way left nothing behind and runs again (once here, then
  by --resume), so a death never records an attempt twice.
- Per-model concurrency: at most `--concurrency` attempts of each model are in flight across the
  whole cluster, since the driver is the only one that hands attempts out (model-free agents:
  `--concurrency` per worker, as with `--workers`).
- Placement: one worker per node unless `--workers N` (see `placement`), each running many
  attempts at once, so a node starts its tool-server templates once.
- Resume, shards and manifest checks are the campaign's own: the driver runs the work items the
  campaign prepared, exactly as the local executor does.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections import Counter, deque
from typing import TYPE_CHECKING, Any

import ray
from ray.exceptions import RayError

from statebox.integrations.ray_executor.parcel import CampaignParcel
from statebox.integrations.ray_executor.placement import placements
from statebox.integrations.ray_executor.roster import Roster
from statebox.integrations.ray_executor.worker import AttemptWorker
from statebox.integrations.ray_executor.writer import DriverWriter, Handed
from statebox.runner.errors import CampaignError, CampaignStopped

if TYPE_CHECKING:
    from statebox.runner.campaign import Campaign, CampaignResult, OutcomeCallback
    from statebox.runner.plan import WorkItem

RERUNS_AFTER_A_DEATH = 1  # an attempt whose worker died runs again this many times before --resume has it
POLL_S = 0.5


def run_on_ray(campaign: Campaign, items: list[WorkItem], on_outcome: OutcomeCallback) -> CampaignResult:
    """Run the campaign's outstanding attempts on Ray (joining `ray_address`, else a local Ray)."""
    started_here = not ray.is_initialized()
    if started_here:
        # Ray's own notices (e.g. that the local cluster it starts enables token auth) are not the run's
        # news: only its errors reach the terminal; the workers' output stays in Ray's session logs.
        ray.init(address=campaign.config.ray_address, log_to_driver=False, logging_level=logging.ERROR)
    try:
        return _Dispatch(campaign, items, on_outcome).run()
    finally:
        if started_here:
            ray.shutdown()


class _Dispatch:
    """One run's hand-out of attempts: per-model queues, the workers, the attempts in flight."""

    def __init__(self, campaign: Campaign, items: list[WorkItem], on_outcome: OutcomeCallback) -> None:
        from statebox.runner.campaign import CampaignResult

        self.campaign, self.on_outcome = campaign, on_outcome
        self.result = CampaignResult()
        self.queues: dict[str | None, deque[WorkItem]] = {}
        for item in items:
            self.queues.setdefault(item.model, deque()).append(item)
        self.in_flight: Counter[str | None] = Counter()
        self.pending: dict[Any, tuple[WorkItem, int]] = {}  # object ref -> (attempt, worker index)
        self.deaths: Counter[str] = Counter()
        self.writer = DriverWriter(campaign.run_dir, self._tell)
        self.roster = Roster([])
        self.parcel: Any = None

    def run(self) -> CampaignResult:
        if not any(self.queues.values()):
            return self.result
        self._start_workers()
        try:
            while any(self.queues.values()) or self.pending:
                self._hand_out()
                self._collect(self._ready())
        finally:
            self._stop_workers()
        if self.deaths:  # said, so a lost node is never silent: these attempts ran more than once
            print(f"statebox: {len(self.deaths)} attempt(s) ran again after their Ray worker was lost "
                  f"(recorded once each)", file=sys.stderr)  # fmt: skip
        return self.result

    def _start_workers(self) -> None:
        config = self.campaign.config
        try:
            self.parcel = ray.put(CampaignParcel.of(config))  # held for the run: a restarted worker reads it
        except (TypeError, ValueError) as e:  # pickling
            raise CampaignError(f"suite {config.suite.name!r} cannot be sent to Ray workers: {e}") from None
        actor = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(AttemptWorker)
        workers = [actor.options(scheduling_strategy=where).remote() for where in placements(config.workers)]
        self.roster = Roster(workers)

    def _hand_out(self) -> None:
        per_model = max(1, self.campaign.config.concurrency)
        for model, queue in self.queues.items():
            # A model-free agent has no endpoint to protect: --concurrency per worker, as for --workers.
            limit = per_model if model is not None else per_model * len(self.roster.workers)
            while queue and self.in_flight[model] < limit:
                index = self.roster.least_loaded()
                if index is None:  # every worker is restarting
                    return
                item = queue.popleft()
                worker = self.roster.workers[index]
                ref = worker.run.remote([self.parcel], item.task.id, item.model, item.repeat, item.trial_id)
                self.pending[ref] = (item, index)
                self.in_flight[model] += 1
                self.roster.load[index] += 1

    def _ready(self) -> list[Any]:
        """The attempts finished by now: waits for one (or a restarting worker's answer, or POLL_S), then
        takes every other one done."""
        pings = self.roster.pings()
        ready, rest = ray.wait(list(self.pending) + pings, num_returns=1, timeout=POLL_S)
        if ready and rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        for ping in (ref for ref in ready if ref in pings):
            self.roster.answered(ping)
        return [ref for ref in ready if ref in self.pending]

    def _collect(self, refs: list[Any]) -> None:
        """Write what the finished attempts handed back, in one batch; requeue those whose worker died.
        A run-stopping outcome stops the run after the batch's records are written."""
        batch: list[Handed] = []
        stop: str | None = None
        for ref in refs:
            item, index = self.pending.pop(ref)
            self.in_flight[item.model] -= 1
            self.roster.load[index] -= 1
            try:
                handed: Handed = ray.get(ref)
            except RayError as e:  # the worker died (or Ray lost it) mid-attempt: nothing was recorded
                self.roster.lost(index)
                self._worker_died(item, e)
                continue
            if handed.kind == "stop":
                stop = stop or handed.payload
            else:
                batch.append(handed)
        self.writer.write(batch)
        if stop is not None:
            raise CampaignStopped(stop)

    def _worker_died(self, item: WorkItem, e: RayError) -> None:
        self.deaths[item.trial_id] += 1
        if self.deaths[item.trial_id] <= RERUNS_AFTER_A_DEATH:
            self.queues[item.model].appendleft(item)
            return
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        self._tell("error", f"{item.trial_id}: its Ray worker died ({reason}); rerun with --resume")

    def _tell(self, outcome: str, detail: str) -> None:
        self.result.add(outcome, detail)
        self.on_outcome(outcome, detail)

    def _stop_workers(self) -> None:
        for worker in self.roster.workers:
            with contextlib.suppress(RayError):
                ray.get(worker.stop.remote(), timeout=10)
            ray.kill(worker)
