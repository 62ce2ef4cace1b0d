"""The forked servers a campaign uses are dealt round two templates, so their imports run side by side."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from statebox.compat.thinkingbox import BenchLaunch, bench_launcher, launch_specs
from statebox.compat.thinkingbox.launch import TEMPLATE_GROUP_ENV
from statebox.compat.thinkingbox.models import TbServerEntry, TbServers
from tbfakes import FakeCheckout

pytestmark = pytest.mark.anyio
FORKED = ("alpha", "beta", "gamma")


def servers() -> TbServers:
    env = {"PYTHONPATH": "servers/fake_servers"}  # the same for all: left alone, one template would serve them
    entries = {name: TbServerEntry(name=name, command=["{python}", "-m", "fake_tb_server"], env=env) for name in FORKED}
    entries["plain"] = TbServerEntry(name="plain", command=["{python}", "servers/fake_servers/fake_tb_server/app.py"])
    return TbServers(servers=entries)


def groups(used: list[str]) -> dict[str, str | None]:
    specs = launch_specs(servers(), python=sys.executable, used=used)
    return {s.server.name: s.server.env.get(TEMPLATE_GROUP_ENV) for s in specs}


def test_the_used_forked_servers_alternate_between_two_templates_in_the_order_used() -> None:
    assert groups(["gamma", "plain", "alpha", "beta"]) == {"gamma": "0", "alpha": "1", "beta": "0", "plain": None,
                                                           }  # fmt: skip


def test_servers_the_campaign_does_not_use_and_plain_starts_get_no_group() -> None:
    assert groups(["beta"]) == {"alpha": None, "beta": "0", "gamma": None, "plain": None}


async def test_two_templates_serve_three_forked_servers(fake: FakeCheckout) -> None:
    root = Path(fake.root)
    async with bench_launcher(servers(), root, BenchLaunch(used=list(FORKED))) as launcher:
        await launcher.prepare(*FORKED)
        alpha, beta, gamma = (launcher.template(name) for name in FORKED)
        assert alpha is not None and beta is not None
        assert alpha is gamma and alpha is not beta
        async with launcher.connect("beta") as started:
            assert started.forked
