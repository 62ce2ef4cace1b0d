"""`statebox regrade`: stored attempts judged again with today's tasks, into a new run, never touching the old one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from offline_kit import small_suite, tree_bytes, with_extra_comment
from rich.console import Console

from statebox.cli.offline import print_regrade
from statebox.offline.regrade import RegradeError, regrade_run
from statebox.runner.store import RunDir

# Runs `statebox ARGS...` in a fresh interpreter that refuses every outgoing connection.
NO_NETWORK = """
import sys
def guard(event, args):
    if event == "socket.connect":
        raise RuntimeError(f"regrade opened a network connection: {args[1]!r}")
sys.addaudithook(guard)
from statebox.cli import main
sys.argv = ["statebox", *sys.argv[1:]]
main()
"""


def _statebox_offline(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NO_NETWORK, *args], capture_output=True, text=True, timeout=120)


def _verdicts(run: Path) -> dict[str, tuple[bool, bool, str | None, list[str]]]:
    return {t.trial_id: (t.passed, t.state_passed, t.signature, [d.describe() for d in t.discrepancies])
            for t in RunDir(run).trials()}  # fmt: skip


def test_regrading_an_unchanged_run_reproduces_every_verdict_with_no_network(runs: tuple[Path, Path]) -> None:
    for run in runs:
        out = run.with_name(run.name + "-same")
        done = _statebox_offline("regrade", str(run), "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "verdicts flipped: 0" in done.stdout, done.stdout
        assert _verdicts(out) == _verdicts(run)


def test_a_reference_needing_one_more_write_flips_exactly_the_attempts_that_lack_it(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    suite = small_suite()
    edited = suite.tasks[0].id
    _, fake = runs
    before = RunDir(fake).trials()
    result = regrade_run(fake, tmp_path / "regraded", with_extra_comment(suite, edited), [])
    expected_flips = {t.trial_id for t in before if t.task_id == edited and t.passed}
    assert expected_flips, "the flaky run should have passed the edited task at least once"
    assert {f.trial_id for f in result.flips} == expected_flips
    assert all("missing_effect: ticket_comments" in f.reason for f in result.flips), [f.reason for f in result.flips]
    assert result.changed_tasks == [edited]
    after = {t.trial_id: t for t in RunDir(tmp_path / "regraded").trials()}
    unchanged = {t.trial_id: t.passed for t in before if t.task_id != edited}
    assert {tid: after[tid].passed for tid in unchanged} == unchanged


def test_the_cli_names_the_flips_and_the_changed_tasks(runs: tuple[Path, Path], tmp_path: Path) -> None:
    suite = small_suite()
    result = regrade_run(runs[0], tmp_path / "r", with_extra_comment(suite, suite.tasks[0].id), [])
    console = Console(record=True, width=80, soft_wrap=True)
    print_regrade(result, console)
    text = console.export_text()
    assert f"tasks changed since the run (required effects from today's reference): {suite.tasks[0].id}" in text
    assert f"verdicts flipped: {len(result.flips)}" in text and "pass -> FAIL" in text, text
    assert "before  reference -: pass@1 100.0%" in text and "after   reference -: pass@1" in text, text


def test_the_original_run_directory_is_byte_identical_afterwards(runs: tuple[Path, Path], tmp_path: Path) -> None:
    _, fake = runs
    original = tree_bytes(fake)
    regrade_run(fake, tmp_path / "regraded", with_extra_comment(small_suite(), small_suite().tasks[0].id), [])
    assert tree_bytes(fake) == original


def test_report_and_compare_read_the_regraded_run(runs: tuple[Path, Path], tmp_path: Path) -> None:
    _, fake = runs
    out = tmp_path / "regraded"
    regrade_run(fake, out, with_extra_comment(small_suite(), small_suite().tasks[0].id), [])
    report = _statebox_offline("report", str(out), "--json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["runs"][0]["attempts"] == len(RunDir(fake).trials())
    compare = _statebox_offline("compare", str(fake), str(out), "--json")
    assert compare.returncode == 0, compare.stderr
    assert {u["reason"] for u in json.loads(compare.stdout)["unpaired"]} == {"task content differs"}


def test_regrade_refuses_to_write_over_a_run(runs: tuple[Path, Path]) -> None:
    reference, fake = runs
    with pytest.raises(RegradeError, match="already holds a run"):
        regrade_run(fake, reference, small_suite(), [])
    done = _statebox_offline("regrade", str(fake), "--out", str(fake))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1, done.stderr
