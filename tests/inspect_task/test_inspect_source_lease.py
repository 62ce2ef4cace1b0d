"""`SourceLease`: a suite's shared resources (the tool-server templates of ThinkingBox-Bench) are started by the
first sample that needs them and left by the last; none outlives the eval."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import psutil
import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_tb_kit import fake_server

from statebox.integrations.inspect_task import open_thinkingbox, statebox_task
from statebox.integrations.inspect_task.runtime import SourceLease
from statebox.runner.backend import AttemptBackend
from statebox.runner.source import AttemptSource
from statebox.tasks import Task
from tbfakes import RETAIL_FILE, make_fake_checkout


class CountingSource(AttemptSource):
    """Counts how often its resources are entered and left, and whether they are held now."""

    def __init__(self) -> None:
        self.entered = 0
        self.left = 0

    @property
    def holding(self) -> bool:
        return self.entered > self.left

    def running(self) -> AbstractAsyncContextManager[None]:
        return self._running()

    @asynccontextmanager
    async def _running(self) -> AsyncIterator[None]:
        self.entered += 1
        try:
            yield
        finally:
            self.left += 1

    def backend(self, task: Task) -> AttemptBackend:
        raise NotImplementedError  # the lease never asks for one


def test_the_first_holder_starts_the_source_and_the_last_leaves_it() -> None:
    source = CountingSource()
    lease = SourceLease(source, "counting")
    seen: list[tuple[int, bool]] = []

    async def attempt(wait_s: float) -> None:
        async with lease.held() as held:
            assert held is source and source.holding
            await asyncio.sleep(wait_s)
        seen.append((source.entered, source.holding))

    async def main() -> None:
        await asyncio.gather(attempt(0.05), attempt(0.01), attempt(0.1))  # overlapping: one start
        assert (source.entered, source.left) == (1, 1)
        await attempt(0.0)  # after the last left: started again

    asyncio.run(main())
    assert seen == [(1, True), (1, True), (1, False), (2, False)]
    assert (source.entered, source.left) == (2, 2)


def test_a_source_that_fails_to_start_is_retried_by_the_next_attempt() -> None:
    class FailsOnce(CountingSource):
        @asynccontextmanager
        async def _running(self) -> AsyncIterator[None]:
            self.entered += 1
            if self.entered == 1:
                self.left += 1
                raise RuntimeError("the servers did not start")
            try:
                yield
            finally:
                self.left += 1

    source = FailsOnce()
    lease = SourceLease(source, "fails once")

    async def attempt() -> None:
        async with lease.held():
            pass

    with pytest.raises(RuntimeError, match="did not start"):
        asyncio.run(attempt())
    asyncio.run(attempt())  # another event loop, as a second Inspect eval of the same task would be
    assert (source.entered, source.left) == (2, 2)


@pytest.mark.slow
def test_no_tool_server_outlives_a_thinkingbox_eval(tmp_path: Path) -> None:
    checkout = make_fake_checkout(tmp_path / "checkout")
    suite = open_thinkingbox(checkout.root, sys.executable)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with fake_server(suite) as server:
        model = get_model("openai-api/fake/agent", base_url=server.base_url, api_key="unused")
        (log,) = inspect_eval(statebox_task(suite, [f"{RETAIL_FILE}:*"]), model=model, display="none",
                              log_dir=str(tmp_path / "logs"))  # fmt: skip
    assert log.status == "success", log.error
    values = [s.scores["statebox_judge"].value for s in log.samples or [] if s.scores]
    assert values == ["C"] * 4, values  # the servers ran: every reference play passed on them
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before and p.is_running()]
    assert [(p.pid, p.cmdline()) for p in left if p.status() != psutil.STATUS_ZOMBIE] == []
