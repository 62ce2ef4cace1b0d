"""Shards merge, trial ids dedupe, and `report --json` does not depend on line order or timings."""

import json
import random
from pathlib import Path
from typing import Any

from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs
from statebox.runner.record import TrialRecord


def _json(*dirs: Path, errors_as_failures: bool = False) -> str:
    return json.dumps(build_report(load_runs(list(dirs)), errors_as_failures=errors_as_failures), indent=2)


def test_two_shards_equal_one_directory_with_all_trials(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials()
    whole = synth.write_run(tmp_path / "whole", trials)
    shard_0 = synth.write_run(tmp_path / "s0", trials[::2])
    shard_1 = synth.write_run(tmp_path / "s1", trials[1::2])
    assert _json(shard_0, shard_1) == _json(whole)
    assert _json(shard_1, shard_0) == _json(whole)


def test_a_trial_in_two_shards_counts_once(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials()
    shard_0 = synth.write_run(tmp_path / "s0", trials[:12])
    shard_1 = synth.write_run(tmp_path / "s1", trials[8:])
    whole = synth.write_run(tmp_path / "whole", trials)
    assert _json(shard_0, shard_1) == _json(whole)


def test_line_order_and_timings_do_not_change_the_json(tmp_path: Path, synth: Any) -> None:
    trials: list[TrialRecord] = synth.standard_trials()
    reshuffled = [t.model_copy(update={"timings": {"total_s": random.random() * 100}}) for t in trials]
    random.Random(7).shuffle(reshuffled)
    errors = [synth.make_error("r1", 4), synth.make_error("i2", 5, kind="tool_server")]
    a = synth.write_run(tmp_path / "a", trials, errors, repeat=6)
    b = synth.write_run(tmp_path / "b", reshuffled, errors[::-1], repeat=6)
    for convention in (False, True):
        assert _json(a, errors_as_failures=convention) == _json(b, errors_as_failures=convention)


def test_timing_fields_never_reach_the_json(run_dir: Path) -> None:
    text = _json(run_dir)
    assert "timings" not in text and "total_s" not in text and "started_at" not in text


def test_groups_are_one_entry_per_suite_agent_model_sorted(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials("openai:zeta") + synth.standard_trials("anthropic:alpha")
    trials += synth.standard_trials(model=None, agent="reference")
    runs = build_report(load_runs([synth.write_run(tmp_path / "run", trials)]))["runs"]
    assert [(r["agent"], r["model"]) for r in runs] == [
        ("llm", "anthropic:alpha"),
        ("llm", "openai:zeta"),
        ("reference", None),
    ]
    assert all(r["attempts"] == 20 for r in runs)
