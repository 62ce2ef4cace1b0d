"""`inspect eval statebox/thinkingbox_bench` on the real ThinkingBox-Bench release: three tasks of its sample (a
rubric variant among them, judged through the `judge` model role) give the verdict documents `statebox run`
gives the same play. Runs only where the release is (../shared/thirdparty, or $STATEBOX_THIRDPARTY) and
STATEBOX_REAL_TB=1; skips saying why elsewhere. The servers' environment comes from benchmarks/tb_env.py.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_tb_kit import Bench, inspect_eval_cli, statebox_run_verdicts, verdicts

from statebox.integrations.inspect_task.thinkingbox import open_thinkingbox

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
THIRDPARTY = Path(os.environ.get("STATEBOX_THIRDPARTY") or ROOT.parent / "shared" / "thirdparty")
SWITCH = "STATEBOX_REAL_TB"
TASKS = [
    "sandbox_external_retail_group1.py:test_case_ST002_001",
    "external_booking_v1_group1_rubrics_yesno.py:test_bmd_004",
    "sandbox_neobank_support_v1_group1.py:test_he_017",
]


def _skip_reason() -> str | None:
    if not (THIRDPARTY / "README.md").is_file():
        return f"real ThinkingBox-Bench release not found at {THIRDPARTY} (a user's clone has none)"
    if os.environ.get(SWITCH) != "1":
        return f"real ThinkingBox-Bench tests are opt-in: set {SWITCH}=1 (.ci/run does)"
    return None


def _tb_env() -> Any:
    spec = importlib.util.spec_from_file_location("tb_env_for_inspect", ROOT / "benchmarks" / "tb_env.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))  # dataclasses look it up
    spec.loader.exec_module(module)
    return module.build_env(THIRDPARTY)


@pytest.fixture(scope="module")
def bench() -> Bench:
    reason = _skip_reason()
    if reason is not None:
        pytest.skip(reason)
    env = _tb_env()
    return Bench(env.data, str(env.python), open_thinkingbox(env.data, str(env.python)).select(TASKS), TASKS)


def test_the_real_release_through_inspect_gives_statebox_runs_verdicts(bench: Bench, tmp_path: Path) -> None:
    assert bench.suite.task(TASKS[1]).asks_judge_model(), "the rubric variant should ask the judge model"
    log, seen = inspect_eval_cli(bench, tmp_path / "logs", judge_answer="yes")
    found = verdicts(log)
    assert sorted(found) == sorted(TASKS)
    assert {sid: m["value"] for sid, m in found.items()} == dict.fromkeys(TASKS, "C"), found
    assert found[TASKS[1]]["verdict"]["rubrics"]["status"] == "judged" and seen["judge"]["judge"] >= 1, seen
    documents = {sid: m["verdict"] for sid, m in found.items()}
    assert documents == statebox_run_verdicts(bench, tmp_path / "run", judge_answer="yes")
