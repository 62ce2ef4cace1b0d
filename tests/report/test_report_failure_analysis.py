"""Every report carries the seed's failure analysis: clean endings, overlapping kinds, signatures, the paper beside.

The hand-built run (suite `builtin`), every attempt failed but `ok`:

    task       domain     ends            tool results         writes  kinds                        clean
    clean      retail     customer_ended  ok, ok               1       wrong_value, extra_effect    yes
    turns      retail     max_turns       ok, ok               1       missing_effect               no: a limit
    tool_err   insurance  agent_ended     ok, error            1       wrong_value, missing_effect  no: final error
    no_write   insurance  customer_ended  ok                   0       missing_effect               no: wrote nothing
    legacy     insurance  customer_ended  ok, ok               (none)  missing_effect               yes: by effects
    ok         retail     passed: not a failed attempt
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.judge import Discrepancy
from statebox.judge.fidelity import SimulatorFault
from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs
from statebox.report.seed_figures import SEED_FAILURE_ANALYSIS
from statebox.runner.record import TrialRecord
from statebox.runner.store import TRIALS

WRONG = Discrepancy(kind="wrong_value", table="orders", key="O-1", field="status", expected="cancelled", actual="open")
EXTRA = Discrepancy(kind="extra_effect", table="emails", key=3, field=None, expected=None, actual={"to": "a@b.c"})
MISSING = Discrepancy(kind="missing_effect", table="refunds", key=None, field=None, expected={"id": 1}, actual=None)
UNCHANGED: dict[str, Any] = {"inserted": {}, "updated": {}, "deleted": {}}
SERVER = {"result_db_hash": "r", "golden_db_hash": "g", "golden_changes": None, "readable": True}


def _transcript(results: list[tuple[str, bool]], finish_reason: str) -> Transcript:
    entries = [Entry(role="customer", content="Please help.")]
    for n, (tool, error) in enumerate(results):
        entries.append(Entry(role="agent", tool_calls=[ToolCallEntry(id=f"c{n}", name=tool, arguments={})]))
        entries.append(Entry(role="tool", tool_name=tool, tool_call_id=f"c{n}", content="{}", is_error=error))
    return Transcript(entries=entries, finish_reason=finish_reason)


def _failed(
    synth: Any,
    task: str,
    domain: str,
    *,
    ends: str,
    results: list[tuple[str, bool]],
    writes: int | None,
    signature: str,
    kinds: list[Discrepancy],
    suite: str = "builtin",
    effects: Any = None,
) -> TrialRecord:
    """A failed attempt of the conftest's shape with its ending, tool results and write count replaced."""
    t: TrialRecord = synth.make_trial(task, domain, 0, False, signature=signature, discrepancies=kinds, suite=suite)
    update = {"finish_reason": ends, "transcript": _transcript(results, ends), "successful_writes": writes}
    return t.model_copy(update=update if effects is None else {**update, "effects": effects})


def _hand_built(synth: Any) -> list[TrialRecord]:
    read, write = ("get_order", False), ("cancel_order", False)
    return [
        _failed(synth, "clean", "retail", ends="customer_ended", results=[read, write], writes=1,
                signature="wrong_state_update", kinds=[WRONG, EXTRA]),
        _failed(synth, "turns", "retail", ends="max_turns", results=[read, write], writes=1,
                signature="incomplete_resolution", kinds=[MISSING]),
        _failed(synth, "tool_err", "insurance", ends="agent_ended", results=[write, ("refund", True)], writes=1,
                signature="tool_usage", kinds=[WRONG, MISSING]),
        _failed(synth, "no_write", "insurance", ends="customer_ended", results=[read], writes=0,
                signature="no_state_change", kinds=[MISSING], effects=UNCHANGED),
        _failed(synth, "legacy", "insurance", ends="customer_ended", results=[read, write], writes=None,
                signature="incomplete_resolution", kinds=[MISSING]),  # conftest effects: one updated row
        synth.make_trial("ok", "retail", 0, True),
    ]  # fmt: skip


def _report(path: Path, **kwargs: Any) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = build_report(load_runs([path]), **kwargs)["runs"]
    return runs


def _analysis(synth: Any, tmp_path: Path, trials: list[TrialRecord], **kwargs: Any) -> dict[str, Any]:
    analysis: dict[str, Any] = _report(synth.write_run(tmp_path / "run", trials, repeat=1), **kwargs)[0][
        "failure_analysis"
    ]
    return analysis


def test_the_json_keys_are_pinned(synth: Any, tmp_path: Path) -> None:
    analysis = _analysis(synth, tmp_path, _hand_built(synth))
    assert list(analysis) == [
        "failed_attempts",
        "terminated_cleanly",
        "with_wrong_value",
        "with_extra_effect",
        "with_missing_effect",
        "signatures",
        "writes_unrecorded",
        "shares",
    ]
    assert list(analysis["shares"]) == [
        "terminated_cleanly",
        "with_wrong_value",
        "with_extra_effect",
        "with_missing_effect",
        "signatures",
    ]
    seed = SEED_FAILURE_ANALYSIS.model_dump(mode="json")
    assert list(seed) == ["label", "trials", "failed_attempts", "shares"]
    assert list(seed["shares"]) == list(analysis["shares"]), "the paper's shares line up with a run's, key by key"


def test_counts_of_the_hand_built_run(synth: Any, tmp_path: Path) -> None:
    analysis = _analysis(synth, tmp_path, _hand_built(synth))
    counts = {k: v for k, v in analysis.items() if k != "shares"}
    assert counts == {
        "failed_attempts": 5,
        "terminated_cleanly": 2,  # clean, legacy
        "with_wrong_value": 2,  # clean, tool_err
        "with_extra_effect": 1,  # clean
        "with_missing_effect": 4,  # turns, tool_err, no_write, legacy
        "signatures": {"incomplete_resolution": 2, "no_state_change": 1, "tool_usage": 1, "wrong_state_update": 1},
        "writes_unrecorded": 1,  # legacy
    }


def test_shares_are_counts_over_failed_attempts(synth: Any, tmp_path: Path) -> None:
    shares = _analysis(synth, tmp_path, _hand_built(synth))["shares"]
    assert shares == {
        "terminated_cleanly": 0.4,
        "with_wrong_value": 0.4,
        "with_extra_effect": 0.2,
        "with_missing_effect": 0.8,
        "signatures": {"incomplete_resolution": 0.4, "no_state_change": 0.2, "tool_usage": 0.2,
                       "wrong_state_update": 0.2},
    }  # fmt: skip


def test_each_domain_has_its_own_analysis(synth: Any, tmp_path: Path) -> None:
    entry = _report(synth.write_run(tmp_path / "run", _hand_built(synth), repeat=1))[0]
    got = {d: (s["failure_analysis"]["failed_attempts"], s["failure_analysis"]["terminated_cleanly"])
           for d, s in entry["by_domain"].items()}  # fmt: skip
    assert got == {"insurance": (3, 1), "retail": (2, 1)}


def test_a_legacy_record_that_changed_nothing_is_not_clean(synth: Any, tmp_path: Path) -> None:
    legacy = _failed(synth, "legacy", "retail", ends="agent_ended", results=[("cancel_order", False)], writes=None,
                     signature="incomplete_resolution", kinds=[MISSING], effects=UNCHANGED)  # fmt: skip
    analysis = _analysis(synth, tmp_path, [legacy])
    assert (analysis["terminated_cleanly"], analysis["writes_unrecorded"]) == (0, 1)


def test_simulator_faults_and_infrastructure_errors_are_left_out(synth: Any, tmp_path: Path) -> None:
    spoiled = _hand_built(synth)[0].model_copy(
        update={"task_id": "spoiled", "trial_id": "builtin/spoiled/llm/openai:gpt-test/0",
                "simulator_faults": [SimulatorFault(kind="leaked_fact", message_index=0, fact="email", evidence="x")]}
    )  # fmt: skip
    path = synth.write_run(tmp_path / "run", [*_hand_built(synth), spoiled], [synth.make_error("errored", 0)], repeat=1)
    for errors_as_failures in (False, True):
        analysis = _report(path, errors_as_failures=errors_as_failures)[0]["failure_analysis"]
        got = (analysis["failed_attempts"], analysis["terminated_cleanly"])
        assert got == (5, 2), f"errors_as_failures={errors_as_failures}: {got}"


def test_a_run_without_failures_has_null_shares(synth: Any, tmp_path: Path) -> None:
    analysis = _analysis(synth, tmp_path, [synth.make_trial("ok", "retail", 0, True)])
    assert analysis == {
        "failed_attempts": 0,
        "terminated_cleanly": 0,
        "with_wrong_value": 0,
        "with_extra_effect": 0,
        "with_missing_effect": 0,
        "signatures": {},
        "writes_unrecorded": 0,
        "shares": {
            "terminated_cleanly": None,
            "with_wrong_value": None,
            "with_extra_effect": None,
            "with_missing_effect": None,
            "signatures": {},
        },
    }


def _thinkingbox(synth: Any, task: str, *, writes: int, changed: bool, kinds: list[Discrepancy]) -> TrialRecord:
    """A ThinkingBox-Bench attempt as its backend records it: ended by the agent spec's end-turn tool."""
    updated = {"flights.bookings": [{"key": "B-1", "fields": {"seat": {"before": "1A", "after": "2B"}}}]}
    effects = {
        "inserted": {},
        "updated": updated if changed else {},
        "deleted": {},
        "servers": {"flights": SERVER},
        "typed": {"passed": False, "agrees_with_hash": True},
    }
    tool = "update_booking" if changed else "get_booking"
    return _failed(synth, task, "airline", ends="agent_ended", results=[(tool, False), ("end_turn", False)],
                   writes=writes, signature="wrong_state_update" if changed else "no_state_change", kinds=kinds,
                   suite="thinkingbox-bench", effects=effects)  # fmt: skip


def test_thinkingbox_bench_attempts_are_analysed_the_same_way(synth: Any, tmp_path: Path) -> None:
    trials = [
        _thinkingbox(synth, "tb_wrote", writes=1, changed=True, kinds=[WRONG]),
        _thinkingbox(synth, "tb_nothing", writes=0, changed=False, kinds=[MISSING]),
    ]
    manifest = {"suite": "thinkingbox-bench", "agent": "llm", "models": [synth.MODEL], "repeat": 1, "tasks": 2}
    path = synth.write_run(tmp_path / "tb", trials, repeat=1, manifest=manifest)
    entry = _report(path)[0]
    analysis = {k: v for k, v in entry["failure_analysis"].items() if k != "shares"}
    assert entry["suite"] == "thinkingbox-bench"
    assert analysis == {
        "failed_attempts": 2,
        "terminated_cleanly": 1,  # tb_wrote: its end-turn tool's result is the final one, and no error
        "with_wrong_value": 1,
        "with_extra_effect": 0,
        "with_missing_effect": 1,
        "signatures": {"no_state_change": 1, "wrong_state_update": 1},
        "writes_unrecorded": 0,
    }


def _plain(output: str) -> str:
    return " ".join(output.replace("│", " ").replace("┃", " ").split())


def test_terminal_report_shows_the_table_beside_the_paper(app: typer.Typer, runner: CliRunner, run_dir: Path) -> None:
    result = runner.invoke(app, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    text = _plain(result.output)
    # The standard run (conftest): 10 failed attempts, all ended by the customer after an updated row.
    for row in (
        "failure analysis of 10 failed attempts share ThinkingBox paper¹",
        "terminated cleanly 10 100.0% 67.24%",
        ">= 1 wrong value 2 20.0% 77.61%",
        ">= 1 extra effect 1 10.0% 43.30%",
        ">= 1 missing effect 8 80.0% 25.36%",
        "signature tool_usage 1 10.0% 79.9%",
        "signature wrong_state_update 2 20.0% 10.3%",
        "signature incomplete_resolution 3 30.0% 7.0%",
        "signature no_state_change 4 40.0% 2.9%",
        "¹ ThinkingBox paper, 12-model ablation (121,680 trials, 79,853 failed)",
    ):
        assert row in text, f"missing {row!r} in:\n{text}"


def test_terminal_report_shows_the_table_when_nothing_failed(
    app: typer.Typer, runner: CliRunner, synth: Any, tmp_path: Path
) -> None:
    path = synth.write_run(tmp_path / "run", [synth.make_trial("ok", "retail", 0, True)], repeat=1)
    text = _plain(runner.invoke(app, ["report", str(path)]).output)
    assert "of 0 failed attempts" in text and "terminated cleanly 0 – 67.24%" in text, text


def test_report_json_carries_it(app: typer.Typer, runner: CliRunner, run_dir: Path) -> None:
    entry = json.loads(runner.invoke(app, ["report", str(run_dir), "--json"]).stdout)["runs"][0]
    assert entry["failure_analysis"]["failed_attempts"] == entry["failed_attempts"] == 10
    assert entry["failure_analysis"]["signatures"] == entry["signatures"]


@pytest.fixture(scope="module")
def real_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two real one-attempt runs of a retail task, written by `statebox run`: the reference and the no-op."""
    from statebox.cli import app

    dirs = []
    for agent in ("reference", "noop"):
        out = tmp_path_factory.mktemp("real") / agent
        args = ["run", "retail", "--agent", agent, "--tasks", "cancel_desk_wrong_order_number", "--out", str(out),
                "--no-progress"]  # fmt: skip
        done = CliRunner().invoke(app, args)
        assert done.exit_code == 0, done.output
        dirs.append(out)
    return dirs


def test_a_real_run_records_the_signatures_write_facts(real_runs: list[Path]) -> None:
    writes = {d.name: json.loads((d / TRIALS).read_text().splitlines()[0])["successful_writes"] for d in real_runs}
    assert writes["noop"] == 0 and writes["reference"] >= 1, writes


def test_a_real_report_over_real_runs_shows_the_analysis(real_runs: list[Path]) -> None:
    from statebox.cli import app

    done = CliRunner(env={"COLUMNS": "140"}).invoke(app, ["report", *map(str, real_runs), "--json"])
    assert done.exit_code == 0, done.output
    by_agent = {e["agent"]: e["failure_analysis"] for e in json.loads(done.stdout)["runs"]}
    noop = {k: v for k, v in by_agent["noop"].items() if k != "shares"}
    assert noop == {
        "failed_attempts": 1,
        "terminated_cleanly": 0,  # the no-op wrote nothing
        "with_wrong_value": 0,
        "with_extra_effect": 0,
        "with_missing_effect": 1,
        "signatures": {"no_state_change": 1},
        "writes_unrecorded": 0,
    }
    assert by_agent["reference"]["shares"]["terminated_cleanly"] is None, "the reference passed: nothing failed"
    text = _plain(CliRunner(env={"COLUMNS": "140"}).invoke(app, ["report", *map(str, real_runs)]).output)
    assert text.count("failure analysis") == 2 and "terminated cleanly 0 0.0% 67.24%" in text, text
