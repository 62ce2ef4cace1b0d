"""`statebox suites`, `statebox tasks`, `statebox validate`: what there is, and whether it is sound.

Every suite comes from a provider (statebox.suites.provider); these commands only print what it says.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from statebox.cli.common import fail, print_json, print_listing, task_progress
from statebox.cli.options import SuiteOptions, command, open_task_set
from statebox.suites.provider import SuiteError, SuiteInfo, SuiteProvider, suite_providers
from statebox.tasks import TaskFileError

SuiteArg = Annotated[str, typer.Argument(help="A suite (`statebox suites`) or a domain folder.", show_default=False)]
TasksOpt = Annotated[list[str] | None, typer.Option("--tasks", help="Task id glob (fnmatch); may repeat.")]
TestListOpt = Annotated[Path | None, typer.Option("--test-list", help="YAML list of task ids.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def register(app: typer.Typer, providers: list[SuiteProvider[Any]]) -> None:
    app.command("suites")(suites)
    app.command("tasks")(command("tasks", TasksOptions, tasks, providers))
    app.command("validate")(command("validate", ValidateOptions, validate, providers))


def suites(json_out: JsonOpt = False) -> None:
    """List the available suites, with their task counts."""
    rows = [info for provider in suite_providers() for info in provider.catalog()]
    if json_out:
        print_json([_info_json(info) for info in rows])
        return
    table = Table("suite", "tasks", "description")
    for info in rows:
        table.add_row(info.name, _count(info), info.description)
    Console().print(table)


def _info_json(info: SuiteInfo) -> dict[str, Any]:
    return {"suite": info.name, "tasks": info.tasks, "description": info.description, "needs": list(info.needs)}


def _count(info: SuiteInfo) -> str:
    if info.tasks is not None:
        return str(info.tasks)
    return f"? (needs {' '.join(info.needs)})" if info.needs else "?"


@dataclass(frozen=True)
class TasksOptions:
    """Which tasks of which suite: the options every command that reads a suite's tasks takes."""

    suite: SuiteArg
    json_out: JsonOpt = False
    task_globs: TasksOpt = None
    test_list: TestListOpt = None


def tasks(opts: TasksOptions, suite_options: SuiteOptions) -> None:
    """List a suite's tasks; --json dumps full definitions, reference solutions included."""
    _, chosen = open_task_set("tasks", opts.suite, suite_options, opts.task_globs, opts.test_list)
    if opts.json_out:
        print_json(chosen.listing_json())
    else:
        print_listing(chosen.listing(), Console())


@dataclass(frozen=True)
class ValidateOptions(TasksOptions):
    concurrency: Annotated[
        int, typer.Option(min=1, help="Tasks checked at once, for suites whose checks run in parallel.")
    ] = 2


def validate(opts: ValidateOptions, suite_options: SuiteOptions) -> None:
    """Check every task: the reference passes, doing nothing fails, every write is needed, mutants are caught."""
    from statebox.cli.shape import print_shape  # the judge is imported by the commands that judge

    provider, chosen = open_task_set("validate", opts.suite, suite_options, opts.task_globs, opts.test_list)
    with task_progress("validating", disabled=opts.json_out) as bar:
        job = bar.add_task("validate", total=len(chosen.tasks))
        try:
            report = provider.validate(chosen, concurrency=opts.concurrency, on_done=lambda: bar.advance(job))
        except (SuiteError, TaskFileError) as e:
            fail(str(e))
    shape = report.shape
    if opts.json_out:
        print_json({**report.json, "shape": shape.model_dump(mode="json")} if shape else report.json)
    else:
        console = Console()
        print_listing(report.table, console)
        if shape is not None:
            print_shape(shape, console)
        console.print(f"[{'green' if report.ok else 'red'}]{report.summary}[/]", highlight=False)
    if not report.ok:
        raise typer.Exit(1)
