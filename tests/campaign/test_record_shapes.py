"""One definition per shape: the trial record, the error record and the manifest are each one pydantic model,
docs/contracts.md names every field of each, and the lighter models the report reads a trial line with are
checked against `TrialRecord` (a view that drifts from it fails at import, naming the field)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from statebox.judge.verdict import DiscrepancyKind
from statebox.report.html_chunks import AttemptView
from statebox.report.trial_summary import TrialFields
from statebox.runner.judging import RubricVerdicts, VerdictDocument, record_fields
from statebox.runner.manifest import Imported, Manifest, Played, Regraded
from statebox.runner.record import ErrorRecord, RecordedOutcome, TrialRecord, trial_record_view, view_problems

CONTRACTS = Path(__file__).resolve().parents[2] / "docs" / "contracts.md"


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end)]


def _undocumented(models: list[tuple[type[BaseModel], str]]) -> list[str]:
    return [
        f"{model.__name__}.{name}"
        for model, section in models
        for name, field in model.model_fields.items()
        if not re.search(rf"\b{re.escape(field.serialization_alias or name)}\b", section)
    ]


def test_contracts_names_every_field_of_the_records_and_the_manifest() -> None:
    text = CONTRACTS.read_text(encoding="utf-8")
    run_dir = _section(text, "## The run directory", "## The trial record")
    record = _section(text, "## The trial record", "## The verdict document")
    table = record[: record.index("An error record")]
    errors = record[record.index("An error record") :]
    recorded = next(line for line in table.splitlines() if line.startswith("| `recorded`"))
    models: list[tuple[type[BaseModel], str]] = [
        (TrialRecord, table),
        (RecordedOutcome, recorded),
        (ErrorRecord, errors),
        (Manifest, run_dir),
        (Imported, run_dir),
        (Regraded, run_dir),
        (Played, run_dir),
    ]
    missing = _undocumented(models)
    assert not missing, f"fields not described in docs/contracts.md: {missing}"


def test_the_trial_record_table_has_no_row_for_a_field_the_record_lacks() -> None:
    record = _section(CONTRACTS.read_text(encoding="utf-8"), "## The trial record", "An error record")
    keys = {
        k for row in record.splitlines() if row.startswith("| `") for k in re.findall(r"`(\w+)`", row.split("|")[1])
    }
    assert keys - set(TrialRecord.model_fields) == set(), "rows for keys the record does not have"


@pytest.mark.parametrize("view", [TrialFields, AttemptView])
def test_the_reports_light_models_are_views_of_the_trial_record(view: type[BaseModel]) -> None:
    lighter = {"TrialFields": ("discrepancies", "simulator_faults", "transcript"), "AttemptView": ("transcript",)}
    assert view_problems(view, lighter[view.__name__]) == []


def test_a_view_that_drifts_from_the_record_fails_naming_the_field() -> None:
    with pytest.raises(TypeError) as refused:

        @trial_record_view("transcript")
        class Drifted(BaseModel):
            trial_id: str
            passed: str  # TrialRecord's is a bool
            seeds: int  # TrialRecord has `seed`
            kind: DiscrepancyKind | None = None

    assert str(refused.value) == (
        "Drifted is not a view of TrialRecord: passed: <class 'str'> where TrialRecord has <class 'bool'>; "
        "seeds: not a TrialRecord field; kind: not a TrialRecord field; "
        "transcript: said lighter, but not a field of the view"
    )


def test_a_view_may_not_make_a_field_required_that_the_record_defaults() -> None:
    class Strict(BaseModel):
        signature: str | None

    assert view_problems(Strict) == ["signature: required, unlike TrialRecord's"]


def test_the_verdict_fields_written_into_a_record_are_record_fields() -> None:
    document = VerdictDocument(task_id="t", passed=True, state_passed=True, rubrics=RubricVerdicts(status="no_rubrics"))
    assert set(record_fields(document)) - set(TrialRecord.model_fields) == set()
