"""A `tb infer` output file produced by the official ThinkingBox harness (its `tb mcp-start` proxy and `tb infer`,
played by benchmarks/tb_scripted_model.py's endpoint: the reference, and a no-op that only says it is done)
imports and re-grades to the same pass/fail as each row's own `test_result`.

Opt-in like tests/compat_real: the releases folder `../shared/thirdparty` (or `STATEBOX_THIRDPARTY`) and
`STATEBOX_REAL_TB=1`; the servers' environment comes from benchmarks/tb_env.py, the harness from
benchmarks/tb_official.py (both cached in .cache/)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from statebox.runner.store import RunDir

ROOT = Path(__file__).resolve().parents[2]
THIRDPARTY = Path(os.environ.get("STATEBOX_THIRDPARTY") or ROOT.parent / "shared" / "thirdparty")
STATEBOX = str(Path(sys.executable).with_name("statebox"))
TASKS = [  # a write, a booking with its own server, and the one task the no-op passes
    "sandbox_external_retail_group1.py:test_case_ST002_001",
    "external_booking_v1_group1.py:test_bmd_001",
    "sandbox_neobank_support_v1_group1.py:test_he_017",
]


def script(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Path, Path]:
    if not (THIRDPARTY / "README.md").is_file():
        pytest.skip(f"third-party releases not found at {THIRDPARTY} (a user's clone has none)")
    if os.environ.get("STATEBOX_REAL_TB") != "1":
        pytest.skip("tests on the real ThinkingBox-Bench release are opt-in: set STATEBOX_REAL_TB=1 (.ci/run does)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    env = script("tb_env").build_env(THIRDPARTY)
    official = script("tb_official")
    work = tmp_path_factory.mktemp("tb-infer")
    copy = official.typesense_free_copy(env.data, work / "copy")
    test_list = work / "list.yaml"
    test_list.write_text(yaml.safe_dump(TASKS))
    cache = os.environ.get("STATEBOX_TB_OFFICIAL_CACHE")  # where the harness is built, if not .cache/tb-official
    built = (
        official.build_official(THIRDPARTY, env.data, Path(cache))
        if cache
        else official.build_official(THIRDPARTY, env.data)
    )
    return env, built, copy, test_list


def infer(harness: tuple[Any, Any, Path, Path], work: Path, noop: bool) -> Path:
    """`tb infer` on the tasks against the scripted endpoint (its scripts emptied for the no-op)."""
    env, built, copy, test_list = harness
    scripted, official = script("tb_scripted_model"), script("tb_official")
    scripts = scripted.scripts_of(env.data, test_list)
    endpoint = scripted.ScriptedEndpoint({k: [] for k in scripts} if noop else scripts)
    thread = scripted.EndpointThread(endpoint)
    url = thread.start()
    try:
        official.OfficialRun(built, copy, work).run(url, test_list, repeat=1, batch=3, timeout_s=900)
    finally:
        thread.stop()
    return work / "infer.jsonl"


@pytest.mark.parametrize("play", ["reference", "noop"])
def test_an_official_tb_infer_file_regrades_to_its_own_test_results(
    harness: tuple[Any, Any, Path, Path], tmp_path: Path, play: str
) -> None:
    output = infer(harness, tmp_path / "official", noop=play == "noop")
    rows = [json.loads(line) for line in output.read_text().splitlines() if line.strip()]
    assert len(rows) == len(TASKS), output.read_text()[:2000]
    env = harness[0]
    done = subprocess.run([STATEBOX, "import", "tb-infer", str(output), "--data", str(env.data), "--server-python",
                           str(env.python), "--out", str(tmp_path / "run")], capture_output=True, text=True,
                          timeout=900, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    trials = RunDir(tmp_path / "run").trials()
    official = {r["uid"]: r["test_result"]["result"] for r in rows}  # run from a test list: `<file>.py:<function>`
    statebox = {t.task_id: t.passed for t in trials}
    assert statebox == official, f"statebox {statebox}, the harness {official}"
    if play == "noop":
        assert [task for task, passed in official.items() if passed] == [TASKS[2]]
    else:
        assert all(official.values())
