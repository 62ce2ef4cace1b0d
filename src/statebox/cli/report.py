"""`statebox report` and `statebox compare`: reliability and cost of finished runs."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from statebox.cli.common import err_console, fail, print_json

if TYPE_CHECKING:
    from statebox.report.merge import Prefer

ErrorsAsFailures = Annotated[
    bool,
    typer.Option(
        "--errors-as-failures",
        help="Count infrastructure errors as failed attempts (the ThinkingBox convention) instead of leaving them out.",
    ),
]



class PreferChoice(StrEnum):
    newest = "newest"


PreferOption = Annotated[
    PreferChoice | None,
    typer.Option(
        "--prefer",
        help="When a trial id is recorded differently in two directories (refused by default), keep the record "
        "of the directory whose trials file was written last.",
    ),
]


def _prefer(choice: PreferChoice | None) -> Prefer | None:
    return None if choice is None else "newest"


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("compare")(compare)


def _warn(messages: list[str]) -> None:
    for message in messages:
        err_console.print(f"[bold yellow]warning:[/] {message}", highlight=False)


def report(
    dirs: Annotated[list[Path], typer.Argument(metavar="DIR", help="Run directories; shards of one campaign merge.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    html: Annotated[Path | None, typer.Option("--html", help="Also write the HTML report (and a .files dir).")] = None,
    errors_as_failures: ErrorsAsFailures = False,
    prefer: PreferOption = None,
) -> None:
    """Report pass@1, pass@k, pass^k, observed k/k, cost and failure signatures per model and domain."""
    from statebox.report.aggregate import report_document  # the report's modules load with the command
    from statebox.report.html import write_html
    from statebox.report.runs import ReportInputError, load_runs
    from statebox.report.terminal import render_report

    try:
        loaded = load_runs(dirs, prefer=_prefer(prefer))
    except ReportInputError as e:
        fail(str(e))
    _warn(loaded.warnings)
    document = report_document(loaded, errors_as_failures=errors_as_failures)
    if json_out:
        print_json(document.model_dump(mode="json"))
    else:
        render_report(document, Console())
        _recorded(dirs)
    if html is not None:
        try:
            written = write_html(html, loaded, document.model_dump(mode="json"))
        except OSError as e:
            fail(f"{html}: cannot write the HTML report: {e}")
        except ReportInputError as e:  # a transcript read back for its chunk no longer reads
            fail(str(e))
        chunks = written.chunks
        beside = f", its attempts in {len(chunks)} chunks in {chunks[0].parent}/ (send both)" if chunks else ""
        err_console.print(f"HTML report written to {html}{beside}", highlight=False)


def _recorded(dirs: list[Path]) -> None:
    """Imported runs: statebox's verdicts against the recorded ones (report/recorded.py)."""
    from statebox.report.recorded import recorded_agreements, render_recorded

    render_recorded(recorded_agreements(dirs), Console())


def compare(
    dir_a: Annotated[Path, typer.Argument(metavar="DIR_A", help="Baseline run directory (A).")],
    dir_b: Annotated[Path, typer.Argument(metavar="DIR_B", help="Candidate run directory (B); differences are B − A.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    model: Annotated[
        str | None, typer.Option("--model", help="Which model (or agent) to compare when a directory holds several.")
    ] = None,
    model_a: Annotated[str | None, typer.Option("--model-a", help="Model of A, when it differs from B's.")] = None,
    model_b: Annotated[str | None, typer.Option("--model-b", help="Model of B, when it differs from A's.")] = None,
    errors_as_failures: ErrorsAsFailures = False,
    prefer: PreferOption = None,
) -> None:
    """Compare two runs on their paired tasks: pass@1 difference, its interval, the tasks changed beyond chance."""
    from statebox.report.compare import compare_document, pick_side, render_comparison
    from statebox.report.runs import ReportInputError

    try:
        side_a, warnings_a = pick_side(dir_a, model_a or model, prefer=_prefer(prefer))
        side_b, warnings_b = pick_side(dir_b, model_b or model, prefer=_prefer(prefer))
    except ReportInputError as e:
        fail(str(e))
    _warn([*warnings_a, *warnings_b, *(s.note for s in (side_a, side_b) if s.note)])
    if side_a.group.suite != side_b.group.suite:
        _warn([f"A is suite {side_a.group.suite!r} and B is {side_b.group.suite!r}: no task is paired across suites"])
    result = compare_document(side_a, side_b, errors_as_failures=errors_as_failures)
    if result.tasks == 0:
        _warn(["the two runs share no task with a finished attempt: nothing to compare"])
    if json_out:
        print_json(result.model_dump(mode="json"))
    else:
        render_comparison(result, Console())
