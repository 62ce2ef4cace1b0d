"""One demo-like run shared by the export tests: a flaky fake model on three retail tasks, the scripted customer;
each distinct `statebox export` of it is run once."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
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


@dataclass
class Exports:
    """`statebox export` of the shared run, each distinct command run once (the run never changes, so neither does
    what the command writes); every caller gets records parsed afresh."""

    run_dir: Path
    out_dir: Path
    done: dict[tuple[str, ...], subprocess.CompletedProcess[str]] = field(default_factory=dict)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        if args not in self.done:
            self.done[args] = export(self.run_dir, *args)
        return self.done[args]

    def lines(self, *args: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.run(*args).stdout.splitlines()]

    def parquet(self, *args: str) -> Path:
        """`--format parquet ARGS` written to a file of its own."""
        out = self.out_dir / f"chat{''.join(args)}.parquet"
        self.run("--format", "parquet", "--out", str(out), *args)
        return out


@pytest.fixture(scope="session")
def exports(run_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Exports:
    return Exports(run_dir, tmp_path_factory.mktemp("exported"))


@pytest.fixture(scope="session")
def openenv_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `statebox openenv-serve retail` (no token) on a free port, for the rollout examples."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (tmp_path_factory.mktemp("serve") / "serve.log").open("w")
    proc = subprocess.Popen([str(STATEBOX), "openenv-serve", "retail", "--port", str(port)], stdout=log,
                            stderr=subprocess.STDOUT, env={**os.environ, "STATEBOX_TOKEN": ""})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not _ready(url):
            assert proc.poll() is None and time.monotonic() < deadline, f"openenv-serve not ready ({proc.poll()})"
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def _ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/ready", timeout=2).status_code == 200
    except httpx.TransportError:
        return False
