"""manifest.json is one versioned model (runner/manifest.py), written and read through it.

The fixtures in manifests/ are manifests as earlier statebox versions wrote them: `run_v1.json` and
`regraded_v1.json` by `statebox run` and `statebox regrade` just before the model existed (schema version
1), `before_schema_versions.json` with the keys the first run store wrote (no `schema_version`, `workers`,
`rubrics_judged`, nor sampling's `thinking_budget`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from statebox.cli import app
from statebox.runner.record import SCHEMA_VERSION
from statebox.runner.store import MANIFEST, RunDir, RunDirError

FIXTURES = Path(__file__).parent / "manifests"


def _run_with(tmp_path: Path, fixture: str) -> RunDir:
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(FIXTURES / fixture, run / MANIFEST)
    return RunDir(run)


@pytest.mark.parametrize("fixture", ["run_v1.json", "regraded_v1.json"])
def test_a_manifest_of_version_1_reads_and_writes_back_the_same_entries(tmp_path: Path, fixture: str) -> None:
    run = _run_with(tmp_path, fixture)
    written = json.loads((FIXTURES / fixture).read_text())
    assert run.manifest().as_json() == written
    run.write_manifest(run.manifest())
    assert json.loads((run.path / MANIFEST).read_text()) == written


def test_a_manifest_from_before_schema_versions_reads_with_the_defaults_of_later_keys(tmp_path: Path) -> None:
    manifest = _run_with(tmp_path, "before_schema_versions.json").manifest()
    added = {"schema_version": 1, "workers": None, "rubrics_judged": False}
    written = json.loads((FIXTURES / "before_schema_versions.json").read_text())
    assert manifest.as_json() == written | added | {"sampling": written["sampling"] | {"thinking_budget": None}}
    assert (manifest.suite, manifest.repeat, manifest.tasks, manifest.regraded) == ("retail", 1, 1, None)


def test_the_regrade_section_reads_as_its_model(tmp_path: Path) -> None:
    regraded = _run_with(tmp_path, "regraded_v1.json").manifest().regraded
    assert regraded is not None
    assert (regraded.from_, regraded.state_rejudged, regraded.tasks_changed) == ("/tmp/shapes-old", True, [])


def test_a_manifest_of_a_newer_version_is_refused_naming_the_file(tmp_path: Path) -> None:
    run = _run_with(tmp_path, "run_v1.json")
    newer = json.loads((run.path / MANIFEST).read_text()) | {"schema_version": SCHEMA_VERSION + 1, "suite": 7}
    (run.path / MANIFEST).write_text(json.dumps(newer))
    with pytest.raises(RunDirError) as refused:
        run.manifest()
    assert str(refused.value) == (
        f"{run.path / MANIFEST}: schema_version {SCHEMA_VERSION + 1}, but this statebox reads versions 1 to "
        f"{SCHEMA_VERSION}; read it with the statebox that wrote it"
    )


def test_report_on_a_run_with_a_newer_manifest_is_one_error_line(tmp_path: Path) -> None:
    run = _run_with(tmp_path, "run_v1.json")
    (run.path / "trials.jsonl").write_text("")
    newer = json.loads((run.path / MANIFEST).read_text()) | {"schema_version": SCHEMA_VERSION + 1}
    (run.path / MANIFEST).write_text(json.dumps(newer))
    result = CliRunner().invoke(app, ["report", str(run.path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {run.path / MANIFEST}: schema_version"), result.stderr


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ('{"agent": "llm", "repeat": 1}', "not a valid manifest (suite: Field required)"),
        ('{"suite": "retail", "agent": "llm", "repeat": "many"}', "not a valid manifest (repeat: Input should be"),
        ("[1]", "cannot read the manifest: not a JSON object"),
        ("{broken", "cannot read the manifest: Expecting property name"),
        ('{"schema_version": "1", "suite": "retail", "agent": "llm", "repeat": 1}', "schema_version '1', but"),
    ],
)
def test_a_file_that_is_not_a_manifest_is_refused_saying_why(tmp_path: Path, content: str, why: str) -> None:
    (tmp_path / MANIFEST).write_text(content)
    with pytest.raises(RunDirError) as refused:
        RunDir(tmp_path).manifest()
    assert str(refused.value).startswith(f"{tmp_path / MANIFEST}: {why}"), str(refused.value)


def test_a_suites_own_entries_are_kept_and_win_over_the_generic_ones(tmp_path: Path) -> None:
    base = _run_with(tmp_path, "run_v1.json").manifest()
    own = {"tools_via": "stdio", "tau_bench": {"domain": "retail", "split": "test"}}
    manifest = base.with_entries(own)
    RunDir(tmp_path / "again").write_manifest(manifest)
    back = RunDir(tmp_path / "again").manifest()
    assert (back.tools_via, back.entry("tau_bench"), back.entry("thinkingbox")) == ("stdio", own["tau_bench"], None)
    assert back == manifest


def test_resume_compares_the_entries_that_change_results(tmp_path: Path) -> None:
    run = _run_with(tmp_path, "run_v1.json")
    recorded = run.manifest()
    run.check_resumable(recorded.model_copy(update={"concurrency": 16, "repeat": 3}))  # neither changes results
    with pytest.raises(RunDirError, match=r"cannot resume: the campaign differs .*judge_model: None -> 'openai:j'"):
        run.check_resumable(recorded.model_copy(update={"judge_model": "openai:j"}))
    with pytest.raises(RunDirError, match=r"cannot resume with fewer repeats \(0\) than recorded \(1\)"):
        run.check_resumable(recorded.model_copy(update={"repeat": 0}))

