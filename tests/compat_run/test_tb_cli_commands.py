"""`statebox tasks|validate|run thinkingbox-bench --data PATH` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from tb_run_kit import leftover_processes

from tbfakes import RETAIL_FILE, FakeCheckout

STATEBOX = str(Path(sys.executable).with_name("statebox"))
READ_ONLY_TASK = f"{RETAIL_FILE}:test_order_lookup_only"


def statebox(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}} | {"COLUMNS": "250"}
    command = [STATEBOX, *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, check=False)


def test_tasks_lists_the_supported_tasks_and_names_the_unsupported_ones(tb_fake: FakeCheckout) -> None:
    done = statebox("tasks", "thinkingbox-bench", "--data", tb_fake.root)
    assert done.returncode == 0, done.stderr
    supported = [i for i in tb_fake.test_ids if i not in tb_fake.unsupported_ids]
    assert f"thinkingbox-bench: {len(supported)} tasks, 1 unsupported" in done.stdout
    for task_id in supported:
        assert task_id in done.stdout
    assert f"unsupported {tb_fake.unsupported_ids[0]}: line " in done.stdout


def test_tasks_json_has_each_task_with_its_domain_and_reference(tb_fake: FakeCheckout) -> None:
    done = statebox("tasks", "thinkingbox-bench", "--data", tb_fake.root, "--json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    tasks = {t["id"]: t for t in listing["tasks"]}
    assert listing["suite"] == "thinkingbox-bench" and len(listing["hash"]) == 16
    assert [u["id"] for u in listing["unsupported"]] == tb_fake.unsupported_ids
    cancel = tasks[f"{RETAIL_FILE}:test_cancel_order"]
    assert cancel["domain"] == "retail" and cancel["opening_message"] == "Please cancel order ORD-2."
    assert [c["tool"] for c in cancel["reference"]] == ["get_order", "cancel_order"]
    assert tasks["sandbox_consulting_basic.py:test_escalation"]["domain"] == "consulting"
    assert tasks[f"{RETAIL_FILE}:test_expedite_shipping"]["limits"]["max_turns"] == 4


def test_a_test_list_chooses_the_tasks(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    test_list = tmp_path / "list.yaml"
    test_list.write_text(yaml.safe_dump([READ_ONLY_TASK]))
    done = statebox("tasks", "thinkingbox-bench", "--data", tb_fake.root, "--test-list", test_list, "--json")
    assert [t["id"] for t in json.loads(done.stdout)["tasks"]] == [READ_ONLY_TASK]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--data", "/nonexistent/checkout"], "--data /nonexistent/checkout: no such directory"),
        (["--data", "/"], "is not a ThinkingBox-Bench checkout"),
        ([], "thinkingbox-bench needs --data PATH"),
    ],
)
def test_a_missing_or_wrong_data_path_is_a_one_line_error(args: list[str], message: str) -> None:
    done = statebox("tasks", "thinkingbox-bench", *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_validate_runs_the_reference_and_noop_checks_on_the_servers(tb_fake: FakeCheckout) -> None:
    done = statebox("validate", "thinkingbox-bench", "--data", tb_fake.root, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    results = {r["id"]: r for r in report["tasks"]}
    assert all(r["reference_passes"] and not r["problems"] for r in results.values()), results
    assert results[READ_ONLY_TASK]["read_only"] is True and results[READ_ONLY_TASK]["noop_fails"] is None
    others = [r for task_id, r in results.items() if task_id != READ_ONLY_TASK]
    assert all(r["read_only"] is False and r["noop_fails"] is True for r in others)
    assert set(results[READ_ONLY_TASK]) == {
        "id", "reference_passes", "read_only", "noop_fails", "necessary_calls", "writes", "facts", "tags",
        "mutants_caught", "mutants_total", "problems", "unnecessary_writes", "typed_reference_passes",
        "noop_passes", "typed_noop_passes", "noop_kinds", "judge_disagreements",
    }  # fmt: skip
    disagree = {task_id: r["judge_disagreements"] for task_id, r in results.items() if r["judge_disagreements"]}
    assert disagree == {}, disagree
    assert all(r["noop_kinds"] == ["missing_effect"] for r in others), [(r["id"], r["noop_kinds"]) for r in others]
    counts = report["counts"]
    assert counts["judge_disagreements"] == 0 and counts["judge_attempts"] == 2 * len(results)
    assert counts["golden_writes"] == sum(r["writes"] for r in results.values()) > 0
    assert results[READ_ONLY_TASK]["mutants_total"] is None  # a check that needs statebox's own world
    assert leftover_processes(tb_fake.root) == []


def test_validate_fails_a_task_whose_reference_breaks(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    broken = tmp_path / "checkout"
    subprocess.run(["cp", "-r", str(tb_fake.root), str(broken)], check=True)
    test_file = broken / "dataset" / "test_case" / "sandbox_external_retail" / RETAIL_FILE
    test_file.write_text(test_file.read_text().replace("speed: expedited", "speed: overnight"))
    done = statebox("validate", "thinkingbox-bench", "--data", broken, "--tasks", "*expedite*", "--json")
    assert done.returncode == 1
    [result] = json.loads(done.stdout)["tasks"]
    assert not result["reference_passes"]
    assert any("unknown shipping speed 'overnight'" in problem for problem in result["problems"]), result


def test_validate_audits_a_golden_write_the_task_passes_without(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    subprocess.run(["cp", "-r", str(tb_fake.root), str(checkout)], check=True)
    test_file = checkout / "dataset" / "test_case" / "sandbox_external_retail" / RETAIL_FILE
    once = "".join(
        f"{line}\n"
        for line in (
            "          - tool: update_shipping_speed",
            "            parameters:",
            "              order_id: ORD-1",
            "              speed: expedited",
        )
    )
    assert once in test_file.read_text()
    test_file.write_text(test_file.read_text().replace(once, once * 2))  # the same write twice
    done = statebox("validate", "thinkingbox-bench", "--data", checkout, "--tasks", "*expedite*", "--json")
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["tasks"]
    # the second call changes nothing, so only the first is state-changing, and the second does its work
    assert (result["writes"], result["unnecessary_writes"]) == (1, ["call 0 (update_shipping_speed)"])
    human = statebox("validate", "thinkingbox-bench", "--data", checkout, "--tasks", "*expedite*")
    assert "unnecessary golden writes: 1 of 1 state-changing reference calls, in 1 tasks" in human.stdout, human.stdout


def test_run_then_report_and_resume(tb_fake: FakeCheckout, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "thinkingbox-bench", "--data", tb_fake.root, "--agent", "noop", "--out", out, "--no-progress"]
    first = statebox(*args)
    assert first.returncode == 0, first.stderr
    assert "7 attempts: 1 passed, 6 failed, 0 infrastructure errors" in first.stderr
    assert f"1 unsupported task(s) left out: {tb_fake.unsupported_ids[0]}" in first.stderr
    again = statebox(*args, "--resume", "--repeat", "2")
    assert "7 new attempts: 1 passed, 6 failed" in again.stderr, again.stderr
    report = json.loads(statebox("report", out, "--json").stdout)
    [entry] = report["runs"]
    assert (entry["suite"], entry["tasks"], entry["repeats"]) == ("thinkingbox-bench", 7, 2)
    assert entry["signatures"] == {"no_state_change": 12}
    assert entry["discrepancy_kinds"] == {"missing_effect": 12}  # the typed judge: a no-op only misses effects
    assert entry["judge_agreement"] == {"attempts": 14, "agreeing": 14, "share": 1.0, "disagreeing_tasks": []}
    text = statebox("report", out).stdout
    assert "typed judge agrees with the suite's own verdict on 14/14 attempts" in text, text
    html = tmp_path / "report.html"
    assert statebox("report", out, "--html", html).returncode == 0
    browser = ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", html.as_uri()]
    dom = subprocess.run(browser, capture_output=True, text=True, timeout=120, check=True).stdout
    assert "statebox's typed judge agrees on 14/14 attempts (100.0%)." in dom
    assert leftover_processes(tb_fake.root) == []


def test_server_options_belong_to_thinkingbox_bench_only(tmp_path: Path) -> None:
    done = statebox("run", "retail", "--agent", "noop", "--out", tmp_path / "x", "--typesense", "http://localhost:8108")
    assert done.returncode == 2 and "only for thinkingbox-bench" in done.stderr
