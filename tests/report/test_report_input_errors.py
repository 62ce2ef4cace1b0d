"""Clear errors for directories that are not runs, empty runs, and corrupt lines."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from statebox.report.aggregate import build_report
from statebox.report.runs import ReportInputError, load_runs


def test_a_missing_directory_is_named(tmp_path: Path) -> None:
    with pytest.raises(ReportInputError, match=r"nope: no such directory"):
        load_runs([tmp_path / "nope"])


def test_a_directory_that_is_not_a_run_is_named(tmp_path: Path) -> None:
    (tmp_path / "photos").mkdir()
    with pytest.raises(ReportInputError, match=r"photos: not a statebox run directory"):
        load_runs([tmp_path / "photos"])


def test_an_empty_run_says_so(tmp_path: Path, synth: Any) -> None:
    empty = synth.write_run(tmp_path / "empty", [])
    with pytest.raises(ReportInputError, match=r"empty: nothing to report: the run has no finished attempts"):
        load_runs([empty])


def test_an_empty_shard_beside_a_full_one_is_a_warning(tmp_path: Path, synth: Any, run_dir: Path) -> None:
    loaded = load_runs([run_dir, synth.write_run(tmp_path / "empty", [])])
    assert any("empty: the run is empty" in w for w in loaded.warnings)
    assert len(loaded.trials) == 20


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('{"trial_id": "torn', r"not a JSON record \(Unterminated string"),
        ("not json at all", r"not a JSON record"),
        (json.dumps({"trial_id": "x"}), r"not a valid TrialFields \(suite: Field required\)"),
        ("[1, 2]", r"not a JSON object"),
    ],
)
def test_a_corrupt_line_is_refused_naming_file_and_line(tmp_path: Path, synth: Any, line: str, why: str) -> None:
    trials = synth.standard_trials()
    path = synth.write_run(tmp_path / "run", trials[:3], extra_lines=[line])
    with (path / "trials.jsonl").open("a") as f:
        f.write(trials[3].model_dump_json() + "\n")
    with pytest.raises(ReportInputError, match=rf"^{re.escape(str(path / 'trials.jsonl'))}:4: {why}"):
        load_runs([path])


def test_a_corrupt_error_line_is_refused_naming_errors_jsonl(tmp_path: Path, synth: Any) -> None:
    path = synth.write_run(tmp_path / "run", synth.standard_trials(), [synth.make_error("r3", 4)])
    with (path / "errors.jsonl").open("a") as f:
        f.write("{broken\n")
    with pytest.raises(ReportInputError, match=r"errors.jsonl:2: not a JSON record"):
        load_runs([path])


def test_an_unterminated_last_line_is_torn_skipped_and_said(tmp_path: Path, synth: Any) -> None:
    path = synth.write_run(tmp_path / "run", synth.standard_trials())
    with (path / "trials.jsonl").open("a") as f:
        f.write('{"schema_version": 1, "trial_id": "half')
    loaded = load_runs([path])
    assert len(loaded.trials) == 20
    assert loaded.warnings == [f"{path / 'trials.jsonl'}: skipped 1 torn line (line 21: a writer killed mid-line)"]
    assert build_report(loaded)["runs"][0]["attempts"] == 20


def test_a_corrupt_manifest_is_an_error(tmp_path: Path, synth: Any) -> None:
    path = synth.write_run(tmp_path / "run", synth.standard_trials())
    (path / "manifest.json").write_text("{broken")
    with pytest.raises(ReportInputError, match=r"manifest.json: cannot read the manifest"):
        load_runs([path])


def test_missing_tasks_against_the_manifest_are_a_warning(tmp_path: Path, synth: Any) -> None:
    trials = [t for t in synth.standard_trials() if t.task_id != "r3"]
    loaded = load_runs([synth.write_run(tmp_path / "run", trials)])
    assert any("lists 5 tasks but only 4 have records" in w for w in loaded.warnings)
