"""The real ThinkingBox-Bench v1.0 release through statebox: a sample of every domain.

`statebox validate thinkingbox-bench --data D --server-python P --json` on the sample list, once
per session, against the benchmark's own tool servers (built by benchmarks/tb_env.py).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from realenv import NOOP_PASSES, ROOT, SAMPLE

STATEBOX = str(ROOT / ".venv" / "bin" / "statebox")
DOMAINS = {"sandbox_external_retail", "external_booking_v1", "sandbox_auto_insurance",
           "sandbox_neobank_support_v1", "sandbox_consulting"}  # fmt: skip


@pytest.fixture(scope="module")
def validated(tb_env: Any, sample_list: Path) -> dict[str, Any]:
    command = [STATEBOX, "validate", "thinkingbox-bench", "--data", str(tb_env.data),
               "--server-python", str(tb_env.python), "--test-list", str(sample_list), "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.stdout.strip(), f"validate printed nothing (exit {done.returncode}): {done.stderr[-2000:]}"
    report: dict[str, Any] = json.loads(done.stdout)
    report["exit"] = done.returncode
    return report


def tasks(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in report["tasks"]}


def test_the_sample_covers_all_five_domains(validated: dict[str, Any]) -> None:
    assert sorted(tasks(validated)) == sorted(SAMPLE)
    assert {task_id.split("_group")[0] for task_id in SAMPLE} == DOMAINS


def test_every_reference_passes_and_the_noop_passes_only_the_read_only_task(validated: dict[str, Any]) -> None:
    found = tasks(validated)
    failing = {t: r["problems"] for t, r in found.items() if not r["reference_passes"] or r["problems"]}
    assert failing == {}
    assert [t for t, r in found.items() if r["noop_passes"]] == [NOOP_PASSES]
    assert found[NOOP_PASSES]["read_only"] is True
    assert validated["exit"] == 0 and validated["counts"]["ok"] == len(SAMPLE)


def test_a_noops_typed_discrepancies_are_missing_effects_only(validated: dict[str, Any]) -> None:
    kinds = {t: r["noop_kinds"] for t, r in tasks(validated).items() if t != NOOP_PASSES}
    assert {t: k for t, k in kinds.items() if k != ["missing_effect"]} == {}


def test_the_typed_judge_agrees_with_the_hash_on_references_and_noops(validated: dict[str, Any]) -> None:
    found = tasks(validated)
    assert {t: r["judge_disagreements"] for t, r in found.items() if r["judge_disagreements"]} == {}
    assert all(r["typed_reference_passes"] is True for r in found.values())
    assert validated["counts"]["judge_attempts"] == 2 * len(SAMPLE)


def test_the_audit_replays_every_state_changing_reference_call_away(validated: dict[str, Any]) -> None:
    found = tasks(validated)
    assert found[NOOP_PASSES]["writes"] == 0  # its reference only reads
    assert all(r["writes"] > 0 for t, r in found.items() if t != NOOP_PASSES)
    counts = validated["counts"]
    assert counts["unnecessary_golden_writes"] == sum(len(r["unnecessary_writes"]) for r in found.values())
