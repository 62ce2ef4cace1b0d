"""`--shard i/N` splits a campaign into disjoint, deterministic slices whose union is the whole campaign."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from statebox.runner.plan import shard_of
from statebox.runner.record import TrialRecord
from statebox.suites import load_suite

STATEBOX = str(Path(sys.executable).with_name("statebox"))
REPEAT = 2  # every retail task, twice: the reference agent is fast


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}


def _run_all(runs: dict[str, list[str]], tmp_path: Path) -> dict[str, Path]:
    """Run `statebox run retail --agent reference` once per entry, all at once; returns the run directories."""
    procs = {}
    for name, extra in runs.items():
        command = [STATEBOX, "run", "retail", "--agent", "reference", "--repeat", str(REPEAT)]
        command += [*extra, "--out", str(tmp_path / name), "--no-progress"]
        procs[name] = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        for name, proc in procs.items():
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, f"{name}: {err}"
    finally:
        for proc in procs.values():
            proc.kill()
            proc.wait()
    return {name: tmp_path / name for name in runs}


def _records(out: Path) -> dict[str, TrialRecord]:
    lines = (out / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    records = [TrialRecord.model_validate_json(line) for line in lines if line.strip()]
    by_id = {r.trial_id: r for r in records}
    assert len(by_id) == len(records), f"{out}: a trial recorded twice"
    return by_id


def _report(*dirs: Path) -> Any:
    done = subprocess.run(
        [STATEBOX, "report", *map(str, dirs), "--json"], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("shards")
    return _run_all({"full": [], "a": ["--shard", "0/2"], "b": ["--shard", "1/2"]}, tmp)


def test_two_shards_are_disjoint_and_together_are_the_whole_campaign(runs: dict[str, Path]) -> None:
    full, a, b = (set(_records(runs[n])) for n in ("full", "a", "b"))
    assert len(full) == len(load_suite("retail").tasks) * REPEAT
    assert a and b, "both shards get work"
    assert not a & b, f"trials in both shards: {sorted(a & b)[:5]}"
    assert a | b == full, {"missing": sorted(full - (a | b))[:5], "extra": sorted((a | b) - full)[:5]}


def test_a_trial_is_in_the_shard_of_its_stable_hash(runs: dict[str, Path]) -> None:
    for index, name in enumerate(("a", "b")):
        wrong = [t for t in _records(runs[name]) if shard_of(t, 2) != index]
        assert not wrong, f"shard {index}/2 ran trials of the other shard: {wrong[:5]}"


def test_a_sharded_trial_is_the_same_as_in_the_unsharded_run(runs: dict[str, Path]) -> None:
    full = _records(runs["full"])
    for name in ("a", "b"):
        for tid, rec in _records(runs[name]).items():
            same = (rec.seed, rec.passed, rec.state_hash, rec.effects)
            assert same == (full[tid].seed, full[tid].passed, full[tid].state_hash, full[tid].effects), tid


def test_report_of_both_shards_equals_the_report_of_the_unsharded_run(runs: dict[str, Path]) -> None:
    whole = _report(runs["full"])
    assert _report(runs["a"], runs["b"]) == whole
    assert _report(runs["b"], runs["a"]) == whole
