"""Helpers for the ThinkingBox-Bench run tests: processes left behind, campaigns in process."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import yaml

from statebox.compat.thinkingbox import TbRunOptions, load_tb_suite
from statebox.runner.campaign import Campaign, CampaignResult
from statebox.runner.plan import AgentKind, CampaignConfig
from statebox.runner.record import ErrorRecord, TrialRecord
from tbfakes import RETAIL, RETAIL_FILE, FakeCheckout

CRASH_FILE = f"{RETAIL}_crash.py"
CRASH_TASK = f"{CRASH_FILE}:test_server_crash"
CANCEL_TASK = f"{RETAIL_FILE}:test_cancel_order"
_CRASH_TEST_FILE = '''"""!
scenario: sandbox_external_retail
"""


def test_server_crash(x, judge):
    """!
    query: Where is ORD-1?
    user_context: You are the customer.
    init:
      sandbox_external_retail:
        golden_test_case:
          tool_interactions:
          - {tool: get_order, parameters: {order_id: ORD-1}}
          - {tool: crash_now, parameters: {}}
    """

    validate_database(x)
'''


def add_crashing_task(fake: FakeCheckout, test_list: Path) -> Path:
    """Add a task whose reference calls `crash_now` (listed in the scenario for it); write a test
    list of that task and a healthy one to `test_list`."""
    scenario_path = fake.root / "dataset" / "scenario" / f"{RETAIL}.yaml"
    scenario = yaml.safe_load(scenario_path.read_text())
    scenario["tools"].append({"name": "crash_now"})
    scenario_path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    (fake.root / "dataset" / "test_case" / RETAIL / CRASH_FILE).write_text(_CRASH_TEST_FILE)
    test_list.write_text(yaml.safe_dump([CRASH_TASK, CANCEL_TASK]))
    return test_list


def leftover_processes(root: Path) -> list[str]:
    """Processes still working in `root` (every server runs there), and zombies of ours nobody reaped."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            state, ppid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            zombie_of_ours = state == "Z" and int(ppid) == os.getpid()
            if zombie_of_ours or (state != "Z" and Path(os.readlink(entry / "cwd")).is_relative_to(root)):
                found.append(f"pid {entry.name} ({state}): {(entry / 'cmdline').read_bytes()!r}")
        except OSError:
            continue  # gone meanwhile
    return found


def run_campaign(
    data: Path,
    out: Path,
    agent: AgentKind,
    *,
    repeat: int = 1,
    concurrency: int = 3,
    test_list: Path | None = None,
    options: TbRunOptions | None = None,
    resume: bool = False,
) -> tuple[CampaignResult, list[TrialRecord], list[ErrorRecord], Campaign]:
    """A whole campaign in process, as `statebox run thinkingbox-bench` runs it."""
    suite = load_tb_suite(data, test_list, options)
    config = CampaignConfig(
        suite=suite, agent=agent, out=out, repeat=repeat, concurrency=concurrency, resume=resume, progress=False
    )
    campaign = Campaign(config)
    result = asyncio.run(campaign.run())
    return result, campaign.run_dir.trials(), campaign.run_dir.errors(), campaign


def explain(record: TrialRecord) -> str:
    """A trial, readable in an assertion message."""
    lines = [f"{record.task_id}: passed={record.passed} finish={record.finish_reason} signature={record.signature}"]
    lines += [f"  {d.describe()}" for d in record.discrepancies]
    lines += [f"  {e.role} {e.tool_name or ''}: {e.content[:160]!r}" for e in record.transcript.entries]
    return "\n".join(lines)
