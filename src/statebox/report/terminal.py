"""`statebox report` in the terminal: one block per (suite, agent, model), overall and per domain."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from statebox.metrics.failure_analysis import KINDS
from statebox.report.aggregate import labels
from statebox.report.models import CostSummary, JudgeAgreement, ReportDocument, RunEntry, Summary
from statebox.report.rates import headline_ks
from statebox.report.seed_figures import SEED_FAILURE_ANALYSIS

SHORT_LISTED = 8
FLAGGED_LISTED = 12
WIDE = 170  # columns from which the domains are a table (every figure with its interval); lines below


def pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def pct_ci(value: float | None, ci: Sequence[float | None] | None) -> str:
    if value is None:
        return "–"
    if ci is None or ci[0] is None or ci[1] is None:
        return pct(value)
    return f"{pct(value)} [{100 * ci[0]:.0f}–{100 * ci[1]:.0f}]"


def published(value: float | None, digits: int) -> str:
    """A paper's share with the digits it was printed with (67.24%, 79.9%)."""
    return "–" if value is None else f"{100 * value:.{digits}f}%"


def usd(value: float | None) -> str:
    """Dollars: cents from $0.10 up, three significant digits below."""
    if value is None:
        return "n/a"
    return f"${value:.2f}" if value >= 0.1 or value == 0 else f"${value:.3g}"


def render_report(report: ReportDocument, console: Console) -> None:
    """Print every run of a report document."""
    entries = [e.model_dump(include={"agent", "suite", "model"}) for e in report.runs]
    for entry, label in zip(report.runs, labels(entries), strict=True):
        console.print(_run_block(entry, label, wide=console.width >= WIDE))


def _run_block(entry: RunEntry, label: str, *, wide: bool) -> Panel:
    parts: list[Any] = [_headline(entry)]
    band = _band_lines(entry)
    if band is not None:
        parts.append(band)
    if not entry.canonical:
        parts.append(_shortfall_warning(entry))
    parts.append(_overall_table(entry))
    if len(entry.by_domain) > 1:
        parts.append(_domain_table(entry, wide))
    parts.append(_cost_line(entry.cost))
    parts.append(_failures_table(entry))  # on every run, so it can be read beside the paper's
    if entry.simulator_faults:
        parts.append(_simulator_table(entry))
    if entry.flagged_tasks:
        parts.append(_flagged_tasks_table(entry))
    if entry.judge_agreement is not None:
        parts.append(_agreement_line(entry.judge_agreement))
    title = f"[bold]{escape(label)}[/] [dim]· agent {escape(entry.agent)} · suite {escape(entry.suite)}[/]"
    return Panel(Group(*parts), title=title, title_align="left", border_style="cyan", padding=(0, 1))


def _headline(entry: Summary) -> Text:
    counted = entry.convention == "errors-as-failures"
    convention = "infrastructure errors counted as failures" if counted else "infrastructure errors excluded"
    text = Text(f"{entry.tasks} tasks × {entry.repeats} repeats · {entry.passes}/{entry.attempts} attempts passed · ")
    errors = entry.infra_errors
    kinds = ", ".join(f"{k} {v}" for k, v in entry.infra_error_kinds.items())
    text.append(f"{errors} infrastructure error{'s' if errors != 1 else ''}", style="yellow" if errors else "")
    text.append(f" ({kinds})" if kinds else "")
    if entry.simulator_faults:
        text.append(
            f" · {entry.simulator_faults} simulator fault{'s' if entry.simulator_faults != 1 else ''} "
            f"({pct(entry.simulator_fault_share)} of finished attempts, left out)",
            style="yellow",
        )
    text.append(f" · {convention}", style="dim")
    return text


def _shortfall_warning(entry: Summary) -> Text:
    short = entry.shortfall
    listed = ", ".join(
        f"{s.task_id} ({s.attempts}/{entry.repeats}" + _left_out(s.errors, s.simulator_faults) + ")"
        for s in short[:SHORT_LISTED]
    )
    more = f" and {len(short) - SHORT_LISTED} more" if len(short) > SHORT_LISTED else ""
    return Text(
        f"⚠ not canonical: {len(short)} of {entry.tasks} tasks are short (fewer than {entry.repeats} finished "
        f"attempts) and never count as dependable: {listed}{more}. "
        "pass@k and pass^k are over the tasks with all of them (see the 'over' column).",
        style="bold yellow",
    )


def _left_out(errors: int, faults: int) -> str:
    parts = ([f"{errors} errored"] if errors else []) + ([f"{faults} simulator fault(s)"] if faults else [])
    return "".join(", " + p for p in parts)


def _ci(ci: Sequence[float | None] | None, scale: float = 100, digits: int = 1) -> str:
    if ci is None or ci[0] is None:
        return ""
    hi = "no upper bound" if ci[1] is None else f"{scale * ci[1]:.{digits}f}"
    return f"{scale * ci[0]:.{digits}f} – {hi}"


def _usd_ci(ci: Sequence[float | None] | None) -> str:
    if ci is None or ci[0] is None:
        return ""
    return f"{usd(ci[0])} – {'no upper bound' if ci[1] is None else usd(ci[1])}"


def _over(tasks: int, total: int) -> str:
    """The task set a figure rests on, said in every row, so a complete run's column reads as complete."""
    return f"all {total} tasks" if tasks == total else f"over {tasks} of {total} tasks"


def _of(passes: int, attempts: int) -> str:
    return f"{passes}/{attempts}"


def _overall_table(entry: Summary) -> Table:
    """One row per metric: value, its 95% interval, the counts it rests on, and how many tasks it is over."""
    n, ks, total = entry.repeats, headline_ks(entry.repeats), entry.tasks
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("overall", style="cyan", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", style="dim")  # these three wrap on a narrow terminal
    table.add_column("passed/attempts", justify="right")
    table.add_column("over", style="yellow")
    passes = _of(entry.passes, entry.attempts)
    table.add_row("pass@1", pct(entry.pass_at_1), _ci(entry.pass_at_1_ci), passes, _over(entry.pass_at_1_tasks, total))
    curve = _of(entry.curve_passes, entry.curve_attempts)
    over = _over(entry.curve_tasks, total)
    for values, intervals, name in (
        (entry.pass_at_k, entry.pass_at_k_ci, "pass@"),
        (entry.pass_hat_k, entry.pass_hat_k_ci, "pass^"),
    ):
        for k in ks[1:]:
            table.add_row(f"{name}{k}", pct(values[str(k)]), _ci(intervals.get(str(k))), curve, over)
    for k in ks[1:]:
        plugin = pct(entry.pass_hat_k_plugin[str(k)])
        table.add_row(f"pass^{k} plug-in (biased ↑)", plugin, "", curve, over, style="dim")
    short = f"{entry.short_tasks} short, never dependable" if entry.short_tasks else _over(total, total)
    observed = f"{entry.all_k_tasks}/{total} ({pct(entry.all_k_share)})"
    table.add_row(f"observed {n}/{n} tasks", observed, _ci(entry.all_k_ci), "", short)
    retention = "–" if entry.retention is None else f"{entry.retention:.2f}"
    table.add_row(f"retention (pass^{n} / pass@1)", retention, _ci(entry.retention_ci, scale=1, digits=2), curve, over)
    _cost_rows(table, entry)
    table.add_row("infrastructure errors", str(entry.infra_errors), "", "", "")
    faults = f"{entry.simulator_faults} ({pct(entry.simulator_fault_share)})"
    table.add_row("simulator faults (left out)", faults, "", "", "")
    return table


def _cost_rows(table: Table, entry: Summary) -> None:
    """The two cost ratios, each with its numerator and denominator."""
    cost, spent = entry.cost, usd(entry.cost.agent_usd)
    table.add_row(
        "agent cost per success",
        usd(cost.per_success_usd),
        _usd_ci(cost.per_success_ci),
        f"{spent} / {entry.passes} passed",
        "",
    )
    table.add_row(
        "agent cost per dependable task",
        usd(cost.per_dependable_task_usd),
        _usd_ci(cost.per_dependable_task_ci),
        f"{spent} / {entry.all_k_tasks} tasks",
        "",
    )


def _band_lines(entry: Summary) -> Text | None:
    """When an attempt errored: pass@1 and pass^k under both conventions, and the band between them."""
    band = entry.error_band
    if band is None:
        return None
    low, high = band.errors_as_failures, band.errors_excluded
    text = Text("infrastructure errors may be likelier on failing attempts: each number both ways, ", style="yellow")
    text.append("errors as failures – errors excluded, and the band of their intervals\n", style="yellow")
    text.append(f"  pass@1 {pct(low.pass_at_1)} – {pct(high.pass_at_1)}  band {_ci(band.pass_at_1)}")
    for k in headline_ks(entry.repeats)[1:]:
        key = str(k)
        text.append(f" · pass^{k} {pct(low.pass_hat_k.get(key))} – {pct(high.pass_hat_k.get(key))}")
        text.append(f"  band {_ci(band.pass_hat_k.get(key))}")
    sets = f"\n  pass^k over {low.curve_tasks} tasks (errors as failures) and {high.curve_tasks} (errors excluded)"
    text.append(sets, style="dim")
    return text


def _domain_lines(entry: RunEntry) -> Group:
    """A narrow terminal: one wrapped line per domain, each figure with its interval and counts."""
    n = entry.repeats
    lines = []
    for name, d in sorted(entry.by_domain.items()):
        text = Text(f"{name}", style="cyan")
        text.append(f": {d.tasks} tasks · pass@1 {pct_ci(d.pass_at_1, d.pass_at_1_ci)} {_of(d.passes, d.attempts)}")
        text.append(f" · pass@{n} {_at('pass_at_k', n)(d)} · pass^{n} {_at('pass_hat_k', n)(d)}")
        text.append(f" · {n}/{n} {d.all_k_tasks}/{d.tasks} · $/success {_per_success(d)}")
        rest = f" · {d.short_tasks} short · {d.infra_errors} errors · {d.simulator_faults} sim. faults"
        text.append(rest, style="dim")
        lines.append(text)
    return Group(Text("by domain", style="bold"), *lines)


def _domain_table(entry: RunEntry, wide: bool) -> Table | Group:
    """One row per domain, every figure at k = n with its 95% interval and counts (lines on a narrower terminal)."""
    if not wide:
        return _domain_lines(entry)
    n = entry.repeats
    ks = [n] if n > 1 else []
    columns: list[tuple[str, Any]] = [
        ("tasks", lambda d: str(d.tasks)),
        ("pass@1 (95% CI)", lambda d: f"{pct_ci(d.pass_at_1, d.pass_at_1_ci)} {_of(d.passes, d.attempts)}"),
    ]
    columns += [(f"pass@{k}", _at("pass_at_k", k)) for k in ks]
    columns += [(f"pass^{k}", _at("pass_hat_k", k)) for k in ks]
    columns += [
        (f"{n}/{n}", lambda d: f"{d.all_k_tasks}/{d.tasks}"),
        ("short", lambda d: str(d.short_tasks)),
        ("$/success (95% CI)", _per_success),
        ("errors", lambda d: str(d.infra_errors)),
        ("sim. faults", lambda d: str(d.simulator_faults)),
    ]
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("domain", style="cyan", no_wrap=True)
    for name, _ in columns:
        table.add_column(name, justify="right", no_wrap=True)
    for name, d in sorted(entry.by_domain.items()):
        table.add_row(name, *(cell(d) for _, cell in columns))
    return table


def _per_success(d: Summary) -> str:
    ci = _usd_ci(d.cost.per_success_ci)
    return f"{usd(d.cost.per_success_usd)}" + (f" [{ci}]" if ci else "") + f" / {d.passes} passed"


def _at(key: str, k: int) -> Any:
    """A cell of pass@k or pass^k with its interval, and "(m/T)" beside it when it is over fewer than all tasks."""

    def cell(d: Summary) -> str:
        value = pct_ci(getattr(d, key).get(str(k)), getattr(d, f"{key}_ci").get(str(k)))
        return value if d.curve_tasks == d.tasks else f"{value} ({d.curve_tasks}/{d.tasks})"

    return cell


def _agreement_line(agreement: JudgeAgreement) -> Text:
    """The suite's own verdict against statebox's typed one, and the tasks where they differ."""
    text = Text(f"typed judge agrees with the suite's own verdict on {agreement.agreeing}/{agreement.attempts} "
                f"attempts ({pct(agreement.share)})")  # fmt: skip
    if agreement.disagreeing_tasks:
        shown = ", ".join(agreement.disagreeing_tasks[:10])
        more = f" and {len(agreement.disagreeing_tasks) - 10} more" if len(agreement.disagreeing_tasks) > 10 else ""
        text.append(f"; they differ on {shown}{more}", style="yellow")
    return text


def _cost_line(cost: CostSummary) -> Text:
    text = Text("cost: ", style="bold")
    text.append(f"total {usd(cost.total_usd)}")
    text.append(
        f" — agent {usd(cost.agent_usd)} · user {usd(cost.user_usd)} · judge {usd(cost.judge_usd)}",
        style="dim",
    )
    if cost.errored_usd:
        text.append(f" · errored attempts {usd(cost.errored_usd)} ({pct(cost.errored_share)} of spend)", style="yellow")
    if cost.errored_unrecorded:
        text.append(f" · {cost.errored_unrecorded} errored attempt(s) recorded no spend", style="dim italic")
    if None in (cost.agent_usd, cost.user_usd, cost.judge_usd):
        text.append("  (n/a: no price known for some calls)", style="dim italic")
    return text


def _failures_table(entry: Summary) -> Group:
    """The seed's failure analysis: each figure as count and share of the failed attempts, the paper's beside it."""
    analysis, seed = entry.failure_analysis, SEED_FAILURE_ANALYSIS.shares
    failed = analysis.failed_attempts
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("failure analysis", style="magenta", no_wrap=True)
    table.add_column(f"of {failed} failed attempts", justify="right")
    table.add_column("share", justify="right")
    table.add_column("ThinkingBox paper¹", justify="right", style="dim")
    shares = analysis.shares
    rows = [
        ("terminated cleanly", analysis.terminated_cleanly, shares.terminated_cleanly, seed.terminated_cleanly),
        (">= 1 wrong value", analysis.with_wrong_value, shares.with_wrong_value, seed.with_wrong_value),
        (">= 1 extra effect", analysis.with_extra_effect, shares.with_extra_effect, seed.with_extra_effect),
        (">= 1 missing effect", analysis.with_missing_effect, shares.with_missing_effect, seed.with_missing_effect),
    ]
    for name, count, share, paper in rows:
        table.add_row(name, str(count), pct(share), published(paper, 2))
    for name in [*seed.signatures, *(n for n in analysis.signatures if n not in seed.signatures)]:
        count, printed = analysis.signatures.get(name, 0), published(seed.signatures.get(name), 1)
        share = shares.signatures.get(name, 0.0) if failed else None  # a signature no attempt had is 0.0%, not "–"
        table.add_row(f"signature {name}", str(count), pct(share), printed)
    for kind, count in entry.discrepancy_kinds.items():
        if kind not in KINDS:
            table.add_row(Text(f"has {kind}", style="dim"), str(count), pct(count / failed if failed else None), "")
    for check, count in entry.policy_violations.items():
        table.add_row(Text(f"violated {check}", style="dim"), str(count), pct(count / failed if failed else None), "")
    caption = f"¹ {SEED_FAILURE_ANALYSIS.label}; the kinds overlap, the signatures do not"
    if analysis.writes_unrecorded:
        caption += (
            f"; {analysis.writes_unrecorded} failed attempt(s) recorded before successful writes were counted: "
            "their effects say whether one succeeded"
        )
    return Group(table, Text(caption, style="dim"))


def _simulator_table(entry: Summary) -> Table:
    """Attempts the simulated customer spoiled, per fault kind: neither passes nor agent failures."""
    errors_counted = entry.infra_errors if entry.convention == "errors-as-failures" else 0
    finished = entry.attempts - errors_counted + entry.simulator_faults
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("simulator fault (left out)", style="yellow", no_wrap=True)
    table.add_column(f"of {finished} finished attempts", justify="right")
    table.add_column("share", justify="right")
    for kind, count in entry.simulator_fault_kinds.items():
        table.add_row(kind, str(count), pct(entry.simulator_fault_kind_shares.get(kind)))
    return table


def _flagged_tasks_table(entry: Summary) -> Table:
    """Per task: failed attempts per violated trace check, flagged attempts per simulator fault kind."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("task", style="cyan", no_wrap=True)
    table.add_column("policy violations")
    table.add_column("simulator faults")
    for flags in entry.flagged_tasks[:FLAGGED_LISTED]:
        table.add_row(flags.task_id, _counts(flags.policy_violations), _counts(flags.simulator_faults))
    if len(entry.flagged_tasks) > FLAGGED_LISTED:
        table.add_row(f"… and {len(entry.flagged_tasks) - FLAGGED_LISTED} more (see --json)", "", "")
    return table


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} ×{n}" for name, n in counts.items()) or "–"
