"""The checkout's custom-check tests judged by statebox and by the official harness, side by side, with the same
scripted endpoint playing agent, customer and judge: verdicts agree on every test the official harness runs.

Three plays: an agent that does nothing with a judge answering yes; the same with a judge answering no; an
agent that hands off (`transfer_to_human_agents`, where the task's scenario offers it) with a judge answering
yes. The one test tagged `skip` is not among them: the official harness refuses a test list naming it
(its loader leaves it out), and statebox leaves it out too.

Opt-in like the rest of tests/compat_real (`STATEBOX_REAL_TB=1`); the official harness is built once into
.cache/tb-official-checks by benchmarks/tb_official.py, with the servers the custom checks need. Each play
prints its agreement line (`-s` shows them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from realenv import ROOT, THIRDPARTY
from test_real_custom_checks import STATEBOX, custom_ids

SKIPPED = "banking.py:test_pay_mortgage_bot_instructions"
PLAYS = {"judge yes": ("Yes", None), "judge no": ("No", None), "hand-off": ("Yes", "transfer_to_human_agents")}


def benchmarks() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import tb_official
    import tb_scripted_model

    return tb_official, tb_scripted_model


@pytest.fixture(scope="module")
def runnable(tb_env: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    ids = [i for i in custom_ids(Path(tb_env.data)) if i != SKIPPED]
    path = tmp_path_factory.mktemp("tb-vs-official") / "runnable.yaml"
    path.write_text(yaml.safe_dump(ids))
    return path


@pytest.fixture(scope="module")
def official(tb_env: Any) -> Any:
    tb_official, _ = benchmarks()
    try:
        return tb_official.build_official(THIRDPARTY, Path(tb_env.data), ROOT / ".cache" / "tb-official-checks",
                                          tools=True)  # fmt: skip
    except tb_official.OfficialError as e:
        pytest.fail(f"building the official harness failed: {e}")


@pytest.fixture(scope="module")
def copy(tb_env: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    tb_official, _ = benchmarks()
    return tb_official.typesense_free_copy(Path(tb_env.data), tmp_path_factory.mktemp("tb-copy") / "data")


@contextmanager
def endpoint_for(tb_env: Any, runnable: Path, judge: str, handoff: str | None) -> Iterator[str]:
    _, tb_scripted_model = benchmarks()
    scripts = tb_scripted_model.scripts_of(Path(tb_env.data), runnable)
    thread = tb_scripted_model.EndpointThread(tb_scripted_model.ScriptedEndpoint(scripts, judge, handoff))
    url = thread.start()
    try:
        yield url
    finally:
        thread.stop()


def official_verdicts(official: Any, copy: Path, work: Path, url: str, runnable: Path) -> dict[str, bool]:
    tb_official, _ = benchmarks()
    tb_official.OfficialRun(official, copy, work).run(url, runnable, repeat=1, batch=4, timeout_s=1800)
    rows = [json.loads(line) for line in (work / "infer.jsonl").read_text().splitlines() if line.strip()]
    return {row["uid"]: tb_official.row_passed(row) for row in rows}


def statebox_verdicts(tb_env: Any, url: str, runnable: Path, out: Path) -> dict[str, bool]:
    command = [STATEBOX, "run", "thinkingbox-bench", "--data", str(tb_env.data), "--server-python", str(tb_env.python),
               "--test-list", str(runnable), "--agent", "llm", "--model", "openai:scripted", "--base-url",
               f"{url}/v1", "--out", str(out), "--concurrency", "4", "--no-progress"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False,
                          env={**os.environ, "COLUMNS": "200"})  # fmt: skip
    assert (out / "trials.jsonl").is_file(), f"statebox run failed ({done.returncode}): {done.stderr[-2000:]}"
    trials = [json.loads(line) for line in (out / "trials.jsonl").read_text().splitlines()]
    assert all(not t["not_judged"] for t in trials), "every judge question had the judge model"
    return {t["task_id"]: t["passed"] for t in trials}


@pytest.mark.parametrize("play", PLAYS, ids=list(PLAYS))
def test_statebox_and_the_official_harness_agree_on_every_runnable_custom_check(
    tb_env: Any, official: Any, copy: Path, runnable: Path, tmp_path: Path, play: str
) -> None:
    judge, handoff = PLAYS[play]
    ids = yaml.safe_load(runnable.read_text())
    with endpoint_for(tb_env, runnable, judge, handoff) as url:
        theirs = official_verdicts(official, copy, tmp_path / "official", url, runnable)
        ours = statebox_verdicts(tb_env, url, runnable, tmp_path / "statebox")
    assert sorted(theirs) == sorted(ours) == sorted(ids), "both judged every runnable test once"
    differ = {task: (ours[task], theirs[task]) for task in ids if ours[task] != theirs[task]}
    agree = len(ids) - len(differ)
    print(f"\n{play}: {agree}/{len(ids)} agree; passes statebox {sum(ours.values())}, official {sum(theirs.values())}")
    assert differ == {}, f"(statebox, official) where they differ: {differ}"


def test_the_skipped_test_is_left_out_by_statebox_and_refused_by_the_official_loader(
    tb_env: Any, official: Any, copy: Path, tmp_path: Path
) -> None:
    both = tmp_path / "both.yaml"
    both.write_text(yaml.safe_dump(["banking.py:test_check_balance_1", SKIPPED]))
    listing = subprocess.run([STATEBOX, "tasks", "thinkingbox-bench", "--data", str(tb_env.data), "--test-list",
                              str(both), "--all", "--json"], capture_output=True, text=True, timeout=300,
                             check=False)  # fmt: skip
    found = json.loads(listing.stdout)
    assert ([t["id"] for t in found["tasks"]], found["skipped"]) == (["banking.py:test_check_balance_1"], [SKIPPED])
    tb_official, _ = benchmarks()
    scripted = _single(tmp_path, "banking.py:test_check_balance_1")
    with endpoint_for(tb_env, scripted, "Yes", None) as url, pytest.raises(tb_official.OfficialError) as refused:
        tb_official.OfficialRun(official, copy, tmp_path / "official").run(
            url, _single(tmp_path, SKIPPED), repeat=1, batch=1, timeout_s=600
        )
    assert "FileNotFoundError" in str(refused.value), str(refused.value)


def _single(tmp_path: Path, task_id: str) -> Path:
    path = tmp_path / f"{task_id.replace(':', '_')}.yaml"
    path.write_text(yaml.safe_dump([task_id]))
    return path
