"""`statebox compare A B`: the paired pass@1 difference of two runs on their shared tasks.

A is the baseline and B the candidate; diff = B - A. Tasks are paired only when both runs are of
one suite and the task's content hash agrees. Definitions in docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from statebox.metrics import FDR_LEVEL, PairedComparison, TaskCounts, compare_runs
from statebox.report import models
from statebox.report.aggregate import RunGroup, attempts_of, group_runs, task_domains
from statebox.report.merge import Prefer
from statebox.report.rates import bounds
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

    def describe(self) -> models.Side:
        g = self.group
        return models.Side(dir=str(self.path), suite=g.suite, agent=g.agent, model=g.model, repeats=g.repeats)

    def name(self) -> str:
        return self.group.model or self.group.agent

    def task_hashes(self) -> dict[str, set[str]]:
        """Task id -> the content hashes its finished attempts recorded (empty when none did)."""
        hashes: dict[str, set[str]] = {}
        for t in self.group.trials:
            hashes.setdefault(t.task_id, set()).update({t.task_hash} if t.task_hash else set())
        return hashes


def _matches(group: RunGroup, model: str) -> bool:
    return model in (group.model, group.agent)


def pick_side(path: Path, model: str | None, *, prefer: Prefer | None = None) -> tuple[Side, list[str]]:
    """Load one directory and choose its group: `model` if given, else the first (and say so)."""
    loaded = load_runs([path], prefer=prefer)
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


def unpaired_tasks(a: Side, b: Side, common: set[str]) -> list[models.Unpaired]:
    """Tasks both runs hold that must not be compared: another suite, or other task content."""
    if a.group.suite != b.group.suite:
        return [models.Unpaired(task_id=t, reason="suite differs") for t in sorted(common)]
    hashes_a, hashes_b = a.task_hashes(), b.task_hashes()
    differs = []
    for t in sorted(common):
        known = hashes_a.get(t, set()) | hashes_b.get(t, set())
        if hashes_a.get(t) and hashes_b.get(t) and len(known) > 1:
            differs.append(models.Unpaired(task_id=t, reason="task content differs"))
    return differs


def compare_document(a: Side, b: Side, *, errors_as_failures: bool = False) -> models.CompareDocument:
    """The `compare --json` document."""
    attempts_a, attempts_b = attempts_of(a.group, a.domains), attempts_of(b.group, b.domains)
    counts_a = task_counts(attempts_a, errors_as_failures)
    counts_b = task_counts(attempts_b, errors_as_failures)
    unpaired = unpaired_tasks(a, b, {t.task_id for t in counts_a} & {t.task_id for t in counts_b})
    left_out = {u.task_id for u in unpaired}
    counts_a = [t for t in counts_a if t.task_id not in left_out]
    counts_b = [t for t in counts_b if t.task_id not in left_out]
    result = compare_runs(counts_a, counts_b)
    index_a, index_b = {t.task_id: t for t in counts_a}, {t.task_id: t for t in counts_b}
    paired = [(index_a[t], index_b[t]) for t in index_a if t in index_b and index_a[t].n and index_b[t].n]
    return models.CompareDocument(
        a=a.describe(),
        b=b.describe(),
        convention=ERRORS_AS_FAILURES if errors_as_failures else ERRORS_EXCLUDED,
        tasks=result.shared_tasks,
        same_k=a.group.repeats == b.group.repeats,
        pass_at_1_a=result.pass_at_1_a,
        pass_at_1_b=result.pass_at_1_b,
        pass_at_1_a_ci=bounds(result.interval_a),
        pass_at_1_b_ci=bounds(result.interval_b),
        passes_a=_passes(x for x, _ in paired),
        passes_b=_passes(y for _, y in paired),
        diff=result.diff,
        diff_ci=bounds(result.interval),
        fdr_level=FDR_LEVEL,
        changed=list(result.changed),
        changed_detail=_changed_detail(result, index_a, index_b),
        gained=list(result.gained),
        lost=list(result.lost),
        flips=result.flips,
        flip_rate=result.flip_rate,
        expected_flip_rate=result.expected_flip_rate,
        expected_flip_range=bounds(result.no_change_flip_range),
        only_in_a=list(result.only_in_a),
        only_in_b=list(result.only_in_b),
        errored_in_a=list(result.errored_in_a),
        errored_in_b=list(result.errored_in_b),
        unpaired=unpaired,
        simulator_faults_a=sum(1 for x in attempts_a if x.simulator_fault),
        simulator_faults_b=sum(1 for x in attempts_b if x.simulator_fault),
    )


def _changed_detail(
    result: PairedComparison, index_a: dict[str, TaskCounts], index_b: dict[str, TaskCounts]
) -> list[models.ChangedTask]:
    """Each changed task with its passes and attempts in A and B and its p-value."""
    return [
        models.ChangedTask(
            task_id=t,
            a=[index_a[t].c, index_a[t].n],
            b=[index_b[t].c, index_b[t].n],
            p_value=result.p_values[t],
        )
        for t in result.changed
    ]


def _passes(counts: Iterable[TaskCounts]) -> list[int]:
    """[passed, attempts] over the given tasks."""
    passed = attempts = 0
    for t in counts:
        passed, attempts = passed + t.c, attempts + t.n
    return [passed, attempts]


def compare(a: Side, b: Side, *, errors_as_failures: bool = False) -> dict[str, Any]:
    """`compare_document` as JSON-ready data (what `compare --json` prints)."""
    return compare_document(a, b, errors_as_failures=errors_as_failures).model_dump(mode="json")


def render_comparison(result: models.CompareDocument, console: Console) -> None:
    """A readable table of the comparison, the tasks that changed, and every task left out and why."""
    a, b = result.a, result.b
    title = f"compare on {result.tasks} paired tasks (B − A)"
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("", style="cyan")
    table.add_column("run")
    table.add_column("k", justify="right")
    table.add_column("pass@1", justify="right")
    table.add_column("95% CI", justify="right", style="dim")
    table.add_column("passed/attempts", justify="right")
    for name, side, value, ci, passes in (
        ("A", a, result.pass_at_1_a, result.pass_at_1_a_ci, result.passes_a),
        ("B", b, result.pass_at_1_b, result.pass_at_1_b_ci, result.passes_b),
    ):
        run = f"{escape(side.model or side.agent)}  [dim]{escape(side.dir)}[/]"
        lo, hi = (None, None) if ci is None else (ci[0], ci[1])
        interval = "" if lo is None or hi is None else f"{100 * lo:.1f} – {100 * hi:.1f}"
        table.add_row(name, run, str(side.repeats), pct(value), interval, f"{passes[0]}/{passes[1]}")
    console.print(table)
    if not result.same_k:
        console.print(Text(f"⚠ the runs have different k (A {a.repeats}, B {b.repeats} repeats)", style="yellow"))
    console.print(_difference_line(result))
    console.print(
        Text(
            f"changed beyond chance (Boschloo's exact test per task, false-discovery rate {result.fdr_level:.0%}): "
            f"{len(result.changed)} of {result.tasks}",
            style="bold",
        )
    )
    for label, ids, style in (("gained", result.gained, "green"), ("lost", result.lost, "red")):
        if ids:
            more = f" … and {len(ids) - LISTED} more" if len(ids) > LISTED else ""
            text = Text(f"  {label}: {len(ids)}: ", style=style)
            console.print(text.append(", ".join(ids[:LISTED]) + more, style=""))
    _left_out(result, console)
    for name, faults in (("A", result.simulator_faults_a), ("B", result.simulator_faults_b)):
        if faults:
            note = f"{faults} attempt(s) of {name} left out: the simulated customer misplayed (simulator fault)"
            console.print(Text(note, style="yellow"))


def _difference_line(result: models.CompareDocument) -> Text:
    line = Text("difference B − A: ", style="bold")
    line.append("–" if result.diff is None else f"{100 * result.diff:+.1f} points")
    ci = result.diff_ci
    if ci is not None and ci[1] is not None and ci[0] is not None:
        line.append(f"  95% CI [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]", style="dim")
    line.append(f"   majority-flip rate {pct(result.flip_rate)} ({result.flips} of {result.tasks} tasks)")
    expected = f" (expected with no change: {pct(result.expected_flip_rate)}"
    span = result.expected_flip_range
    if span is not None and span[0] is not None and span[1] is not None:
        expected += f", 95% of the time within {pct(span[0])} – {pct(span[1])}"
    line.append(expected + ")", style="dim")
    return line


def _left_out(result: models.CompareDocument, console: Console) -> None:
    groups: list[tuple[str, list[str]]] = [
        ("only in A", result.only_in_a),
        ("only in B", result.only_in_b),
        ("with no attempt counted in A (every one errored or had a simulator fault)", result.errored_in_a),
        ("with no attempt counted in B (every one errored or had a simulator fault)", result.errored_in_b),
    ]
    reasons = sorted({u.reason for u in result.unpaired})
    groups += [(f"not paired: {r}", [u.task_id for u in result.unpaired if u.reason == r]) for r in reasons]
    for where, ids in groups:
        if ids:
            listed = ", ".join(ids[:LISTED]) + (f" … and {len(ids) - LISTED} more" if len(ids) > LISTED else "")
            console.print(Text(f"{len(ids)} task(s) {where}, not compared: {listed}", style="yellow"))
