"""Simulator faults are neither passes nor agent failures; policy violations are counted per check.

The standard run (conftest) with two attempts flagged: r2 #1 (failed) with an invented identifier and
i1 #0 (passed) with a leaked fact; and r3 #2 failing a trace check as well as its end state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from statebox.judge import Discrepancy
from statebox.judge.fidelity import SimulatorFault
from statebox.metrics import TaskCounts, cost_per_successful_attempt
from statebox.report.aggregate import build_report
from statebox.report.compare import compare, pick_side
from statebox.report.runs import load_runs
from statebox.runner.record import TrialRecord

INVENTED = SimulatorFault(kind="invented_identifier", message_index=2, fact="order_number",
                          evidence="mentioned 'ORD-99999', shaped like order_number but not one it holds")  # fmt: skip
LEAKED = SimulatorFault(kind="leaked_fact", message_index=0, fact="email",
                        evidence="stated email ('a@b.c') before the agent asked for it")  # fmt: skip
VIOLATION = Discrepancy(kind="policy_violation", table="(trace)", key="confirm_refund", field="issue_refund",
                        expected="confirm first", actual="issue_refund before any confirmation",
                        check="confirm_refund", message_index=1)  # fmt: skip
FLAGGED = {("r2", 1): INVENTED, ("i1", 0): LEAKED}


def _flagged_trials(synth: Any) -> list[TrialRecord]:
    out = []
    for t in synth.standard_trials():
        if (fault := FLAGGED.get((t.task_id, t.repeat))) is not None:
            t = t.model_copy(update={"simulator_faults": [fault]})
        if (t.task_id, t.repeat) == ("r3", 2):
            t = t.model_copy(update={"discrepancies": [*t.discrepancies, VIOLATION]})
        out.append(t)
    return out


def _entry(path: Path, **kwargs: Any) -> dict[str, Any]:
    runs: list[dict[str, Any]] = build_report(load_runs([path]), **kwargs)["runs"]
    return runs[0]


def _flagged_run(tmp_path: Path, synth: Any) -> Path:
    return synth.write_run(tmp_path / "flagged", _flagged_trials(synth))


def test_flagged_attempts_are_left_out_of_pass_at_1(tmp_path: Path, synth: Any) -> None:
    e = _entry(_flagged_run(tmp_path, synth))
    # r1 4/4, r2 2/3 (its failed #1 left out), r3 0/4, i1 2/3 (its passed #0 left out), i2 1/4
    assert e["pass_at_1"] == (1 + 2 / 3 + 0 + 2 / 3 + 1 / 4) / 5
    assert (e["attempts"], e["failed_attempts"]) == (18, 9)
    assert e["tasks_at_k"]["4"] == 3, "r2 and i1 became short: out of the estimates at k = 4"


def test_flagged_attempts_make_their_tasks_short(tmp_path: Path, synth: Any) -> None:
    e = _entry(_flagged_run(tmp_path, synth))
    assert (e["canonical"], e["short_tasks"]) == (False, 2)
    assert e["shortfall"] == [
        {"task_id": "i1", "attempts": 3, "missing": 1, "errors": 0, "simulator_faults": 1},
        {"task_id": "r2", "attempts": 3, "missing": 1, "errors": 0, "simulator_faults": 1},
    ]


def test_flagged_attempts_are_counted_apart_per_kind(tmp_path: Path, synth: Any) -> None:
    e = _entry(_flagged_run(tmp_path, synth))
    assert (e["simulator_faults"], e["simulator_fault_share"]) == (2, 2 / 20)
    assert e["simulator_fault_kinds"] == {"invented_identifier": 1, "leaked_fact": 1}
    assert e["simulator_fault_kind_shares"] == {"invented_identifier": 1 / 20, "leaked_fact": 1 / 20}
    assert e["by_domain"]["retail"]["simulator_fault_kinds"] == {"invented_identifier": 1}
    assert e["by_domain"]["insurance"]["simulator_fault_share"] == 1 / 8


def test_flagged_attempts_are_left_out_under_either_convention(tmp_path: Path, synth: Any) -> None:
    excluded = _entry(_flagged_run(tmp_path, synth))
    counted = _entry(_flagged_run(tmp_path, synth), errors_as_failures=True)
    assert counted["pass_at_1"] == excluded["pass_at_1"] and counted["attempts"] == 18


def test_cost_per_success_keeps_the_spend_but_not_the_flagged_passes(tmp_path: Path, synth: Any) -> None:
    e = _entry(_flagged_run(tmp_path, synth))
    spend = {"r1": 0.04, "r2": 0.04, "r3": 0.04, "i1": 0.08, "i2": 0.08}
    counts = [TaskCounts("i1", 3, 2), TaskCounts("i2", 4, 1), TaskCounts("r1", 4, 4), TaskCounts("r2", 3, 2),
              TaskCounts("r3", 4, 0)]  # fmt: skip
    expected = cost_per_successful_attempt(counts, spend, repeats=4)
    assert expected is not None and expected.estimate is not None
    assert abs(e["cost"]["per_success_usd"] - expected.estimate) < 1e-12
    assert abs(e["cost"]["agent_usd"] - 0.28) < 1e-12, "the flagged attempts' spend is still spent"


def test_policy_violations_are_counted_per_check_and_per_task(tmp_path: Path, synth: Any) -> None:
    e = _entry(_flagged_run(tmp_path, synth))
    assert e["policy_violations"] == {"confirm_refund": 1}
    assert e["discrepancy_kinds"]["policy_violation"] == 1
    assert e["flagged_tasks"] == [
        {"task_id": "i1", "policy_violations": {}, "simulator_faults": {"leaked_fact": 1}},
        {"task_id": "r2", "policy_violations": {}, "simulator_faults": {"invented_identifier": 1}},
        {"task_id": "r3", "policy_violations": {"confirm_refund": 1}, "simulator_faults": {}},
    ]


def test_a_rerun_record_supersedes_the_flagged_one_in_its_directory(tmp_path: Path, synth: Any) -> None:
    trials = _flagged_trials(synth)
    rerun = next(t for t in synth.standard_trials() if (t.task_id, t.repeat) == ("r2", 1))
    e = _entry(synth.write_run(tmp_path / "rerun", [*trials, rerun]))
    assert (e["simulator_faults"], e["simulator_fault_kinds"]) == (1, {"leaked_fact": 1})
    assert e["attempts"] == 19 and [s["task_id"] for s in e["shortfall"]] == ["i1"]


def test_compare_counts_the_flagged_attempts_of_each_run(tmp_path: Path, synth: Any) -> None:
    a, _ = pick_side(synth.write_run(tmp_path / "a", synth.standard_trials()), None)
    b, _ = pick_side(_flagged_run(tmp_path, synth), None)
    doc = compare(a, b)
    assert (doc["simulator_faults_a"], doc["simulator_faults_b"]) == (0, 2)
    assert doc["pass_at_1_b"] == _entry(_flagged_run(tmp_path, synth))["pass_at_1"]


def test_terminal_report_shows_faults_and_violations(
    app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any
) -> None:
    result = runner.invoke(app, ["report", str(_flagged_run(tmp_path, synth))])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "2 simulator faults (10.0% of finished attempts, left out)" in text, text
    assert "invented_identifier" in text and "leaked_fact" in text
    assert "violated confirm_refund" in text
    assert "r2 (3/4, 1 simulator fault(s))" in text, "the short task says what it lacks"
