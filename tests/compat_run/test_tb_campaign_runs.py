"""Whole ThinkingBox-Bench campaigns through statebox's runner, against a generated fake checkout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tb_run_kit import CANCEL_TASK, CRASH_TASK, explain, leftover_processes, run_campaign

from statebox.compat.thinkingbox import BENCH_NOW, TbRunOptions
from tbfakes import RETAIL_FILE, FakeCheckout

READ_ONLY_TASK = f"{RETAIL_FILE}:test_order_lookup_only"  # its reference only reads


def test_the_reference_agent_passes_every_supported_task(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    result, trials, errors, _ = run_campaign(tb_fake.root, tmp_path / "run", "reference", repeat=2)
    supported = set(tb_fake.test_ids) - set(tb_fake.unsupported_ids)
    assert errors == [] and result.errors == 0
    assert {t.task_id for t in trials} == supported and len(trials) == 2 * len(supported)
    failed = [explain(t) for t in trials if not t.passed]
    assert not failed, "\n".join(failed)
    assert all(t.finish_reason == "agent_ended" and t.state_hash == t.expected_hash for t in trials)
    assert leftover_processes(tb_fake.root) == []


def test_the_noop_agent_fails_every_task_that_changes_state(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    _, trials, errors, _ = run_campaign(tb_fake.root, tmp_path / "run", "noop")
    assert errors == []
    outcome = {t.task_id: t for t in trials}
    wrongly_passed = [explain(t) for task_id, t in outcome.items() if t.passed != (task_id == READ_ONLY_TASK)]
    assert not wrongly_passed, "\n".join(wrongly_passed)
    cancel = outcome[f"{RETAIL_FILE}:test_cancel_order"]
    assert cancel.signature == "no_state_change"
    # statebox's typed judge, not the servers' positional diff: a no-op only misses effects
    assert [(d.kind, d.table, d.key, d.field) for d in cancel.discrepancies] == [
        ("missing_effect", "orders", "ORD-2", "cancellation_reason"),
        ("missing_effect", "orders", "ORD-2", "status"),
    ]
    assert cancel.effects["typed"] == {"passed": False, "agrees_with_hash": True, "unreadable": []}
    assert cancel.effects["updated"] == {} and cancel.effects["servers"]["sandbox_external_retail"]["golden_changes"]
    assert leftover_processes(tb_fake.root) == []


def test_a_server_that_crashes_mid_attempt_is_an_infrastructure_error(
    crashing_fake: tuple[FakeCheckout, Path], tmp_path: Path
) -> None:
    fake, test_list = crashing_fake
    result, trials, errors, _ = run_campaign(fake.root, tmp_path / "run", "reference", test_list=test_list)
    assert [t.task_id for t in trials] == [CANCEL_TASK] and trials[0].passed
    assert [(e.task_id, e.kind) for e in errors] == [(CRASH_TASK, "tool_server")], errors
    assert "exited during 'crash_now'" in errors[0].message
    assert result.errors == 1
    assert leftover_processes(fake.root) == []


def test_the_crashed_attempt_is_retried_by_resume(crashing_fake: tuple[FakeCheckout, Path], tmp_path: Path) -> None:
    fake, test_list = crashing_fake
    run_campaign(fake.root, tmp_path / "run", "reference", test_list=test_list)
    server = fake.server_path / "fake_tb_server" / "app.py"
    server.write_text(server.read_text().replace("    os._exit(3)", "    return {'status': 'still here'}"))
    result, trials, errors, _ = run_campaign(fake.root, tmp_path / "run", "reference", test_list=test_list, resume=True)
    assert (result.ran, result.errors, errors) == (1, 0, [])
    assert sorted(t.task_id for t in trials) == sorted([CRASH_TASK, CANCEL_TASK])


def test_the_manifest_records_how_the_benchmark_ran(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    options = TbRunOptions(server_python=sys.executable)
    run_campaign(tb_fake.root, tmp_path / "run", "noop", options=options)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["suite"] == "thinkingbox-bench"
    assert manifest["search_backend"] == "embedded-fts5"
    assert manifest["thinkingbox"] == {
        "data": str(tb_fake.root),
        "test_list": None,
        "server_python": sys.executable,
        "clock_pin": BENCH_NOW,
        "server_start": "fork",
        "unsupported": tb_fake.unsupported_ids,
    }


def test_with_typesense_the_policy_sources_go_to_the_server(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    # The fake server has no search backend, so it refuses an init that carries the sources.
    options = TbRunOptions(typesense_url="http://127.0.0.1:9")
    _, trials, errors, campaign = run_campaign(tb_fake.root, tmp_path / "run", "reference", options=options)
    assert campaign.manifest().search_backend == "typesense:http://127.0.0.1:9"
    assert trials == [] and errors and all(e.kind == "tool_server" for e in errors)
    assert all("cannot index sources" in e.message for e in errors)
    assert leftover_processes(tb_fake.root) == []


def test_plain_process_starts_give_the_same_verdicts_as_forked_ones(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    _, forked, _, _ = run_campaign(tb_fake.root, tmp_path / "fork", "noop")
    _, plain, _, _ = run_campaign(tb_fake.root, tmp_path / "plain", "noop", options=TbRunOptions(fork=False))
    assert {t.task_id: (t.passed, t.state_hash) for t in plain} == {t.task_id: (t.passed, t.state_hash) for t in forked}
    assert leftover_processes(tb_fake.root) == []
