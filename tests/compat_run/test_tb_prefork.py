"""Children forked ahead of demand: an attempt takes a ready one, and none outlives the launcher."""

from __future__ import annotations

import os
import signal
import tempfile

import anyio
import pytest
from mcp import ClientSession
from tb_run_kit import leftover_processes

from statebox.compat.thinkingbox import ServerLauncher, TbCheckout
from statebox.compat.thinkingbox.fake_checkout import RETAIL, FakeCheckout

pytestmark = pytest.mark.anyio


async def ready_children(launcher: ServerLauncher, count: int) -> list[int]:
    """The pids of the children forked ahead, once there are `count` of them."""
    template = launcher.fork_server(RETAIL)
    assert template is not None
    with anyio.fail_after(10):
        while True:
            children = [
                int(pid) for pid in os.listdir("/proc") if pid.isdigit() and _parent(int(pid)) == template.template_pid
            ]
            if len(children) >= count:
                return children
            await anyio.sleep(0.01)


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


async def test_an_attempt_takes_a_child_forked_ahead_and_the_pool_refills(tb_fake: FakeCheckout) -> None:
    checkout = TbCheckout(tb_fake.root)
    async with ServerLauncher(checkout.servers(), cwd=checkout.root, prefork=2) as launcher:
        await launcher.prepare(RETAIL)
        ahead = await ready_children(launcher, 2)
        with tempfile.TemporaryFile("w+") as errlog:
            async with launcher.start(RETAIL, errlog) as started, ClientSession(*started.streams) as session:
                await session.initialize()
                assert (await session.list_tools()).tools
        assert started.forked and started.pid in ahead
        assert started.errlog is not errlog  # a child forked ahead writes to a file of the launcher's
        assert len(await ready_children(launcher, 2)) == 2
    assert leftover_processes(tb_fake.root) == []


async def test_children_of_a_dead_template_are_not_handed_out(tb_fake: FakeCheckout) -> None:
    checkout = TbCheckout(tb_fake.root)
    async with ServerLauncher(checkout.servers(), cwd=checkout.root, prefork=1) as launcher:
        await launcher.prepare(RETAIL)
        [ahead] = await ready_children(launcher, 1)
        template = launcher.fork_server(RETAIL)
        assert template is not None and template.template_pid is not None
        os.kill(template.template_pid, signal.SIGKILL)
        with anyio.fail_after(5):
            while template.alive:
                await anyio.sleep(0.01)
        with tempfile.TemporaryFile("w+") as errlog:
            async with launcher.start(RETAIL, errlog) as started, ClientSession(*started.streams) as session:
                await session.initialize()
        assert started.pid != ahead
    assert leftover_processes(tb_fake.root) == []
