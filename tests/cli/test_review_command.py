"""`statebox review`: the blind pack shows the situation and never the answer; --reveal the rest; --record refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from statebox.cli import app
from statebox.suites import load_suite

TASK = "headphones_return_window_closed_silver"
OTHER = "late_delivery_broken_tumblers_gold"


@pytest.fixture(scope="module")
def blind() -> str:
    result = CliRunner().invoke(app, ["review", "retail", TASK, OTHER, "--blind"])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_blind_pack_shows_the_policy_once_and_each_situation(blind: str) -> None:
    task = load_suite("retail").task(TASK)
    assert blind.count("==== The retail policy ====") == 1
    assert task.opening_message.split()[0] in blind and task.customer.goal.split(".")[0] in blind
    assert "daniel.okafor@outlook.com" in blind and "ORD-90002" in blind  # facts and initial rows
    assert "Pulse Noise-Cancelling Headphones" in blind  # the seed product the order names


@pytest.mark.parametrize("answer", ["not eligible", "not_eligible", "30-day return window", "reference:",
                                    "update_ticket_status", "Did the agent explain", "verify_before",
                                    "policy_sections"])
def test_the_blind_pack_leaves_out_the_answer(blind: str, answer: str) -> None:
    assert answer not in blind


def test_the_blind_pack_ends_with_a_record_to_fill_in_for_every_task(blind: str) -> None:
    template = yaml.safe_load(blind.split("--record FILE) ====\n", 1)[1])
    assert [r["task"] for r in template["reviews"]] == [TASK, OTHER]
    assert all(len(r["task_hash"]) == 16 for r in template["reviews"])


def test_the_reveal_shows_the_reference_checks_and_rubrics() -> None:
    result = CliRunner().invoke(app, ["review", "retail", TASK, "--reveal"])
    assert result.exit_code == 0, result.output
    for shown in ["not eligible", "update_ticket_status", "Did the agent explain", "verify_before",
                  "required end states"]:
        assert shown in result.output, shown


def test_recording_a_stale_review_is_a_one_line_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump({"task": TASK, "reviewer": "R", "date": "2026-03-02", "task_hash": "0" * 16,
                                    "expected": {"end_state": ["nothing changes but a solved ticket"]},
                                    "verdict": "agree"}), encoding="utf-8")
    result = CliRunner().invoke(app, ["review", "retail", "--record", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and str(path) in result.output and "stale" in result.output


def test_recording_a_review_with_no_expected_end_state_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump({"task": TASK, "reviewer": "R", "date": "2026-03-02", "task_hash": "0" * 16,
                                    "expected": {"end_state": []}, "verdict": "agree"}), encoding="utf-8")
    result = CliRunner().invoke(app, ["review", "retail", "--record", str(path)])
    assert result.exit_code == 2 and "expected.end_state" in result.output, result.output


def test_one_mode_at_a_time() -> None:
    result = CliRunner().invoke(app, ["review", "retail", TASK, "--blind", "--reveal"])
    assert result.exit_code == 2 and "choose one of --blind, --reveal or --record" in result.output


def test_an_unknown_task_is_a_one_line_error() -> None:
    result = CliRunner().invoke(app, ["review", "retail", "no_such_task", "--blind"])
    assert result.exit_code == 2 and "has no task 'no_such_task'" in result.output, result.output


def test_validate_json_carries_the_shape_of_the_domain() -> None:
    result = CliRunner().invoke(app, ["validate", "retail", "--tasks", "headphones*", "--json"])
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load(result.output)
    [retail] = doc["shape"]["domains"]
    assert (retail["domain"], retail["tasks"]) == ("retail", 3)  # the three headphones* tasks, not all 88
    assert doc["tasks"][0]["shape"]["writes"], doc["tasks"][0]["shape"]


def test_a_batch_hides_the_task_ids_and_its_records_are_stored_by_hash(tmp_path: Path) -> None:
    suite = load_suite("retail")
    first_two = suite.tasks[:2]
    result = CliRunner().invoke(app, ["review", "retail", "--batch", "1", "--size", "2", "--blind"])
    assert result.exit_code == 0, result.output
    for task in first_two:
        assert task.id not in result.output, f"the blind batch shows the id {task.id}"
    template = yaml.safe_load(result.output.split("--record FILE) ====\n", 1)[1])
    assert [r["task"] for r in template["reviews"]] == ["", ""]
    for record in template["reviews"]:
        record.update(reviewer="R", verdict="agree", expected={"end_state": ["as the policy says"]})
    path = tmp_path / "batch.yaml"
    path.write_text(yaml.safe_dump(template), encoding="utf-8")
    records = [suite.domain_of(t).task_dir / f"{t.id}.review.yaml" for t in first_two]
    kept = {p: p.read_bytes() for p in records if p.exists()}  # the tasks' real reviews, put back afterwards
    stored = CliRunner().invoke(app, ["review", "retail", "--record", str(path)])
    try:
        assert stored.exit_code == 0, stored.output
        for task in first_two:
            written = suite.domain_of(task).task_dir / f"{task.id}.review.yaml"
            assert f"recorded {written}" in stored.output
            assert yaml.safe_load(written.read_text())["task"] == task.id
    finally:
        for record in records:
            if record in kept:
                record.write_bytes(kept[record])
            else:
                record.unlink(missing_ok=True)


def test_a_record_by_hash_that_no_task_has_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump({"task": "", "reviewer": "R", "date": "2026-03-02", "task_hash": "0" * 16,
                                    "expected": {"end_state": ["nothing"]}, "verdict": "agree"}), encoding="utf-8")
    result = CliRunner().invoke(app, ["review", "retail", "--record", str(path)])
    assert result.exit_code == 2
    assert "no task of 'retail' has the hash 0000000000000000 now" in " ".join(result.output.split())


def test_a_batch_past_the_end_and_a_batch_with_ids_are_refused() -> None:
    past = CliRunner().invoke(app, ["review", "retail", "--batch", "99", "--blind"])
    assert past.exit_code == 2 and "batches of 8" in past.output
    both = CliRunner().invoke(app, ["review", "retail", TASK, "--batch", "1", "--blind"])
    assert both.exit_code == 2 and "not both" in both.output


def test_the_blind_pack_shows_the_whole_rows_the_task_overrides() -> None:
    suite = load_suite("travel")
    task = next(t for t in suite.tasks if "departures" in t.initial_rows)
    result = CliRunner().invoke(app, ["review", "travel", task.id, "--blind"])
    assert result.exit_code == 0, result.output
    pack = yaml.safe_load(result.output.split(f"==== Task 1 of 1: {task.id} ====\n", 1)[1].split("\n====")[0])
    shown = pack["seed rows the initial rows name"]["departures"]
    overridden = task.initial_rows["departures"][0]
    row = next(r for r in shown if r["id"] == overridden["id"])
    assert set(overridden) < set(row), f"the departure is shown with the seed's other fields: {sorted(row)}"
