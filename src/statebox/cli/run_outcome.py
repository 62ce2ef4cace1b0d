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
    from statebox.runner.plan import CampaignConfig

EXIT_INFRA_ERRORS = 3  # the run finished, but some attempts hit infrastructure errors (see errors.jsonl)
EXIT_INTERRUPTED = 130  # Ctrl-C: what finished is saved; --resume runs the rest
ERRORS_SHOWN = 5


def planned_attempts(config: CampaignConfig) -> int:
    """Attempts the campaign plans in this run directory (its shard's, when sharded)."""
    from statebox.runner.plan import work_items

    return len(work_items(config, set()))


def print_interrupted(out: Path, planned: int) -> None:
    """What a Ctrl-C leaves: the attempts saved, and how to run the rest."""
    saved = len(RunDir(out).trials()) if (out / "trials.jsonl").exists() else 0
    Console(stderr=True).print(
        f"[yellow]interrupted:[/] {saved} of {planned} attempts are saved in {escape(str(out))}; "
        "run the same command with --resume to run the rest",
        highlight=False,
    )


def print_outcome(result: CampaignResult, out: Path, *, resumed: bool = False) -> None:
    """The counts (after --resume, the run directory's as well), the first few infrastructure errors; exit 3
    when any remain."""
    console = Console(stderr=True)
    console.print(
        f"{result.ran} {'new ' if resumed else ''}attempts: [green]{result.passed} passed[/], "
        f"[red]{result.failed} failed[/], [yellow]{result.errors} infrastructure errors[/] -> {escape(str(out))}",
        highlight=False,
    )
    trials = result.trials if result.trials is not None else RunDir(out).trials()
    if resumed:
        passed = sum(1 for t in trials if t.passed)
        console.print(f"  the run directory now holds {len(trials)} attempts: [green]{passed} passed[/], "
                      f"[red]{len(trials) - passed} failed[/]", highlight=False)
    for msg in result.error_messages[:ERRORS_SHOWN]:
        console.print(f"  [yellow]error[/] {escape(msg.split(' | ')[0])}", highlight=False)
    if len(result.error_messages) > ERRORS_SHOWN:
        more = len(result.error_messages) - ERRORS_SHOWN
        console.print(f"  ... and {more} more in {escape(str(out / 'errors.jsonl'))}", highlight=False)
    faulted = sum(1 for t in trials if t.simulator_faults)
    if faulted:
        console.print(
            f"  [yellow]{faulted} trial(s) with simulator faults[/], left out of the report's numbers: "
            "rerun them with --resume --rerun-simulator-faults",
            highlight=False,
        )
    if result.errors:
        console.print("  rerun with --resume to retry the infrastructure errors", highlight=False)
        raise typer.Exit(EXIT_INFRA_ERRORS)
