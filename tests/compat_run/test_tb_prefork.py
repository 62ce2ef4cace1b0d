"""Children forked ahead of demand for ThinkingBox-Bench: an attempt takes a ready one, and none
outlives the launcher."""

from __future__ import annotations

import os
import signal

import anyio
import pytest
from tb_run_kit import leftover_processes

from statebox.compat.thinkingbox import BenchLaunch, TbCheckout, bench_launcher
from statebox.mcp.launch import ToolServerLauncher
from tbfakes import RETAIL, FakeCheckout

pytestmark = pytest.mark.anyio


async def ready_children(launcher: ToolServerLauncher, count: int) -> list[int]:
    """The pids of the children forked ahead, once there are `count` of them."""
    template = launcher.template(RETAIL)
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
    async with bench_launcher(checkout.servers(), checkout.root, BenchLaunch(prefork=2)) as launcher:
        await launcher.prepare(RETAIL)
        ahead = await ready_children(launcher, 2)
        async with launcher.connect(RETAIL) as server:
            assert await server.list_tools()
        assert server.forked and server.pid in ahead
        assert len(await ready_children(launcher, 2)) == 2
    assert leftover_processes(tb_fake.root) == []


async def test_children_of_a_dead_template_are_not_handed_out(tb_fake: FakeCheckout) -> None:
    checkout = TbCheckout(tb_fake.root)
    async with bench_launcher(checkout.servers(), checkout.root, BenchLaunch(prefork=1)) as launcher:
        await launcher.prepare(RETAIL)
        [ahead] = await ready_children(launcher, 1)
        template = launcher.template(RETAIL)
        assert template is not None and template.template_pid is not None
        os.kill(template.template_pid, signal.SIGKILL)
        with anyio.fail_after(5):
            while template.alive:
                await anyio.sleep(0.01)
        async with launcher.connect(RETAIL) as server:
            assert await server.list_tools()
        assert server.pid != ahead
    assert leftover_processes(tb_fake.root) == []
