"""Run a campaign's attempts in several processes: one asyncio loop per core.

The parent prepares the campaign (manifest, required effects), forks the workers, and drives the
progress bar from their reports. Each worker runs its slice at the campaign's concurrency and
appends finished attempts itself (one O_APPEND write per line). Workers die with their parent, so
killing `statebox run` loses at most the attempts in flight, as with one process.
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import queue as queue_module
import signal
from typing import TYPE_CHECKING

from statebox.runner.errors import CampaignStopped

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue

    from statebox.runner.campaign import Campaign, CampaignResult, OutcomeCallback
    from statebox.runner.plan import WorkItem

_PR_SET_PDEATHSIG = 1
_DONE = "done"
_STOP = "stop"  # a worker hit an error every attempt would repeat (runner/errors.py stopping_error)


def run_in_processes(
    campaign: Campaign, items: list[WorkItem], workers: int, on_outcome: OutcomeCallback
) -> CampaignResult:
    """Split the attempts over `workers` forked processes and gather their outcomes."""
    from statebox.runner.campaign import CampaignResult

    ctx = multiprocessing.get_context("fork")
    reports: Queue[tuple[str, str]] = ctx.Queue()
    slices = [items[i::workers] for i in range(workers) if items[i::workers]]
    procs = [
        ctx.Process(target=_worker_main, args=(campaign, chunk, reports, os.getpid()), daemon=True) for chunk in slices
    ]
    for p in procs:
        p.start()
    result = CampaignResult()
    running, crashed = len(procs), set[int]()
    while running:
        try:
            outcome, detail = reports.get(timeout=0.5)
        except queue_module.Empty:
            running -= _reap_crashed(procs, crashed, result)
            continue
        if outcome == _DONE:
            running -= 1
            continue
        if outcome == _STOP:
            for p in procs:
                p.kill()
                p.join()
            raise CampaignStopped(detail)
        result.add(outcome, detail)
        on_outcome(outcome, detail)
    for p in procs:
        p.join()
    return result


def _reap_crashed(procs: Sequence[BaseProcess], crashed: set[int], result: CampaignResult) -> int:
    """Workers that died without saying they were done (their attempts stay unfinished for --resume)."""
    newly = [p for p in procs if p.exitcode not in (None, 0) and p.pid not in crashed]
    for p in newly:
        crashed.add(p.pid or 0)
        result.add("error", f"worker process {p.pid} died (exit code {p.exitcode}); rerun with --resume")
    return len(newly)


def _worker_main(campaign: Campaign, items: list[WorkItem], reports: Queue[tuple[str, str]], parent: int) -> None:
    _die_with(parent)
    try:
        asyncio.run(campaign.execute(items, lambda outcome, detail: reports.put((outcome, detail))))
    except CampaignStopped as stop:
        reports.put((_STOP, str(stop)))
    finally:
        reports.put((_DONE, ""))


def _die_with(parent: int) -> None:
    """Ask Linux to kill this worker when its parent dies (best effort elsewhere)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
