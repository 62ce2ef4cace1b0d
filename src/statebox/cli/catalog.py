"""`statebox suites`, `statebox tasks`, `statebox validate`: what there is, and whether it is sound."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from statebox.cli import thinkingbox
from statebox.cli.common import open_suite, print_json, task_progress
from statebox.judge import TaskValidation, validate_task
from statebox.tasks import discover_domains, load_suite

TasksOpt = Annotated[list[str] | None, typer.Option("--tasks", help="Task id glob (fnmatch); may repeat.")]
TestListOpt = Annotated[Path | None, typer.Option("--test-list", help="YAML list of task ids.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
DataOpt = Annotated[
    Path | None, typer.Option("--data", help="thinkingbox-bench: a checkout of the benchmark's data repository.")
]


def register(app: typer.Typer) -> None:
    app.command("suites")(suites)
    app.command("tasks")(tasks)
    app.command("validate")(validate)


def suites(json_out: JsonOpt = False) -> None:
    """List the available suites."""
    domains = discover_domains()
    rows = [(name, len(load_suite(name, domains).tasks), d.description) for name, d in sorted(domains.items())]
    rows.append(("builtin", sum(r[1] for r in rows), "all built-in domains"))
    if json_out:
        print_json([{"suite": s, "tasks": n, "description": d} for s, n, d in rows])
        return
    table = Table("suite", "tasks", "description")
    for s, n, d in rows:
        table.add_row(s, str(n), d)
    table.add_row("thinkingbox-bench", "507", "ThinkingBox-Bench v1.0 from a checkout (--data PATH)")
    Console().print(table)


def tasks(
    suite: str,
    json_out: JsonOpt = False,
    task_globs: TasksOpt = None,
    test_list: TestListOpt = None,
    data: DataOpt = None,
) -> None:
    """List a suite's tasks; --json dumps full definitions, reference solutions included."""
    checkout = thinkingbox.checkout_path(suite, data)
    if checkout is not None:
        thinkingbox.list_tasks(thinkingbox.open_tb(checkout, task_globs, test_list), json_out)
        return
    s = open_suite(suite, task_globs, test_list)
    if json_out:
        print_json({"suite": s.name, "hash": s.content_hash(), "tasks": [t.model_dump(mode="json") for t in s.tasks]})
        return
    table = Table("id", "domain", "writes", "facts", "tags", title=f"{s.name}: {len(s.tasks)} tasks")
    for t in s.tasks:
        tools = s.domain_of(t).tools
        writes = sum(1 for c in t.reference if c.tool in tools and tools[c.tool].writes)
        table.add_row(t.id, t.domain, str(writes), str(len(t.customer.facts)), ", ".join(t.tags))
    Console().print(table)


def validate(
    suite: str,
    json_out: JsonOpt = False,
    task_globs: TasksOpt = None,
    test_list: TestListOpt = None,
    data: DataOpt = None,
    concurrency: Annotated[int, typer.Option(min=1, help="thinkingbox-bench: tasks checked at once.")] = 2,
) -> None:
    """Check every task: the reference passes, doing nothing fails, every write is needed, mutants are caught."""
    checkout = thinkingbox.checkout_path(suite, data)
    if checkout is not None:
        thinkingbox.validate(thinkingbox.open_tb(checkout, task_globs, test_list), json_out, concurrency)
        return
    s = open_suite(suite, task_globs, test_list)
    results: list[TaskValidation] = []
    with task_progress("validating", disabled=json_out) as bar:
        job = bar.add_task("validate", total=len(s.tasks))
        for t in s.tasks:
            results.append(validate_task(s, t))
            bar.advance(job)
    if json_out:
        print_json({"suite": s.name, "tasks": [r.model_dump() for r in results]})
    else:
        _print_validation(s.name, results)
    if not all(r.ok for r in results):
        raise typer.Exit(1)


def _print_validation(name: str, results: list[TaskValidation]) -> None:
    def mark(v: bool | None) -> str:
        return "[dim]n/a[/]" if v is None else ("[green]yes[/]" if v else "[red]NO[/]")

    table = Table("task", "reference", "no-op fails", "writes needed", "writes", "facts", "mutants", "problems")
    for r in results:
        mutants = f"{r.mutants_caught}/{r.mutants_total}"
        if r.mutants_caught != r.mutants_total:
            mutants = f"[red]{mutants}[/]"
        table.add_row(
            r.id,
            mark(r.reference_passes),
            mark(r.noop_fails),
            mark(r.necessary_calls),
            str(r.writes),
            str(r.facts),
            mutants,
            "; ".join(r.problems) or "",
        )
    console = Console()
    console.print(table)
    ok = sum(r.ok for r in results)
    style = "green" if ok == len(results) else "red"
    console.print(f"[{style}]{name}: {ok}/{len(results)} tasks pass every check[/]")
