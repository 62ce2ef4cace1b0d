"""A configuration error (a bad key, an unknown model) stops `statebox run` at the first failure, rc 2.

`statebox run` is a real subprocess; its model endpoint the local fake, refusing every request.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .fake_endpoints import FakeEndpoint, Scripted, fail

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TASK = "cancel_desk_wrong_order_number"


def run(endpoint_url: str, out: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    command = [
        STATEBOX, "run", "retail", "--agent", "llm", "--model", "openai:fake", "--base-url", endpoint_url,
        "--user", "scripted", "--tasks", TASK, "--repeat", "4", "--no-progress", "--out", str(out), *extra,
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("status", [401, 404])
def test_a_refused_key_or_model_stops_the_run_before_a_second_attempt(
    endpoint: FakeEndpoint, tmp_path: Path, status: int
):
    endpoint.script(*[fail(status)] * 10)

    done = run(endpoint.openai_url, tmp_path / "run", "--concurrency", "1", "--workers", "1")

    assert done.returncode == 2, done.stderr
    assert len(endpoint.requests) == 1, f"{len(endpoint.requests)} requests: the run went on after the first"
    assert f"HTTP {status}" in done.stderr and "stopped" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "run" / "trials.jsonl").exists() or not (tmp_path / "run" / "trials.jsonl").read_text()


def test_worker_processes_stop_too(endpoint: FakeEndpoint, tmp_path: Path):
    endpoint.script(*[fail(401)] * 10)

    done = run(endpoint.openai_url, tmp_path / "run", "--concurrency", "1", "--workers", "2")

    assert done.returncode == 2, done.stderr
    assert len(endpoint.requests) <= 2, "each worker stops at its first refusal"
    assert "HTTP 401" in done.stderr and "Traceback" not in done.stderr


def test_a_5xx_is_no_configuration_error_and_the_run_goes_on(endpoint: FakeEndpoint, tmp_path: Path):
    endpoint.script(*[Scripted(fail(503).body, status=503, headers={"retry-after-ms": "0"})] * 200)

    done = run(endpoint.openai_url, tmp_path / "run", "--concurrency", "1", "--workers", "1", "--max-retries", "0")

    assert done.returncode == 3, done.stderr  # finished, with infrastructure errors left for --resume
    assert len(endpoint.requests) == 4


def test_anthropic_without_a_key_is_refused_before_the_run_starts(tmp_path: Path):
    env = {key: value for key, value in __import__("os").environ.items() if key != "ANTHROPIC_API_KEY"}
    command = [
        STATEBOX, "run", "retail", "--agent", "llm", "--model", "anthropic:claude-sonnet-4-5", "--user", "scripted",
        "--tasks", TASK, "--no-progress", "--out", str(tmp_path / "run"),
    ]  # fmt: skip

    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)

    assert done.returncode == 2, done.stderr
    assert "ANTHROPIC_API_KEY" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "run").exists()
