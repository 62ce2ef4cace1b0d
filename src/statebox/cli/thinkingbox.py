"""The `thinkingbox-bench` side of `statebox tasks`, `validate` and `run`: a suite read from `--data PATH`."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import typer
from rich.console import Console
from rich.table import Table

from statebox.cli.common import err_console, fail, print_json, task_progress
from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.suite import SUITE_NAME, TbRunOptions, TbSuite, bench_task_of, load_tb_suite
from statebox.compat.thinkingbox.validation import TbTaskValidation, validate_tb_suite
from statebox.runner.backend import TaskSet
from statebox.runner.errors import CampaignError


def checkout_path(suite: str, data: Path | None) -> Path | None:
    """`--data` when the command is about ThinkingBox-Bench, None for a built-in suite; the option
    goes with that suite and no other."""
    if suite == SUITE_NAME:
        if data is None:
            fail(f"{SUITE_NAME} needs --data PATH: a checkout of the benchmark's data repository")
        return data
    if data is not None:
        fail(f"--data is only for {SUITE_NAME}; {suite!r} is a built-in suite")
    return None


def open_tb(
    data: Path, patterns: list[str] | None, test_list: Path | None, options: TbRunOptions | None = None
) -> TbSuite:
    """Read the checkout and select tasks, turning bad input into a one-line error."""
    if not data.is_dir():
        fail(f"--data {data}: no such directory (expected a checkout of the benchmark's data repository)")
    if test_list is not None and not test_list.is_file():
        fail(f"--test-list {test_list}: no such file")
    try:
        return load_tb_suite(data, test_list, options).select(patterns)
    except (TbFormatError, LookupError) as e:
        fail(str(e).strip("'\""))


def run_options(server_python: str | None, typesense: str | None, fork: bool) -> TbRunOptions:
    """`--server-python`, `--typesense` and `--fork/--no-fork`, checked."""
    python = TbRunOptions().server_python
    if server_python is not None:
        found = shutil.which(server_python)
        if found is None:
            fail(f"--server-python {server_python}: not an executable Python")
        python = os.path.abspath(found)
    if typesense is not None:
        parts = urlsplit(typesense)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            fail(f"--typesense {typesense!r}: expected a URL like http://localhost:8108")
    return TbRunOptions(server_python=python, typesense_url=typesense, fork=fork)


def warn_unsupported(suite: TaskSet) -> None:
    """Say on stderr which tasks of the test list cannot run (they are left out of the run)."""
    if isinstance(suite, TbSuite) and suite.unsupported:
        shown = ", ".join(task_id for task_id, _ in suite.unsupported[:5])
        more = f" and {len(suite.unsupported) - 5} more" if len(suite.unsupported) > 5 else ""
        err_console.print(
            f"[yellow]warning:[/] {len(suite.unsupported)} unsupported task(s) left out: {shown}{more} "
            f"(see `statebox tasks {SUITE_NAME} --data ...`)",
            highlight=False,
        )


def list_tasks(suite: TbSuite, json_out: bool) -> None:
    """The tasks table (or JSON), then every unsupported task by name with why."""
    unsupported = [{"id": task_id, "reason": reason} for task_id, reason in suite.unsupported]
    if json_out:
        tasks = [t.model_dump(mode="json") for t in suite.tasks]
        print_json({"suite": suite.name, "hash": suite.content_hash(), "tasks": tasks, "unsupported": unsupported})
        return
    title = f"{suite.name}: {len(suite.tasks)} tasks" + (f", {len(unsupported)} unsupported" if unsupported else "")
    table = Table(title=title)
    table.add_column("id", overflow="fold")
    for column in ("domain", "scenario", "calls", "rubrics", "turns"):
        table.add_column(column, overflow="fold")
    for task in suite.tasks:
        tb = bench_task_of(task).tb
        counts = (len(task.reference), len(task.rubrics), task.limits.max_turns)
        table.add_row(task.id, task.domain, tb.scenario, *map(str, counts))
    console = Console()
    console.print(table)
    for item in unsupported:
        console.print(f"[yellow]unsupported[/] {item['id']}: {item['reason']}", highlight=False, soft_wrap=True)


def validate(suite: TbSuite, json_out: bool, concurrency: int) -> None:
    """Run the reference and no-op checks on the real servers; exit 1 when a task fails them."""
    with task_progress("validating", disabled=json_out) as bar:
        job = bar.add_task("validate", total=len(suite.tasks))
        try:
            results = asyncio.run(validate_tb_suite(suite, concurrency=concurrency, on_done=lambda: bar.advance(job)))
        except CampaignError as e:
            fail(str(e))
    unsupported = [{"id": task_id, "reason": reason} for task_id, reason in suite.unsupported]
    if json_out:
        print_json({"suite": suite.name, "tasks": [r.model_dump() for r in results], "unsupported": unsupported})
    else:
        _print_validation(suite.name, results, unsupported)
    if not all(r.ok for r in results):
        raise typer.Exit(1)


def _print_validation(name: str, results: list[TbTaskValidation], unsupported: list[dict[str, str]]) -> None:
    def mark(v: bool | None) -> str:
        return "[dim]n/a[/]" if v is None else ("[green]yes[/]" if v else "[red]NO[/]")

    table = Table(title=f"{name}: reference and no-op checks on the tool servers")
    for column in ("task", "reference passes", "no-op fails", "changes state", "problems"):
        table.add_column(column, overflow="fold")
    for r in results:
        changes = "?" if r.read_only is None else ("no" if r.read_only else "yes")
        table.add_row(r.id, mark(r.reference_passes), mark(r.noop_fails), changes, "; ".join(r.problems))
    console = Console()
    console.print(table)
    for item in unsupported:
        console.print(f"[yellow]unsupported[/] {item['id']}: {item['reason']}", highlight=False, soft_wrap=True)
    ok = sum(r.ok for r in results)
    style = "green" if ok == len(results) else "red"
    console.print(f"[{style}]{name}: {ok}/{len(results)} tasks pass the reference and no-op checks[/]")
