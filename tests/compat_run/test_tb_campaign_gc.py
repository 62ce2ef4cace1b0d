"""While a ThinkingBox-Bench campaign runs, what it set up is frozen out of the garbage collector's
full collections and the young generation is collected less often; both are put back after."""

from __future__ import annotations

import gc

import pytest

from statebox.compat.thinkingbox import TbSource, load_tb_suite
from statebox.compat.thinkingbox.source import YOUNG_GC_THRESHOLD
from tbfakes import FakeCheckout

pytestmark = pytest.mark.anyio


async def test_the_campaign_freezes_its_setup_and_puts_the_collector_back(tb_fake: FakeCheckout) -> None:
    suite = load_tb_suite(tb_fake.root)
    source = TbSource(suite)
    source.prepare(suite.tasks)
    before, frozen_before = gc.get_threshold(), gc.get_freeze_count()
    async with source.running():
        during, frozen_during = gc.get_threshold(), gc.get_freeze_count()
    assert during == (max(before[0], YOUNG_GC_THRESHOLD), *before[1:])
    assert frozen_during > frozen_before  # the suite, the launcher and every module imported so far
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, 0)
