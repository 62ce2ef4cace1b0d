"""`statebox compare A B`: the paired pass@1 difference of two runs on their shared tasks.

A is the baseline and B the candidate; diff = B - A. Definitions in metrics.md and
`statebox.metrics.compare`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from statebox.metrics import compare_runs
from statebox.report.aggregate import RunGroup, attempts_of, group_runs, task_domains
from statebox.report.runs import ReportInputError, load_runs
from statebox.report.summary import ERRORS_AS_FAILURES, ERRORS_EXCLUDED, task_counts
from statebox.report.terminal import pct

LISTED = 12


@dataclass(frozen=True)
class Side:
    """One run of a comparison: its directory and the (suite, agent, model) chosen in it."""

    path: Path
    group: RunGroup
    domains: dict[tuple[str, str], str]
    note: str | None = None  # said when the directory held several groups

    def describe(self) -> dict[str, Any]:
        return {"dir": str(self.path), **self.group.identity()}

    def name(self) -> str:
        return self.group.model or self.group.agent


def _matches(group: RunGroup, model: str) -> bool:
    return model in (group.model, group.agent)


def pick_side(path: Path, model: str | None) -> tuple[Side, list[str]]:
    """Load one directory and choose its group: `model` if given, else the first (and say so)."""
    loaded = load_runs([path])
    groups = group_runs(loaded)
    if model is not None:
        chosen = [g for g in groups if _matches(g, model)]
        if not chosen:
            held = ", ".join(g.model or g.agent for g in groups)
            raise ReportInputError(f"{path}: no run of model {model!r} (it holds: {held})")
        groups = chosen
    note = None
    if len(groups) > 1:
        held = ", ".join(g.model or g.agent for g in groups)
        note = f"{path} holds {len(groups)} runs ({held}); comparing the first: choose with --model"
    return Side(path, groups[0], task_domains(loaded), note), loaded.warnings


def compare(a: Side, b: Side, *, errors_as_failures: bool = False) -> dict[str, Any]:
    """The `compare --json` document."""
    counts_a = task_counts(attempts_of(a.group, a.domains), errors_as_failures)
    counts_b = task_counts(attempts_of(b.group, b.domains), errors_as_failures)
    result = compare_runs(counts_a, counts_b)
    return {
        "a": a.describe(),
        "b": b.describe(),
        "tasks": result.shared_tasks,
        "pass_at_1_a": result.pass_at_1_a,
        "pass_at_1_b": result.pass_at_1_b,
        "diff": result.diff,
        "diff_ci": None if result.interval is None else list(result.interval),
        "flip_rate": result.flip_rate,
        "changed": list(result.changed),
        "gained": list(result.gained),
        "lost": list(result.lost),
        "only_in_a": list(result.only_in_a),
        "only_in_b": list(result.only_in_b),
        "convention": ERRORS_AS_FAILURES if errors_as_failures else ERRORS_EXCLUDED,
    }


def render_comparison(result: dict[str, Any], console: Console) -> None:
    """A readable table of the comparison and the tasks that changed."""
    a, b = result["a"], result["b"]
    table = Table(title=f"compare on {result['tasks']} shared tasks (B − A)", title_justify="left", header_style="bold")
    table.add_column("", style="cyan")
    table.add_column("run")
    table.add_column("pass@1", justify="right")
    for name, side, value in (("A", a, result["pass_at_1_a"]), ("B", b, result["pass_at_1_b"])):
        table.add_row(name, f"{escape(side['model'] or side['agent'])}  [dim]{escape(side['dir'])}[/]", pct(value))
    console.print(table)
    diff, ci = result["diff"], result["diff_ci"]
    line = Text("difference B − A: ", style="bold")
    line.append("–" if diff is None else f"{100 * diff:+.1f} points")
    if ci is not None:
        line.append(f"  95% CI [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]", style="dim")
    line.append(f"   flip rate {pct(result['flip_rate'])}")
    console.print(line)
    for label, key, style in (("gained (now passes)", "gained", "green"), ("lost (now fails)", "lost", "red")):
        ids = result[key]
        if ids:
            more = f" … and {len(ids) - LISTED} more" if len(ids) > LISTED else ""
            console.print(Text(f"{label}: {len(ids)}: ", style=style).append(", ".join(ids[:LISTED]) + more, style=""))
    for key, where in (("only_in_a", "only in A"), ("only_in_b", "only in B")):
        if result[key]:
            console.print(Text(f"{len(result[key])} task(s) {where}, not compared", style="yellow"))
