"""`statebox import tau-bench` on τ-bench's own code: the sample of real trajectories reproduces each recorded
reward; built trajectories give every verdict and discrepancy kind; the imported run reports, verifies,
shows and exports like any run, and a source file changed after the import is detected."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from taureal import SAMPLE
from trajectories import record, write

from statebox.compat.taubench.checkout import TauCheckout
from statebox.runner.record import TrialRecord
from statebox.runner.store import RunDir

STATEBOX = str(Path(sys.executable).with_name("statebox"))


def statebox(*args: str | Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}} | {"COLUMNS": "400"}
    return subprocess.run(
        [STATEBOX, *map(str, args)], capture_output=True, text=True, env=env, timeout=timeout, check=False
    )


def imported(tau_env: Any, file: Path, out: Path, *extra: str) -> dict[int, TrialRecord]:
    done = statebox(
        "import", "tau-bench", file, "--data", tau_env.data, "--server-python", tau_env.python, "--out", out, *extra
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {t.recorded.record: t for t in RunDir(out).trials() if t.recorded is not None}


@pytest.fixture(scope="module")
def sample_run(tau_env: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("tau-sample")
    source = shutil.copy(SAMPLE, work / "sample.json")  # a copy: one test changes it
    imported(tau_env, Path(source), work / "run", "--model", "gpt-4o")
    return work / "run"


def test_the_sample_reproduces_every_recorded_reward(sample_run: Path) -> None:
    trials = RunDir(sample_run).trials()
    recorded = json.loads(SAMPLE.read_text())
    assert len(trials) == len(recorded) == 4
    by_trial = {t.repeat: t for t in trials}
    for r in recorded:
        t = by_trial[r["trial"]]
        assert t.recorded is not None and t.recorded.reward == r["reward"]
        assert t.passed is (r["reward"] == 1.0), f"trial {r['trial']}: recorded {r['reward']}, statebox {t.passed}"
        assert t.effects["tau_bench"]["reward"] == r["reward"], "τ-bench's own reward on the replay differs"


def test_an_imported_run_reports_pass_hat_k_with_intervals_and_the_failure_analysis(sample_run: Path) -> None:
    done = statebox("report", sample_run, "--json")
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["runs"][0]
    assert entry["agent"] == "imported" and entry["model"] == "gpt-4o" and entry["repeats"] == 4
    assert entry["pass_at_1"] == 0.25 and entry["pass_hat_k"]["4"] == 0.0
    assert entry["pass_hat_k_ci"]["4"] is not None and entry["pass_at_1_ci"] is not None
    assert entry["failure_analysis"]["failed_attempts"] == 3
    assert entry["judge_agreement"]["attempts"] == 4


def test_report_prints_the_agreement_with_the_recorded_rewards(sample_run: Path) -> None:
    done = statebox("report", sample_run)
    assert done.returncode == 0, done.stderr
    assert "statebox agrees with the recorded verdict on 4/4 finished attempts (100.0%); 0 cut off" in done.stdout
    assert "the data changed since" in done.stdout  # the recording's own replay hashed otherwise than 59a200c's


def test_verify_passes_on_an_imported_run(sample_run: Path, tau_env: Any) -> None:
    done = statebox("verify", sample_run, "--data", tau_env.data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   source" in done.stdout


def test_show_html_compare_and_export_work_on_an_imported_run(sample_run: Path, tau_env: Any, tmp_path: Path) -> None:
    shown = statebox("show", sample_run, "1", "--repeat", "1", "--data", tau_env.data)
    assert shown.returncode == 0 and "cancel_reservation" in shown.stdout, shown.stderr
    html = statebox("report", sample_run, "--html", tmp_path / "r.html")
    assert html.returncode == 0 and (tmp_path / "r.html").stat().st_size > 10_000, html.stderr
    compared = statebox("compare", sample_run, sample_run, "--json")
    assert compared.returncode == 0 and json.loads(compared.stdout)["tasks"] == 1, compared.stderr
    exported = statebox("export", sample_run)
    assert exported.returncode == 0 and len(exported.stdout.splitlines()) == 4, exported.stderr


def test_a_source_file_changed_after_the_import_is_detected(sample_run: Path, tau_env: Any) -> None:
    source = Path(json.loads((sample_run / "manifest.json").read_text())["imported"]["source"])
    source.write_text(source.read_text().replace('"reward": 1.0', '"reward": 0.0', 1))
    done = statebox("verify", sample_run, "--data", tau_env.data)
    assert done.returncode == 1
    assert f"FAIL source    {source} changed since it was imported" in done.stdout


@pytest.fixture(scope="module")
def built(tau_env: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, TrialRecord]:
    """Trajectories built on airline tasks 1, 2 and 14, one per verdict and discrepancy kind."""
    c = TauCheckout(tau_env.data)
    tasks, wiki = c.tasks("airline", "test"), c.wiki("airline")
    one, two, bags = (tasks[i].model_dump(mode="json") for i in (1, 2, 14))
    cancel = ("cancel_reservation", {"reservation_id": "Z7GOZK"})
    two_calls = [(a["name"], a["kwargs"]) for a in two["actions"]]
    bag_calls = [(a["name"], dict(a["kwargs"])) for a in bags["actions"]]
    bag_calls[-1][1]["total_baggages"] = 3  # one value off
    cases = {
        "reference": record(1, 0, one, [cancel], wiki=wiki),
        "missing write": record(1, 1, one, [], reward=0.0, wiki=wiki),
        "extra write": record(
            1, 2, one, [cancel, ("cancel_reservation", {"reservation_id": "K67C4W"})], reward=0.0, wiki=wiki
        ),
        "cut off": record(1, 3, one, [cancel], finished=False, wiki=wiki),
        "output said": record(2, 0, two, two_calls, says="That makes 23553 in total.", wiki=wiki),
        "missing output": record(2, 1, two, two_calls, says="All done.", reward=0.0, wiki=wiki),
        "wrong value": record(14, 0, bags, bag_calls, reward=0.0, wiki=wiki),
    }
    work = tmp_path_factory.mktemp("tau-built")
    trials = imported(tau_env, write(work / "built.json", list(cases.values())), work / "run")
    return {name: trials[i] for i, name in enumerate(cases)}


def kinds(t: TrialRecord) -> set[tuple[str, str]]:
    return {(d.kind, d.table) for d in t.discrepancies}


def test_the_reference_actions_pass_with_no_discrepancy(built: dict[str, TrialRecord]) -> None:
    t = built["reference"]
    assert t.passed and t.discrepancies == [] and t.finish_reason == "customer_ended"


def test_a_missing_write_fails_with_missing_effects(built: dict[str, TrialRecord]) -> None:
    t = built["missing write"]
    assert not t.passed and t.signature == "no_state_change"
    assert ("missing_effect", "reservations") in kinds(t), t.discrepancies


def test_an_extra_write_fails_with_an_extra_effect(built: dict[str, TrialRecord]) -> None:
    t = built["extra write"]
    assert not t.passed and t.signature == "wrong_state_update"
    assert ("extra_effect", "reservations") in kinds(t), t.discrepancies
    assert all(d.key == "K67C4W" for d in t.discrepancies if d.table == "reservations"), t.discrepancies


def test_a_wrong_value_fails_naming_the_field(built: dict[str, TrialRecord]) -> None:
    t = built["wrong value"]
    wrong = [d for d in t.discrepancies if d.kind == "wrong_value"]
    assert not t.passed and wrong, t.discrepancies
    assert ("reservations", "YAX4DR", "total_baggages", 2, 3) in {
        (d.table, d.key, d.field, d.expected, d.actual) for d in wrong
    }


def test_an_unfinished_episode_is_cut_off_with_no_recorded_verdict(built: dict[str, TrialRecord]) -> None:
    t = built["cut off"]
    assert t.finish_reason == "cut_off" and t.recorded is not None and t.recorded.passed is None
    assert t.passed and t.discrepancies == [], "judged as its state stands: the cancellation was made before the cut"


def test_a_required_output_said_passes_and_a_missing_one_fails(built: dict[str, TrialRecord]) -> None:
    said, missing = built["output said"], built["missing output"]
    assert said.passed, said.discrepancies
    assert not missing.passed and kinds(missing) == {("missing_effect", "(outputs)")}
    assert missing.discrepancies[0].expected == "23553"


def test_every_built_verdict_agrees_with_the_recorded_reward(built: dict[str, TrialRecord]) -> None:
    for name, t in built.items():
        assert t.recorded is not None
        if t.recorded.passed is not None:
            assert t.passed == t.recorded.passed, f"{name}: recorded {t.recorded.reward}, statebox {t.passed}"
