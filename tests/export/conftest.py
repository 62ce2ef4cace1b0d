"""One demo-like run shared by the export tests: a flaky fake model on three retail tasks, the scripted customer."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from statebox.fakemodel.app import FakeModelApp, FakeModelConfig
from statebox.fakemodel.serve import FakeModelServer
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.suites import Suite, load_suite

STATEBOX = Path(sys.executable).with_name("statebox")
TASKS = ["air_purifier_return_refund_wrong_rma_number", "account_taken_over_cancel_request_security_handoff",
         "action_camera_restocking_fee_misread_order_number"]


@pytest.fixture(scope="session")
def suite() -> Suite:
    return load_suite("retail").select(TASKS)


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory, suite: Suite) -> Path:
    """What `statebox demo` runs, on three tasks: a flaky fake model, the scripted customer, three repeats."""
    out = tmp_path_factory.mktemp("export") / "fake-flaky"
    with FakeModelServer(FakeModelApp(suite, FakeModelConfig(mode="flaky", error_rate=0.5))) as server:
        config = CampaignConfig(suite=suite, agent="llm", out=out, models=["openai:fake"], base_url=server.base_url,
                                user="scripted", repeat=3)
        asyncio.run(Campaign(config).run())
    return out


def export(run_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`statebox export RUN ARGS...`, asserting it succeeded."""
    done = subprocess.run([str(STATEBOX), "export", str(run_dir), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def export_lines(run_dir: Path, *args: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in export(run_dir, *args).stdout.splitlines()]
