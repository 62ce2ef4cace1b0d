"""`statebox import tb-infer`: ThinkingBox's `tb infer` output re-graded on the benchmark's servers (here a fake
checkout's): each attempt's calls replayed, its verdict beside the recorded `test_result`, bad rows refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tb_rows import call, row

from statebox.runner.store import RunDir
from tbfakes import RETAIL_FILE, FakeCheckout, make_fake_checkout

STATEBOX = str(Path(sys.executable).with_name("statebox"))
CANCEL = ("test_cancel_order", "Please cancel order ORD-2.")


def statebox(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}} | {"COLUMNS": "400"}
    return subprocess.run(
        [STATEBOX, *map(str, args)], capture_output=True, text=True, env=env, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> FakeCheckout:
    return make_fake_checkout(tmp_path_factory.mktemp("tb-import"))


def write_rows(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_reference_and_noop_plays_regrade_to_their_recorded_results(fake: FakeCheckout, tmp_path: Path) -> None:
    reference = [call("get_order", order_id="ORD-2"), call("cancel_order", order_id="ORD-2", reason="customer_request")]
    rows = [
        row(RETAIL_FILE, *CANCEL, reference, True),
        row(RETAIL_FILE, *CANCEL, [], False, repetition=1),
        row(RETAIL_FILE, *CANCEL, reference[:1], None, repetition=2),
    ]
    file = write_rows(tmp_path / "infer.jsonl", rows)
    done = statebox("import", "tb-infer", file, "--data", fake.root, "--out", tmp_path / "run")
    assert done.returncode == 0, done.stdout + done.stderr
    trials = sorted(RunDir(tmp_path / "run").trials(), key=lambda t: t.repeat)
    assert [t.task_id for t in trials] == [f"{RETAIL_FILE}:test_cancel_order"] * 3
    assert [(t.passed, t.recorded.passed if t.recorded else "?") for t in trials] == [
        (True, True),
        (False, False),
        (False, None),
    ]
    assert trials[2].finish_reason == "cut_off" and trials[0].finish_reason == "agent_ended"
    assert (
        "statebox agrees with the recorded verdict on 2/2 finished attempts (100.0%); 1 cut off"
        in statebox("report", tmp_path / "run").stdout
    )


def test_a_line_that_is_not_a_decode_result_is_refused_naming_it(fake: FakeCheckout, tmp_path: Path) -> None:
    file = tmp_path / "infer.jsonl"
    file.write_text(json.dumps(row(RETAIL_FILE, *CANCEL, [], False)) + "\n" + json.dumps({"task_id": 1}) + "\n")
    done = statebox("import", "tb-infer", file, "--data", fake.root, "--out", tmp_path / "run")
    assert done.returncode == 2 and not (tmp_path / "run").exists()
    assert (
        done.stderr.strip() == f"error: {file}: line 2: not a tb infer output row (expected one JSON object per "
        "line with uid, messages, test_result and metadata.test_case_file)"
    )


def test_a_task_outside_the_test_list_is_refused_naming_the_line(fake: FakeCheckout, tmp_path: Path) -> None:
    file = write_rows(tmp_path / "infer.jsonl", [row(RETAIL_FILE, "test_nothing_like_it", "Hi", [], False)])
    done = statebox("import", "tb-infer", file, "--data", fake.root, "--out", tmp_path / "run")
    assert done.returncode == 2
    assert (
        f"error: {file}: line 1: task {RETAIL_FILE}:test_nothing_like_it is not in the checkout's test list"
        in done.stderr
    )
