"""The per-attempt savings change nothing a campaign reports: all 507 tasks of the real release,
the reference agent, once with today's savings and once without, the same verdict, state hash,
expected hash, discrepancies and finish reason for every task.

"Without" is the plainest forked start statebox has: no child forked ahead of demand and every
attempt's MCP session listing the server's tools itself, as the SDK does, rather than being told the
list (`TbRunOptions.known_tools`). A saving added later (golden-state reuse, fork-after-init) adds its
switch to `SAVED` and `PLAIN` here.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from statebox.compat.thinkingbox import TbRunOptions, load_tb_suite
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord

RELEASE_LIST = Path("releases") / "thinkingbox_bench_v1" / "testlist_thinkingbox_bench_v1.yaml"
SAVED: dict[str, Any] = {}  # today's defaults
PLAIN: dict[str, Any] = {"prefork": 0, "known_tools": False}
CONCURRENCY = 8


def outcome(record: TrialRecord) -> tuple[Any, ...]:
    found = sorted(d.describe() for d in record.discrepancies)
    return record.passed, record.state_hash, record.expected_hash, record.finish_reason, tuple(found)


def campaign(tb_env: Any, out: Path, test_list: Path, switches: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """A reference campaign in process; task -> its outcome (an infrastructure error fails the test)."""
    options = TbRunOptions(server_python=str(tb_env.python), **switches)
    suite = load_tb_suite(tb_env.data, test_list, options)
    config = CampaignConfig(suite=suite, agent="reference", out=out, concurrency=CONCURRENCY, progress=False)
    run = Campaign(config)
    asyncio.run(run.run())
    errors = run.run_dir.errors()
    assert not errors, f"{len(errors)} infrastructure errors, the first: {errors[0].task_id}: {errors[0].message}"
    return {record.task_id: outcome(record) for record in run.run_dir.trials()}


@pytest.mark.slow
def test_every_task_reports_the_same_with_and_without_the_savings(tb_env: Any, tmp_path: Path) -> None:
    ids = yaml.safe_load((tb_env.data / RELEASE_LIST).read_text())
    test_list = tmp_path / "all.yaml"
    test_list.write_text(yaml.safe_dump(ids))
    saved = campaign(tb_env, tmp_path / "saved", test_list, SAVED)
    plain = campaign(tb_env, tmp_path / "plain", test_list, PLAIN)
    assert len(saved) == len(ids) == 507
    differ = {task: (saved[task], plain.get(task)) for task in saved if saved[task] != plain.get(task)}
    assert differ == {}
