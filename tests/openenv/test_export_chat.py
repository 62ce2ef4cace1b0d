"""`statebox export --format chat-jsonl` on a demo-like run: valid JSONL in the chat format, no private facts leaked."""

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
from statebox.runner.store import RunDir
from statebox.tasks import Suite, load_suite

STATEBOX = Path(sys.executable).with_name("statebox")
TASKS = ["air_purifier_return_refund_wrong_rma_number", "account_taken_over_cancel_request_security_handoff",
         "action_camera_restocking_fee_misread_order_number"]


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("retail").select(TASKS)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory, suite: Suite) -> Path:
    """What `statebox demo` runs, on three tasks: a flaky fake model, the scripted customer, two repeats."""
    out = tmp_path_factory.mktemp("export") / "fake-flaky"
    with FakeModelServer(FakeModelApp(suite, FakeModelConfig(mode="flaky", error_rate=0.5))) as server:
        config = CampaignConfig(suite=suite, agent="llm", out=out, models=["openai:fake"], base_url=server.base_url,
                                user="scripted", repeat=2)
        asyncio.run(Campaign(config).run())
    return out


def _export(run_dir: Path, *args: str) -> list[dict[str, Any]]:
    done = subprocess.run([str(STATEBOX), "export", str(run_dir), "--format", "chat-jsonl", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_every_attempt_is_one_line_in_the_chat_format_with_its_reward(run_dir: Path) -> None:
    trials = RunDir(run_dir).trials()
    lines = _export(run_dir)
    assert sorted(r["trial_id"] for r in lines) == sorted(t.trial_id for t in trials)
    for record in lines:
        roles = [m["role"] for m in record["messages"]]
        assert roles[0] == "system" and roles[1] == "user", roles
        assert set(roles) <= {"system", "user", "assistant", "tool"}, roles
        calls = {c["id"] for m in record["messages"] if m["role"] == "assistant" for c in m.get("tool_calls", [])}
        answered = {m["tool_call_id"] for m in record["messages"] if m["role"] == "tool"}
        assert answered <= calls, f"{record['trial_id']}: tool results without a call: {answered - calls}"
        for m in record["messages"]:
            for c in m.get("tool_calls", []):
                assert isinstance(json.loads(c["function"]["arguments"]), dict), c
        assert {t["function"]["name"] for t in record["tools"]} >= {"find_customer", "issue_refund"}
        assert record["reward"] == (1.0 if record["verdict"]["passed"] else 0.0)
        assert (record["domain"], record["model"]) == ("retail", "openai:fake")
        assert record["repeat"] in (0, 1) and record["task_id"] in TASKS


def test_only_passed_and_only_failed_split_the_attempts(run_dir: Path) -> None:
    everything = {r["trial_id"] for r in _export(run_dir)}
    passed = {r["trial_id"] for r in _export(run_dir, "--only", "passed")}
    failed = {r["trial_id"] for r in _export(run_dir, "--only", "failed")}
    assert passed | failed == everything and not passed & failed
    assert all(r["reward"] == 1.0 for r in _export(run_dir, "--only", "passed"))


def test_private_facts_reach_agent_side_messages_only_as_the_customer_said_them(run_dir: Path, suite: Suite) -> None:
    tasks = {t.id: t for t in suite.tasks}
    for record in _export(run_dir):
        task = tasks[record["task_id"]]
        said = " ".join(m["content"] for m in record["messages"] if m["role"] == "user")
        system = record["messages"][0]["content"] + json.dumps(record["tools"])
        assert task.customer.goal not in said + system, "the customer's goal is private"
        for fact in task.customer.facts:
            assert fact.value not in system, f"{record['trial_id']}: fact {fact.key} in the system message or tools"


def test_user_messages_are_exactly_what_the_customer_said(run_dir: Path) -> None:
    by_id = {t.trial_id: t for t in RunDir(run_dir).trials()}
    for record in _export(run_dir):
        said = [e.content for e in by_id[record["trial_id"]].transcript.entries if e.role == "customer" and e.content]
        assert [m["content"] for m in record["messages"] if m["role"] == "user"] == said


def test_a_directory_that_is_no_run_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run([str(STATEBOX), "export", str(tmp_path), "--format", "chat-jsonl"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1
    assert str(tmp_path) in done.stderr, done.stderr


def test_parquet_holds_the_same_records_with_messages_as_native_lists(run_dir: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="--format parquet needs the statebox[parquet] extra")
    out = tmp_path / "chat.parquet"
    done = subprocess.run([str(STATEBOX), "export", str(run_dir), "--format", "parquet", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = {r["trial_id"]: r for r in pq.read_table(out).to_pylist()}
    for record in _export(run_dir):
        row = rows[record["trial_id"]]
        assert (row["reward"], row["passed"], row["task_id"]) == (record["reward"], record["verdict"]["passed"],
                                                                  record["task_id"])
        assert json.loads(row["verdict"]) == record["verdict"] and json.loads(row["tools"]) == record["tools"]
        got = [(m["role"], m["content"], m["tool_call_id"], m["tool_calls"]) for m in row["messages"]]
        want = [(m["role"], m.get("content"), m.get("tool_call_id"), m.get("tool_calls")) for m in record["messages"]]
        assert got == want, record["trial_id"]


def test_parquet_without_out_is_a_one_line_error(run_dir: Path) -> None:
    done = subprocess.run([str(STATEBOX), "export", str(run_dir), "--format", "parquet"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr.strip()) == (2, "error: --format parquet needs --out FILE")
