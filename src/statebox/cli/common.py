"""Helpers shared by the CLI commands: one-line errors, loading a built-in suite, printing JSON and tables."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from statebox.tasks import Suite, TaskFileError, load_suite
from statebox.tasks.provider import Cell, Listing
from statebox.tools.quoting import message_of

err_console = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def warn(message: str) -> None:
    err_console.print(f"[yellow]warning:[/] {escape(message)}", highlight=False)


def open_suite(name: str) -> Suite:
    """A built-in suite (commands that run on statebox's own world: demo, fake-model), or a one-line error."""
    try:
        return load_suite(name)
    except (LookupError, TaskFileError) as e:
        fail(message_of(e))


def task_progress(label: str, *, disabled: bool = False) -> Progress:
    """A transient progress bar on stderr for work over tasks (validation)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=disabled,
    )


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def print_listing(listing: Listing, console: Console) -> None:
    """A provider's table, then its notes (e.g. the tasks left out, with why)."""
    table = Table(title=listing.title)
    for column in listing.columns:
        table.add_column(column, overflow="fold")
    for row in listing.rows:
        table.add_row(*(_cell(value) for value in row))
    console.print(table)
    for note in listing.notes:
        console.print(f"[yellow]{escape(note.label)}[/] {escape(note.text)}", highlight=False, soft_wrap=True)


def _cell(value: Cell) -> str:
    if value is None:
        return "[dim]n/a[/]"
    if isinstance(value, bool):
        return "[green]yes[/]" if value else "[red]NO[/]"
    return escape(str(value))
