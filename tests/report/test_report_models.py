"""`report --json` and `compare --json` are their pydantic models, and docs/contracts.md names every field."""

import json
import re
from pathlib import Path
from typing import Any

import typer
from pydantic import BaseModel
from typer.testing import CliRunner

from statebox.report.models import (
    ChangedTask,
    CompareDocument,
    CostSummary,
    ReportDocument,
    RunEntry,
    ShortTask,
    Side,
    Unpaired,
)

CONTRACTS = Path(__file__).resolve().parents[2] / "docs" / "contracts.md"


def test_report_json_reads_back_as_the_model(app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any) -> None:
    path = synth.write_run(tmp_path / "run", synth.standard_trials(), [synth.make_error("r3", 4)], repeat=5)
    out = runner.invoke(app, ["report", str(path), "--json"]).stdout
    document = ReportDocument.model_validate_json(out)
    assert json.loads(document.model_dump_json()) == json.loads(out)


def test_compare_json_reads_back_as_the_model(app: typer.Typer, runner: CliRunner, run_dir: Path) -> None:
    out = runner.invoke(app, ["compare", str(run_dir), str(run_dir), "--json"]).stdout
    document = CompareDocument.model_validate_json(out)
    assert json.loads(document.model_dump_json()) == json.loads(out)


def test_every_field_is_documented_in_contracts() -> None:
    text = CONTRACTS.read_text(encoding="utf-8")
    report = text[text.index("## `report --json`") : text.index("## `compare --json`")]
    compare = text[text.index("## `compare --json`") : text.index("## The proxy")]
    models: list[tuple[type[BaseModel], str]] = [
        (RunEntry, report),
        (CostSummary, report),
        (ShortTask, report),
        (CompareDocument, compare),
        (Side, compare),
        (Unpaired, compare),
        (ChangedTask, compare),
    ]
    missing = [
        f"{model.__name__}.{name}"
        for model, section in models
        for name in model.model_fields
        if not re.search(rf"\b{re.escape(name)}\b", section)
    ]
    assert not missing, f"fields not described in docs/contracts.md: {missing}"
