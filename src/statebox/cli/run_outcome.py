"""What `statebox run` says when the campaign is over, and its exit code."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape

from statebox.runner.store import RunDir

if TYPE_CHECKING:
    from statebox.runner.campaign import CampaignResult

EXIT_INFRA_ERRORS = 3  # the run finished, but some attempts hit infrastructure errors (see errors.jsonl)
ERRORS_SHOWN = 5


def print_outcome(result: CampaignResult, out: Path) -> None:
    """The counts, the first few infrastructure errors; exit 3 when any remain."""
    console = Console(stderr=True)
    console.print(
        f"{result.ran} attempts: [green]{result.passed} passed[/], [red]{result.failed} failed[/], "
        f"[yellow]{result.errors} infrastructure errors[/] -> {escape(str(out))}",
        highlight=False,
    )
    for msg in result.error_messages[:ERRORS_SHOWN]:
        console.print(f"  [yellow]error[/] {escape(msg.split(' | ')[0])}", highlight=False)
    if len(result.error_messages) > ERRORS_SHOWN:
        more = len(result.error_messages) - ERRORS_SHOWN
        console.print(f"  ... and {more} more in {escape(str(out / 'errors.jsonl'))}", highlight=False)
    faulted = sum(1 for t in RunDir(out).trials() if t.simulator_faults)
    if faulted:
        console.print(
            f"  [yellow]{faulted} trial(s) with simulator faults[/], left out of the report's numbers: "
            "rerun them with --resume --rerun-simulator-faults",
            highlight=False,
        )
    if result.errors:
        console.print("  rerun with --resume to retry the infrastructure errors", highlight=False)
        raise typer.Exit(EXIT_INFRA_ERRORS)
